import { data, redirect } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  accountScreen,
  confirmTwoFactorSetup,
  regenerateBackupCodes,
  signOutOtherSessions,
  signOutSession,
  startTwoFactorSetup,
  turnOffTwoFactor,
} from "#server/auth/account-security.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { SessionsCard } from "#app/components/admin/account/sessions-card.tsx";
import { TwoFactorCard } from "#app/components/admin/account/two-factor-card.tsx";
import {
  accountPasswordSchema,
  mailboxCodeSchema,
  sessionIdSchema,
  twoFactorCodeSchema,
  type TwoFactorSetupView,
} from "#app/lib/admin/account.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import type { Route } from "./+types/account";

/**
 * /admin/account 'My Account': the signed-in admin's two-factor sign-in and sessions. Open while
 * REQUIRE_ADMIN_2FA holds the rest of the admin area back, so that two-factor can be turned on.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const done = new URL(request.url).searchParams.get("done");
  return {
    ...(await accountScreen(request, admin)),
    done: done === "on" || done === "off" ? done : null,
  };
}

/**
 * Turning two-factor on or off makes better-auth replace the session: the answer is a redirect
 * carrying the new cookie, so the page is read again with it (this request's own loaders would
 * still hold the old one). `done` says what happened.
 */
function renewed(done: "on" | "off", headers: Headers) {
  return redirect(`/admin/account?done=${done}`, { headers });
}

/** The page's answers carry better-auth's Set-Cookie (turning two-factor on or off renews the session). */
function answer<T extends object>(
  body: { ok: boolean; form: string; message?: string } & T,
  headers = new Headers(),
  status = 200,
) {
  headers.set("Cache-Control", "no-store");
  return data(body, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  const ip = context.clientIp;
  return adminFormAction(
    request,
    { name: "account", failureMessage: "Something went wrong. Please try again." },
    {
      "enable-start": async (form, refuse) => {
        const parsed = parseForm(form, accountPasswordSchema);
        if (!parsed.ok) return refuse(400, "Enter your password.");
        const result = await startTwoFactorSetup(request, ip, admin, parsed.value.password);
        if (!result.ok) return refuse(result.status, result.message);
        if ("mailboxCodeSentTo" in result) {
          return answer(
            {
              ok: true,
              form: "enable-mailbox",
              message: `We e-mailed a 6-digit code to ${result.mailboxCodeSentTo}.`,
              mailboxCodeSentTo: result.mailboxCodeSentTo,
            },
            result.headers,
          );
        }
        return answer({ ok: true, form: "enable-start", setup: result.setup }, result.headers);
      },
      "enable-mailbox": async (form) => {
        const parsed = parseForm(form, mailboxCodeSchema);
        const result = parsed.ok
          ? await startTwoFactorSetup(
              request,
              ip,
              admin,
              parsed.value.password,
              parsed.value.mailboxCode,
            )
          : ({
              ok: false,
              status: 400,
              message: "Enter the 6-digit code we e-mailed you and your password.",
            } as const);
        if (result.ok && "setup" in result) {
          return answer({ ok: true, form: "enable-start", setup: result.setup }, result.headers);
        }
        const message = result.ok ? "Something went wrong. Please try again." : result.message;
        // An expired code goes back to the password (a new code is sent); otherwise try again.
        const expired = !result.ok && result.status === 410;
        return answer(
          {
            ok: false,
            form: expired ? "enable-start" : "enable-mailbox",
            message,
            mailboxCodeSentTo: expired ? null : admin.email,
          },
          undefined,
          result.ok ? 500 : result.status,
        );
      },
      "enable-confirm": async (form) => {
        const parsed = parseForm(form, twoFactorCodeSchema);
        const code = parsed.ok ? parsed.value.code.replace(/\s+/g, "") : "";
        const result = parsed.ok
          ? await confirmTwoFactorSetup(request, ip, admin, code)
          : {
              ok: false as const,
              status: 400,
              message: "Enter the 6-digit code from your authenticator app.",
              setup: null,
            };
        if (result.ok) return renewed("on", result.headers);
        const setup = "setup" in result ? (result.setup as TwoFactorSetupView | null) : null;
        return answer(
          { ok: false, form: "enable-confirm", message: result.message, setup },
          undefined,
          result.status,
        );
      },
      disable: async (form, refuse) => {
        const parsed = parseForm(form, accountPasswordSchema);
        if (!parsed.ok) return refuse(400, "Enter your password.");
        const result = await turnOffTwoFactor(request, ip, admin, parsed.value.password);
        if (!result.ok) return refuse(result.status, result.message);
        return renewed("off", result.headers);
      },
      "backup-codes": async (form, refuse) => {
        const parsed = parseForm(form, accountPasswordSchema);
        if (!parsed.ok) return refuse(400, "Enter your password.");
        const result = await regenerateBackupCodes(request, ip, admin, parsed.value.password);
        if (!result.ok) return refuse(result.status, result.message);
        return answer(
          {
            ok: true,
            form: "backup-codes",
            message: "New backup codes made: the old ones no longer work.",
            backupCodes: result.backupCodes,
          },
          result.headers,
        );
      },
      "revoke-session": async (form, refuse) => {
        const parsed = parseForm(form, sessionIdSchema);
        if (!parsed.ok) return refuse(400);
        const result = await signOutSession(request, ip, admin, parsed.value.sessionId);
        if (!result.ok) return refuse(result.status, result.message);
        return answer(
          { ok: true, form: "revoke-session", message: "That session is signed out." },
          result.headers,
        );
      },
      "revoke-others": async (_form, refuse) => {
        const result = await signOutOtherSessions(request, ip, admin);
        if (!result.ok) return refuse(result.status, result.message);
        return answer(
          {
            ok: true,
            form: "revoke-others",
            message:
              result.count === 1
                ? "Signed out of 1 other session."
                : `Signed out of ${result.count} other sessions.`,
          },
          result.headers,
        );
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("My Account");

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const answered = actionData as
    | {
        ok: boolean;
        form: string | null;
        message?: string;
        setup?: TwoFactorSetupView | null;
        backupCodes?: string[];
        mailboxCodeSentTo?: string | null;
      }
    | undefined;
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <AdminPageHeader
        title="My Account"
        description={`Signed in as ${loaderData.email}: two-factor sign-in and where you are signed in.`}
      />
      {loaderData.twoFactorRequired && !loaderData.twoFactorEnabled ? (
        <div role="alert" className="rounded-md border border-warning bg-warning/10 p-4 text-sm">
          <p className="font-semibold">Two-factor sign-in is required</p>
          <p className="mt-1">
            Every admin must sign in with a code from an authenticator app as well as a password.
            Turn it on below; the rest of the admin area opens once it is on.
          </p>
        </div>
      ) : null}
      {loaderData.done && !answered ? (
        <p role="status" className="rounded-md border border-success bg-success/10 p-3 text-sm">
          {loaderData.done === "on" ? "Two-factor sign-in is on." : "Two-factor sign-in is off."}
        </p>
      ) : null}
      {answered?.message ? (
        <p
          role={answered.ok ? "status" : "alert"}
          className={
            answered.ok
              ? "rounded-md border border-success bg-success/10 p-3 text-sm"
              : "rounded-md border border-destructive bg-destructive/10 p-3 text-sm text-destructive"
          }
        >
          {answered.message}
        </p>
      ) : null}
      <TwoFactorCard
        enabled={loaderData.twoFactorEnabled}
        setup={
          answered?.form === "enable-start" || answered?.form === "enable-confirm"
            ? (answered.setup ?? null)
            : null
        }
        backupCodes={answered?.form === "backup-codes" ? (answered.backupCodes ?? null) : null}
        mailboxCodeSentTo={
          answered?.form === "enable-mailbox" ? (answered.mailboxCodeSentTo ?? null) : null
        }
      />
      <SessionsCard sessions={loaderData.sessions} />
    </div>
  );
}
