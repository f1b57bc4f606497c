import { KeyRound, LoaderCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Form, Link, useNavigation } from "react-router";
import { passwordLinkState, resetPasswordByForm } from "#server/auth/password-links.server.ts";
import { formAction, withSchema } from "#server/forms/form-action.server.ts";
import { failure, success } from "#server/forms/form-post.server.ts";
import { Notice } from "#app/components/ui/notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { describe, Field } from "#app/components/forms/fields.tsx";
import { checkBeforePost, keepFormOnFailure, type FieldErrors } from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import {
  LINK_INVALID_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_SET_MESSAGE,
  resetPasswordSchema,
} from "#app/lib/admin/staff.ts";
import type { Route } from "./+types/reset-password";

/**
 * /auth/reset-password?token=…: the page an e-mailed reset or invitation link opens. The new
 * password goes to better-auth's reset endpoint, which uses the token up (single use), stores the
 * password and ends the account's sessions (decision 0018). A plain form: works without
 * JavaScript.
 */

const FORM = "reset-password";

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await passwordLinkState(token);
  return { token, ...link };
}

export function action({ request, context }: Route.ActionArgs) {
  return formAction(
    request,
    { form: FORM },
    withSchema(
      resetPasswordSchema,
      (fieldErrors, form) =>
        failure(400, {
          form: FORM,
          formData: form,
          names: [],
          fieldErrors,
          message: "Please correct the highlighted fields.",
        }),
      async ({ token, password }, form) => {
        // Asked before the token is used up: the answer says "set" to an invitee.
        const link = await passwordLinkState(token);
        const result = await resetPasswordByForm(request, { token, password }, context.clientIp);
        if (!result.ok) {
          const status = result.reason === "rate_limited" ? 429 : 400;
          return failure(status, {
            form: FORM,
            formData: form,
            names: [],
            // not_found: the link (its token) is used, expired or unknown.
            reason:
              result.reason === "invalid_link"
                ? "not_found"
                : status === 429
                  ? "rate_limited"
                  : "invalid",
            fieldErrors: result.reason === "refused" ? { password: result.message } : {},
            message: result.reason === "invalid_link" ? LINK_INVALID_MESSAGE : result.message,
          });
        }
        const invitation = link.valid && link.invitation;
        return success(FORM, invitation ? PASSWORD_SET_MESSAGE : PASSWORD_CHANGED_MESSAGE);
      },
    ),
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

// The token is in the address: never cached, never sent on as a referrer.
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
});

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title:
      args.loaderData?.valid && args.loaderData.invitation
        ? "Set your password"
        : "Choose a new password",
    description: "Choose the password of a NightWatch admin account.",
    noindex: true,
  });

const linkClass = "text-primary underline underline-offset-4";

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const failed = actionData && !actionData.ok ? actionData : undefined;
  const errors = clientErrors ?? failed?.fieldErrors ?? {};
  const linkDead = (!actionData?.ok && !loaderData.valid) || failed?.reason === "not_found";
  const invitation = loaderData.valid && loaderData.invitation;
  const heading = actionData?.ok
    ? "Password saved"
    : linkDead
      ? "Link expired"
      : invitation
        ? "Set your password"
        : "Choose a new password";

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    setClientErrors(checkBeforePost(event, resetPasswordSchema));
  }

  let body: React.ReactNode;
  if (actionData?.ok) {
    body = (
      <Notice tone="success">
        <p>{actionData.message}</p>
        <p className="mt-2">
          <Link to="/auth" className={linkClass}>
            Sign in
          </Link>
        </p>
      </Notice>
    );
  } else if (linkDead) {
    body = (
      <Notice tone="error">
        <p>{LINK_INVALID_MESSAGE}</p>
        <p className="mt-2">
          <Link to="/auth/forgot-password" className={linkClass}>
            Ask for a new link
          </Link>
        </p>
      </Notice>
    );
  } else {
    const message =
      !clientErrors && failed && failed.reason !== "invalid" ? failed.message : undefined;
    body = (
      <Form method="post" replace noValidate onSubmit={onSubmit} className="grid gap-4">
        {message ? (
          <Notice tone="error">
            <p>{message}</p>
          </Notice>
        ) : null}
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField
          id="reset-password"
          name="password"
          label="New password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          error={errors.password}
        />
        <PasswordField
          id="reset-confirm-password"
          name="confirmPassword"
          label="Confirm new password"
          error={errors.confirmPassword}
        />
        <Button type="submit" disabled={submitting} className="w-full">
          {submitting ? <LoaderCircle aria-hidden className="animate-spin" /> : null}
          {submitting ? "Saving..." : invitation ? "Set password" : "Change password"}
        </Button>
      </Form>
    );
  }

  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <KeyRound aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">{heading}</h1>
          {actionData?.ok || linkDead ? null : (
            <CardDescription>
              {invitation
                ? "Choose the password for your new admin account."
                : "Choose a new password for your admin account. Every device signed in to it will be signed out."}
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>{body}</CardContent>
      </Card>
    </section>
  );
}

function PasswordField({
  id,
  name,
  label,
  hint,
  error,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  error?: string;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Input
        {...describe(id, error, Boolean(hint))}
        name={name}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
      />
    </Field>
  );
}
