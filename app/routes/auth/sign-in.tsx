import { LoaderCircle, LockKeyhole } from "lucide-react";
import { data, Form, Link, replace, useNavigation } from "react-router";
import { z } from "zod/mini";
import { adminReturnPath, getAdmin } from "#server/auth/guard.server.ts";
import { signInWithPassword, verifySecondFactor } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";
import { Notice } from "#app/components/ui/notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { formAction, intentOf } from "#server/forms/form-action.server.ts";
import { failure } from "#server/forms/form-post.server.ts";
import type { Route } from "./+types/sign-in";

/**
 * /auth 'Admin Access'. A plain form posting to this route's action, which signs in through
 * better-auth on the server and sets its session cookie: it works without JavaScript.
 *
 * For an admin with two-factor sign-in the right password answers the second step instead (the
 * code), and better-auth's short-lived two-factor cookie is the only state between the two
 * posts: the code's post goes to the same action, which hands it to better-auth's verify
 * endpoint with that cookie.
 */

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw replace(adminReturnPath(request));
  // Back from the account-locked e-mail's "Unlock and sign in" (routes/auth/unlock.tsx).
  return { unlocked: new URL(request.url).searchParams.get("unlocked") === "1" };
}

export function action({ request, context }: Route.ActionArgs) {
  return formAction(request, { form: "sign-in" }, (form) =>
    intentOf(form) === "two-factor"
      ? secondStep(request, form, context.clientIp)
      : firstStep(request, form, context.clientIp),
  );
}

async function firstStep(request: Request, form: FormData, clientIp: string | undefined) {
  const refuse = (status: number, message: string) =>
    failure(status, { form: "sign-in", formData: form, names: ["email"], message });
  const parsed = parseForm(form, signInSchema);
  if (!parsed.ok) return refuse(400, "Please enter your email and password.");
  const result = await signInWithPassword(request, parsed.value, clientIp);
  if (!result.ok) {
    // The same words for a wrong password, an unknown address and a locked account.
    const message =
      result.status === 401
        ? `${result.message}. Too many wrong passwords in a row lock an account for ${config.signInLockout.minutes} minutes or more; its owner is e-mailed a link to sign in all the same.`
        : result.message;
    return refuse(result.status, message);
  }
  if (result.twoFactor) return codeStep({ method: "totp" }, result.headers);
  // Back to the admin page asked for (`?redirectTo=`, kept by the form's own URL), else the dashboard.
  throw replace(adminReturnPath(request), { headers: result.headers });
}

type CodeMethod = "totp" | "backup_code";

/** The second step's page: the code input (and the backup code's), with `message` if refused. */
function codeStep(
  answer: { method: CodeMethod; message?: string },
  headers = new Headers(),
  status = 200,
) {
  headers.set("Cache-Control", "no-store");
  const { method, message } = answer;
  const step: FormAnswer<{ method: CodeMethod }> =
    message === undefined
      ? { ok: true, form: "two-factor", method }
      : {
          ok: false,
          form: "two-factor",
          method,
          message,
          reason: status === 429 ? "rate_limited" : "invalid",
          fieldErrors: {},
        };
  return data(step, { status, headers });
}

async function secondStep(request: Request, form: FormData, clientIp: string | undefined) {
  const parsed = parseForm(form, codeSchema);
  const method: CodeMethod =
    parsed.ok && parsed.value.method === "backup_code" ? "backup_code" : "totp";
  if (!parsed.ok) {
    return codeStep(
      { method, message: method === "totp" ? "Enter the 6-digit code." : "Enter a backup code." },
      undefined,
      400,
    );
  }
  const code = method === "totp" ? parsed.value.code.replace(/\s+/g, "") : parsed.value.code;
  const result = await verifySecondFactor(request, { method, code }, clientIp);
  if (result.ok) throw replace(adminReturnPath(request), { headers: result.headers });
  switch (result.code) {
    case "INVALID_CODE":
    case "INVALID_BACKUP_CODE":
      return codeStep(
        {
          method,
          message:
            method === "totp"
              ? "That code is not right. Enter the code your app shows now."
              : "That backup code is not right, or it has been used already.",
        },
        result.headers,
        401,
      );
    case "CODE_ALREADY_USED":
      return codeStep(
        { method, message: "That code has been used already. Enter the next code your app shows." },
        result.headers,
        401,
      );
    case "ACCOUNT_TEMPORARILY_LOCKED":
      return failure(
        429,
        {
          form: "sign-in",
          formData: null,
          names: [],
          message:
            "Too many wrong codes: two-factor sign-in for this account is paused for a while. Please try again later.",
        },
        result.headers,
      );
    default:
      if (result.status === 429) {
        return codeStep(
          { method, message: "Too many attempts. Please wait a minute and try again." },
          result.headers,
          429,
        );
      }
      // The two-factor cookie expired or too many codes were tried for it: start again.
      return failure(
        401,
        {
          form: "sign-in",
          formData: null,
          names: [],
          message: "The time for the code ran out. Please enter your password again.",
        },
        result.headers,
      );
  }
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

// Answers depend on the visitor's session: never kept by a shared cache.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Admin Access",
    description: "Staff sign-in for the NightWatch admin area.",
    noindex: true,
  });

const signInSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

const codeSchema = z.object({
  method: z.enum(["totp", "backup_code"]),
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/auth";
  if (actionData?.form === "two-factor" && "method" in actionData && actionData.method) {
    return (
      <CodeStep method={actionData.method} error={actionData.message} submitting={submitting} />
    );
  }
  const error = actionData && !actionData.ok ? actionData.message : undefined;
  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <LockKeyhole aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">Admin Access</h1>
          <CardDescription>Sign in with your admin e-mail and password.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" replace className="grid gap-4">
            {error ? (
              <ErrorMessage message={error} />
            ) : loaderData?.unlocked ? (
              <Notice tone="success">
                <p>Unlocked in this browser for the next hour: sign in with your password.</p>
              </Notice>
            ) : null}
            <div className="grid gap-2">
              <Label htmlFor="auth-email">Email</Label>
              <Input
                id="auth-email"
                name="email"
                type="email"
                autoComplete="username"
                required
                defaultValue={
                  (actionData && "values" in actionData && actionData.values?.email) || ""
                }
                aria-invalid={error ? true : undefined}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="auth-password">Password</Label>
              <Input
                id="auth-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                aria-invalid={error ? true : undefined}
              />
            </div>
            <a
              href="/auth/forgot-password"
              className="-mt-2 justify-self-end text-sm text-primary underline underline-offset-4"
            >
              Forgot password?
            </a>
            <Button type="submit" disabled={submitting} className="w-full">
              {submitting ? <LoaderCircle aria-hidden className="animate-spin" /> : null}
              {submitting ? "Signing in..." : "Sign In"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </section>
  );
}

function ErrorMessage({ message }: { message: string }) {
  return (
    <Notice tone="error">
      <p>{message}</p>
    </Notice>
  );
}

/** The second step: the code from the authenticator app, or a backup code instead. */
function CodeStep({
  method,
  error,
  submitting,
}: {
  method: CodeMethod;
  error: string | undefined;
  submitting: boolean;
}) {
  const backup = method === "backup_code";
  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <LockKeyhole aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">
            Two-factor sign-in
          </h1>
          <CardDescription>
            Enter the 6-digit code from your authenticator app to finish signing in.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          {error && !backup ? <ErrorMessage message={error} /> : null}
          <Form method="post" replace className="grid gap-4">
            <input type="hidden" name="intent" value="two-factor" />
            <input type="hidden" name="method" value="totp" />
            <div className="grid gap-2">
              <Label htmlFor="auth-code">Authentication code</Label>
              <Input
                id="auth-code"
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={9}
                required
                // The step exists for this one field: typing can start at once.
                autoFocus={!backup}
                aria-invalid={error && !backup ? true : undefined}
              />
            </div>
            <Button type="submit" disabled={submitting} className="w-full">
              {submitting ? <LoaderCircle aria-hidden className="animate-spin" /> : null}
              Verify
            </Button>
          </Form>
          <details open={backup} className="rounded-md border p-3 text-sm">
            <summary className="cursor-pointer font-medium">Use a backup code instead</summary>
            <Form method="post" replace className="mt-3 grid gap-4">
              {error && backup ? <ErrorMessage message={error} /> : null}
              <input type="hidden" name="intent" value="two-factor" />
              <input type="hidden" name="method" value="backup_code" />
              <div className="grid gap-2">
                <Label htmlFor="auth-backup-code">Backup code</Label>
                <Input
                  id="auth-backup-code"
                  name="code"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={64}
                  required
                  aria-invalid={error && backup ? true : undefined}
                />
                <p className="text-muted-foreground">
                  One of the codes you kept when you turned two-factor sign-in on. Each works once.
                </p>
              </div>
              <Button type="submit" variant="outline" disabled={submitting} className="w-full">
                Use Backup Code
              </Button>
            </Form>
          </details>
          <p className="text-center text-sm">
            <Link to="/auth" reloadDocument className="text-primary underline underline-offset-4">
              Start again
            </Link>
          </p>
        </CardContent>
      </Card>
    </section>
  );
}
