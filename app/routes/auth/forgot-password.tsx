import { KeyRound, LoaderCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Form, Link, useNavigation } from "react-router";
import { requestPasswordResetByForm } from "#server/auth/password-links.server.ts";
import { formAction, withSchema } from "#server/forms/form-action.server.ts";
import { failure, success } from "#server/forms/form-post.server.ts";
import { Notice } from "#app/components/ui/notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { describe, Field } from "#app/components/forms/fields.tsx";
import { checkBeforePost, keepFormOnFailure, type FieldErrors } from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { forgotPasswordSchema, RESET_REQUESTED_MESSAGE } from "#app/lib/admin/staff.ts";
import type { Route } from "./+types/forgot-password";

/**
 * /auth/forgot-password: one e-mail field. better-auth sends a single-use link when the address
 * is an admin's; the answer is the same either way (decision 0018). A plain form: works without
 * JavaScript.
 */

const FORM = "forgot-password";

export function action({ request, context }: Route.ActionArgs) {
  return formAction(
    request,
    { form: FORM },
    withSchema(
      forgotPasswordSchema,
      (fieldErrors, form) =>
        failure(400, {
          form: FORM,
          formData: form,
          names: ["email"],
          fieldErrors,
          message: fieldErrors.email ?? "Please enter your e-mail address.",
        }),
      async ({ email }, form) => {
        const result = await requestPasswordResetByForm(request, email, context.clientIp);
        if (!result.ok) {
          return failure(result.status, {
            form: FORM,
            formData: form,
            names: ["email"],
            message: result.message,
          });
        }
        return success(FORM, RESET_REQUESTED_MESSAGE);
      },
    ),
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Forgot password",
    description: "Reset the password of a NightWatch admin account.",
    noindex: true,
  });

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting =
    navigation.state !== "idle" && navigation.formAction === "/auth/forgot-password";
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const failed = actionData && !actionData.ok ? actionData : undefined;
  const errors = clientErrors ?? failed?.fieldErrors ?? {};
  const message = clientErrors
    ? undefined
    : failed && !failed.fieldErrors.email
      ? failed.message
      : undefined;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setClientErrors(checkBeforePost(event, forgotPasswordSchema));
  }

  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <KeyRound aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">Forgot password</h1>
          <CardDescription>
            Enter the e-mail address of your admin account. We will send you a link to choose a new
            password.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {actionData?.ok ? (
            <div className="grid gap-4">
              <Notice tone="sent">
                <p>{actionData.message}</p>
              </Notice>
              <Link to="/auth" className="text-sm text-primary underline underline-offset-4">
                Back to sign-in
              </Link>
            </div>
          ) : (
            <Form method="post" replace noValidate onSubmit={onSubmit} className="grid gap-4">
              {message ? (
                <Notice tone="error">
                  <p>{message}</p>
                </Notice>
              ) : null}
              <Field id="forgot-email" label="Email" error={errors.email}>
                <Input
                  {...describe("forgot-email", errors.email)}
                  name="email"
                  type="email"
                  autoComplete="username"
                  required
                  maxLength={254}
                  defaultValue={failed?.values?.email ?? ""}
                />
              </Field>
              <Button type="submit" disabled={submitting} className="w-full">
                {submitting ? <LoaderCircle aria-hidden className="animate-spin" /> : null}
                {submitting ? "Sending..." : "Send reset link"}
              </Button>
              <Link
                to="/auth"
                className="text-center text-sm text-primary underline underline-offset-4"
              >
                Back to sign-in
              </Link>
            </Form>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
