import { KeyRound, LoaderCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Form, Link, useNavigation } from "react-router";
import { requestPasswordResetByForm } from "#server/auth.server.ts";
import { failure, readPostedForm, success, unreadable } from "#server/forms/form-post.server.ts";
import { Notice } from "#app/components/ui/notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import {
  focusFirstInvalid,
  keepFormOnFailure,
  parseForm,
  type FieldErrors,
} from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { forgotPasswordSchema, RESET_REQUESTED_MESSAGE } from "#app/lib/staff.ts";
import type { Route } from "./+types/forgot-password";

/**
 * /auth/forgot-password: one e-mail field. better-auth sends a single-use link when the address
 * is an admin's; the answer is the same either way (decision 0018). A plain form: works without
 * JavaScript.
 */

const FORM = "forgot-password";

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readPostedForm(request);
  if (!posted.ok) return unreadable(FORM, posted);
  const form = posted.formData;
  const parsed = parseForm(form, forgotPasswordSchema);
  if (!parsed.ok) {
    return failure(400, {
      form: FORM,
      formData: form,
      names: ["email"],
      fieldErrors: parsed.fieldErrors,
      message: parsed.fieldErrors.email ?? "Please enter your e-mail address.",
    });
  }
  const result = await requestPasswordResetByForm(request, parsed.value.email, context.clientIp);
  if (!result.ok) {
    return failure(result.status, {
      form: FORM,
      formData: form,
      names: ["email"],
      message: result.message,
    });
  }
  return success(FORM, RESET_REQUESTED_MESSAGE);
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
    const parsed = parseForm(new FormData(event.currentTarget), forgotPasswordSchema);
    if (!parsed.ok) {
      event.preventDefault();
      setClientErrors(parsed.fieldErrors);
      focusFirstInvalid(event.currentTarget, parsed.fieldErrors);
      return;
    }
    setClientErrors(null);
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
              <div className="grid gap-2">
                <Label htmlFor="forgot-email">Email</Label>
                <Input
                  id="forgot-email"
                  name="email"
                  type="email"
                  autoComplete="username"
                  required
                  maxLength={254}
                  defaultValue={failed?.values?.email ?? ""}
                  aria-invalid={errors.email ? true : undefined}
                  aria-describedby={errors.email ? "forgot-email-error" : undefined}
                />
                {errors.email ? (
                  <p id="forgot-email-error" role="alert" className="text-sm text-destructive">
                    {errors.email}
                  </p>
                ) : null}
              </div>
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
