import { eq } from "drizzle-orm";
import type { AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { user } from "../db/schema.ts";
import { log } from "../log.server.ts";
import { AUTH_BASE_PATH, auth } from "./config.server.ts";
import { authMessage, forwardedHeaders } from "./endpoint.server.ts";
import { staffLinkRequests, type StaffLinkRequest } from "./password-link-emails.server.ts";

/**
 * Password links (decision 0018): "Forgot password?" and setting a new password with an e-mailed
 * link, both through better-auth's handler; whether a link still works; and a link sent from the
 * Staff screen (an invitation, or its resending).
 */

export type PasswordResetRequestResult =
  { ok: true } | { ok: false; status: number; message: string };

/**
 * "Forgot password?": through better-auth's handler as if the browser had posted to
 * /api/auth/request-password-reset, so its origin check and per-client rate limit apply (and the
 * per-mailbox limit of the e-mails, password-link-emails.server.ts). The answer is the same, and
 * comes after the same time, whether or not the address is an admin's; only a refusal that has
 * nothing to do with the address (too many requests, another site's form) is not ok.
 */
export async function requestPasswordResetByForm(
  request: Request,
  email: string,
  clientIp: string | undefined,
): Promise<PasswordResetRequestResult> {
  // Never sooner than RESET_ANSWER_MS: an admin's address (a token, an e-mail, an audit row) and
  // anyone else's (one look-up) then take the same time to answer (decision 0031).
  const [result] = await Promise.all([
    askForResetLink(request, email, clientIp),
    new Promise((resolve) => setTimeout(resolve, RESET_ANSWER_MS)),
  ]);
  return result;
}

/** How long "Forgot password?" takes to answer at least, whatever the address. */
export const RESET_ANSWER_MS = 400;

async function askForResetLink(
  request: Request,
  email: string,
  clientIp: string | undefined,
): Promise<PasswordResetRequestResult> {
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/request-password-reset`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: JSON.stringify({ email }),
    }),
  );
  if (response.ok) return { ok: true };
  const { message } = await authMessage(response);
  if (response.status === 429 || response.status === 403 || response.status >= 500) {
    if (response.status >= 500)
      log.error({ status: response.status, message }, "password reset request failed");
    return {
      ok: false,
      status: response.status,
      message: message ?? "The request could not be sent. Please try again.",
    };
  }
  // An address better-auth's own check refuses is no admin's: the same answer as for any other.
  log.warn({ status: response.status, message }, "password reset request refused by better-auth");
  return { ok: true };
}

export type PasswordResetResult =
  | { ok: true }
  | { ok: false; reason: "invalid_link" | "refused" | "rate_limited"; message: string };

/** Sets a new password with an e-mailed link's token, through better-auth's handler. */
export async function resetPasswordByForm(
  request: Request,
  input: { token: string; password: string },
  clientIp: string | undefined,
): Promise<PasswordResetResult> {
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/reset-password`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: JSON.stringify({ token: input.token, newPassword: input.password }),
    }),
  );
  if (response.ok) return { ok: true };
  const { code, message } = await authMessage(response);
  if (code === "INVALID_TOKEN" || code === "USER_NOT_FOUND") {
    return { ok: false, reason: "invalid_link", message: message ?? "Invalid token" };
  }
  if (response.status === 429) {
    return { ok: false, reason: "rate_limited", message: message ?? "Too many requests." };
  }
  if (response.status >= 500)
    log.error({ status: response.status, message }, "password reset failed");
  return {
    ok: false,
    reason: "refused",
    message: message ?? "The password could not be changed. Please try again.",
  };
}

/**
 * Whether a link's token still works (not used, not expired), and whether it is an invitation:
 * the reset page says so before anyone types a password. Read through better-auth's own adapter.
 */
export async function passwordLinkState(
  token: string,
): Promise<{ valid: false } | { valid: true; invitation: boolean }> {
  if (!token || token.length > 200) return { valid: false };
  const { internalAdapter } = await auth().$context;
  const found = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!found || found.expiresAt < new Date()) return { valid: false };
  const [row] = await db()
    .select({ invitationPending: user.invitationPending })
    .from(user)
    .where(eq(user.id, found.value));
  return row ? { valid: true, invitation: row.invitationPending } : { valid: false };
}

/**
 * A new link for an admin, asked for on the Staff screen (an invitation, or its resending):
 * through better-auth's server API, so the public form's per-address rate limit does not apply.
 * True when the e-mail was queued.
 */
export async function sendPasswordLink(
  email: string,
  actor: AuditActor,
  auditAction: StaffLinkRequest["auditAction"],
): Promise<boolean> {
  const staffRequest: StaffLinkRequest = { actor, auditAction, queued: false };
  await staffLinkRequests.run(staffRequest, () =>
    auth().api.requestPasswordReset({ body: { email } }),
  );
  return staffRequest.queued;
}
