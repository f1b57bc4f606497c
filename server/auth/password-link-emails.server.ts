import { AsyncLocalStorage } from "node:async_hooks";
import { eq } from "drizzle-orm";
import { PASSWORD_LINK_LIFETIME } from "#app/lib/admin/staff.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { user } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import {
  renderPasswordResetEmail,
  renderStaffInvitationEmail,
} from "../email/templates/staff.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { confirmationAllowed } from "../abuse.server.ts";
import { log } from "../log.server.ts";
import { CLIENT_IP_HEADER } from "./lockout.server.ts";

/**
 * better-auth's two callbacks for password links (decision 0018): the reset or invitation e-mail
 * queued with its audit row when a token is issued, and what follows a new password (lockout and
 * pending invitation cleared). Asking for a link is in password-links.server.ts.
 */

/*
 * "Forgot password?" and staff invitations share better-auth's reset mechanism (decision 0018):
 * better-auth issues a single-use token (a row in `verification`, deleted when used) and calls
 * `queuePasswordLinkEmail`, which queues the e-mail in the outbox — the invitation wording while
 * the account's invitation is pending — with its audit row in the same transaction. When the
 * new password is stored, better-auth ends every session of the account and calls
 * `afterPasswordReset`, which clears the lockout and the pending invitation.
 */

/** How long a reset or invitation link works, in seconds: one hour (decision 0018). */
export const PASSWORD_LINK_EXPIRES_IN = 60 * 60;
/** "Forgot password?" requests per client address and minute (better-auth's own default too). */
export const RESET_REQUESTS_PER_MINUTE = 3;
/**
 * Reset e-mails per mailbox and hour, whoever asks from wherever: many clients asking for one
 * address must not flood its owner (decision 0031). The answer stays the same.
 */
export const RESET_EMAILS_PER_HOUR = 3;

/** A link asked for by an admin on the Staff screen, rather than through "Forgot password?". */
export interface StaffLinkRequest {
  actor: AuditActor;
  /** Written with the e-mail; none for a first invitation (its admin.invite row says it). */
  auditAction: "admin.invitation_resent" | null;
  /** Set once the e-mail is queued (better-auth logs, but does not pass on, a failure). */
  queued: boolean;
}
export const staffLinkRequests = new AsyncLocalStorage<StaffLinkRequest>();

function passwordLinkUrl(token: string): string {
  // Built here, not from better-auth's callback URL: the link opens our own page.
  return `${config.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/** better-auth's `sendResetPassword`: queues the reset or invitation e-mail and its audit row. */
export async function queuePasswordLinkEmail(
  account: { id: string; email: string },
  token: string,
  request: Request | undefined,
): Promise<void> {
  const staffRequest = staffLinkRequests.getStore();
  const queued = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({ invitationPending: user.invitationPending })
      .from(user)
      .where(eq(user.id, account.id));
    if (!row) return false;
    if (
      !staffRequest &&
      !(await confirmationAllowed(tx, account.email, RESET_EMAILS_PER_HOUR, ["password_reset"]))
    ) {
      log.warn({ userId: account.id }, "password reset e-mail not sent: hourly limit reached");
      return false;
    }
    const invitation = row.invitationPending;
    const data = {
      email: account.email,
      url: passwordLinkUrl(token),
      lifetime: PASSWORD_LINK_LIFETIME,
      publicUrl: config.publicUrl,
    };
    const mail = invitation
      ? renderStaffInvitationEmail({ ...data, invitedBy: staffRequest?.actor.email ?? null })
      : renderPasswordResetEmail(data);
    await queueEmails(tx, [
      { kind: invitation ? "staff_invitation" : "password_reset", to: account.email, ...mail },
    ]);
    if (!staffRequest) {
      await recordAudit(tx, null, {
        action: "admin.password_reset_requested",
        subjectType: "admin",
        subjectId: account.id,
        summary: account.email,
        after: { email: account.email, invitationPending: invitation },
        ipAddress: request?.headers.get(CLIENT_IP_HEADER) ?? null,
      });
    } else if (staffRequest.auditAction) {
      await recordAudit(tx, staffRequest.actor, {
        action: staffRequest.auditAction,
        subjectType: "admin",
        subjectId: account.id,
        summary: account.email,
        after: { email: account.email },
      });
    }
    return true;
  });
  if (staffRequest) staffRequest.queued = queued;
  if (queued) nudgeOutbox();
}

/**
 * better-auth's `onPasswordReset` (the password is stored, the token used, every session of the
 * account ended): the account may sign in again at once, and an invitee is an admin like any other.
 */
export async function afterPasswordReset(
  account: { id: string; email: string },
  request: Request | undefined,
): Promise<void> {
  await db().transaction(async (tx) => {
    const [before] = await tx
      .select({
        failedSignIns: user.failedSignIns,
        lockedUntil: user.lockedUntil,
        invitationPending: user.invitationPending,
      })
      .from(user)
      .where(eq(user.id, account.id))
      .for("update");
    if (!before) return;
    await tx
      .update(user)
      .set({ failedSignIns: 0, lockedUntil: null, invitationPending: false, updatedAt: new Date() })
      .where(eq(user.id, account.id));
    // The actor is the account: whoever holds its e-mailed link acts as its owner.
    await recordAudit(
      tx,
      { id: account.id, email: account.email },
      {
        action: "admin.password_reset",
        subjectType: "admin",
        subjectId: account.id,
        summary: before.invitationPending
          ? `${account.email} set their password (invitation)`
          : `${account.email} reset their password by e-mail link`,
        before: {
          failedSignIns: before.failedSignIns,
          lockedUntil: before.lockedUntil?.toISOString() ?? null,
          invitationPending: before.invitationPending,
        },
        after: { failedSignIns: 0, lockedUntil: null, invitationPending: false },
        ipAddress: request?.headers.get(CLIENT_IP_HEADER) ?? null,
      },
    );
  });
}
