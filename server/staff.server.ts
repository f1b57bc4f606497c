import { and, asc, eq, sql } from "drizzle-orm";
import type { StaffMember } from "#app/lib/admin/staff.ts";
import type { StaffOption } from "#app/lib/inquiries/thread.ts";
import { recordAudit, type AuditActor } from "./audit.server.ts";
import { AdminAccountError, createAdmin, generatePassword } from "./auth/accounts.server.ts";
import { sendPasswordLink } from "./auth/password-links.server.ts";
import { db } from "./db/client.server.ts";
import { session, twoFactor, user } from "./db/schema.ts";

/**
 * The Staff screen's rules (decision 0018): who the admins are, inviting one (the
 * invitee sets their own password through a single-use link), resending an invitation, resetting
 * a colleague's two-factor sign-in (a lost phone), and removing an admin — never yourself, never
 * the last one who can sign in. Each change writes its audit row in its own transaction.
 */

/** Every admin as a choice of owner (an enquiry's), by name. */
export async function staffOptions(): Promise<StaffOption[]> {
  return db()
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .orderBy(asc(user.name), asc(user.email));
}

/** Every admin, oldest first, with when they last signed in (their newest live session). */
export async function listStaff(): Promise<StaffMember[]> {
  // Spelled out: drizzle leaves columns unqualified in a single-table select, which the
  // subquery would read as its own (session.id).
  const lastSignIn = sql<
    Date | string | null
  >`(select max(s.created_at) from "session" s where s.user_id = "user"."id")`;
  const rows = await db()
    .select({
      id: user.id,
      email: user.email,
      createdAt: user.createdAt,
      twoFactorEnabled: user.twoFactorEnabled,
      invitationPending: user.invitationPending,
      lastSignInAt: lastSignIn,
    })
    .from(user)
    .orderBy(asc(user.createdAt), asc(user.email));
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    // A subquery's timestamp comes back as text from some drivers.
    lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt).toISOString() : null,
  }));
}

export type InviteResult =
  | { ok: true; id: string; email: string; emailQueued: boolean }
  | { ok: false; reason: "duplicate"; email: string };

async function emailTaken(email: string): Promise<boolean> {
  const rows = await db()
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1);
  return rows.length > 0;
}

/**
 * Invites an admin: the account (with a random password nobody knows, marked as an invitation)
 * and its audit row in one transaction, then the invitation e-mail with a set-a-password link.
 * `email` is the schema's: trimmed and lower-cased.
 */
export async function inviteAdmin(actor: AuditActor, email: string): Promise<InviteResult> {
  if (await emailTaken(email)) return { ok: false, reason: "duplicate", email };
  let created;
  try {
    created = await createAdmin(
      { email, password: generatePassword() },
      {
        invitation: true,
        withinTransaction: (tx, admin) =>
          recordAudit(tx, actor, {
            action: "admin.invite",
            subjectType: "admin",
            subjectId: admin.id,
            summary: admin.email,
            after: { email: admin.email, invitationPending: true },
          }),
      },
    );
  } catch (error) {
    // Taken by a request at the same moment (the unique index decided).
    if (error instanceof AdminAccountError && (await emailTaken(email)))
      return { ok: false, reason: "duplicate", email };
    throw error;
  }
  const emailQueued = await sendPasswordLink(created.email, actor, null);
  return { ok: true, id: created.id, email: created.email, emailQueued };
}

export type ResendResult =
  | { ok: true; email: string; emailQueued: boolean }
  | { ok: false; reason: "not_found" | "not_pending"; email?: string };

/** A new invitation link (the earlier ones keep working until they expire). */
export async function resendInvitation(actor: AuditActor, userId: string): Promise<ResendResult> {
  const [target] = await db()
    .select({ email: user.email, invitationPending: user.invitationPending })
    .from(user)
    .where(eq(user.id, userId));
  if (!target) return { ok: false, reason: "not_found" };
  if (!target.invitationPending) return { ok: false, reason: "not_pending", email: target.email };
  const emailQueued = await sendPasswordLink(target.email, actor, "admin.invitation_resent");
  return { ok: true, email: target.email, emailQueued };
}

export type RemoveResult =
  | { ok: true; email: string }
  | { ok: false; reason: "self" | "last_admin" | "not_found" | "actor_gone"; email?: string };

/**
 * Removes an admin: deleting the user deletes their sessions, credential and two-factor rows
 * (foreign keys cascade), so they are signed out at once. Refused for yourself, and when no other
 * admin who can sign in (invitation accepted) would be left. Every admin row is locked first
 * (`FOR UPDATE`), so two removals at the same moment are decided one after the other and can
 * never leave nobody.
 */
export async function removeAdmin(actor: AuditActor, userId: string): Promise<RemoveResult> {
  if (userId === actor.id) return { ok: false, reason: "self" };
  return db().transaction(async (tx): Promise<RemoveResult> => {
    const admins = await tx
      .select({
        id: user.id,
        email: user.email,
        createdAt: user.createdAt,
        twoFactorEnabled: user.twoFactorEnabled,
        invitationPending: user.invitationPending,
      })
      .from(user)
      .orderBy(asc(user.id))
      .for("update");
    const target = admins.find((a) => a.id === userId);
    if (!target) return { ok: false, reason: "not_found" };
    const othersWhoCanSignIn = admins.filter((a) => a.id !== userId && !a.invitationPending);
    if (othersWhoCanSignIn.length === 0)
      return { ok: false, reason: "last_admin", email: target.email };
    // Removed by someone else a moment ago: this request's session has just ended.
    if (!admins.some((a) => a.id === actor.id))
      return { ok: false, reason: "actor_gone", email: target.email };
    await tx.delete(user).where(eq(user.id, userId));
    await recordAudit(tx, actor, {
      action: "admin.remove",
      subjectType: "admin",
      subjectId: target.id,
      summary: target.email,
      before: {
        email: target.email,
        createdAt: target.createdAt.toISOString(),
        twoFactorEnabled: target.twoFactorEnabled,
        invitationPending: target.invitationPending,
      },
      after: null,
    });
    return { ok: true, email: target.email };
  });
}

export type ResetTwoFactorResult =
  | { ok: true; email: string; sessionsEnded: number }
  | { ok: false; reason: "self" | "not_found" | "not_enabled"; email?: string };

/**
 * Turns a colleague's two-factor sign-in off (they lost their phone and their backup codes): the
 * secret and backup codes are deleted and every session of theirs ends, so they sign in again
 * with their password and set it up afresh (with REQUIRE_ADMIN_2FA, before anything else opens).
 * Never your own: that is My Account's, behind your password. One transaction with its audit row.
 */
export async function resetTwoFactor(
  actor: AuditActor,
  userId: string,
): Promise<ResetTwoFactorResult> {
  if (userId === actor.id) return { ok: false, reason: "self" };
  return db().transaction(async (tx): Promise<ResetTwoFactorResult> => {
    const [target] = await tx
      .select({ id: user.id, email: user.email, twoFactorEnabled: user.twoFactorEnabled })
      .from(user)
      .where(eq(user.id, userId))
      .for("update");
    if (!target) return { ok: false, reason: "not_found" };
    if (!target.twoFactorEnabled) return { ok: false, reason: "not_enabled", email: target.email };
    await tx
      .update(user)
      .set({ twoFactorEnabled: false, updatedAt: sql`now()` })
      .where(and(eq(user.id, userId), eq(user.twoFactorEnabled, true)));
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    const ended = await tx
      .delete(session)
      .where(eq(session.userId, userId))
      .returning({ id: session.id });
    await recordAudit(tx, actor, {
      action: "admin.two_factor_reset",
      subjectType: "admin",
      subjectId: target.id,
      summary: target.email,
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false, sessionsEnded: ended.length },
    });
    return { ok: true, email: target.email, sessionsEnded: ended.length };
  });
}
