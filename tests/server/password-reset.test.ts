import { and, eq, notLike } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#server/auth/config.server.ts";
import { passwordLinkState } from "#server/auth/password-links.server.ts";
import { signInWithPassword } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";
import { auditLog, emailOutbox, session, user, verification } from "#server/db/schema.ts";
import {
  LINK_INVALID_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RESET_REQUESTED_MESSAGE,
} from "#app/lib/admin/staff.ts";
import * as forgotPage from "#app/routes/auth/forgot-password.tsx";
import * as resetPage from "#app/routes/auth/reset-password.tsx";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as OLD_PASSWORD,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, freshIp } from "#tests/support/forms.ts";

const database = useFreshDatabase();

const NEW_PASSWORD = "a brand new passphrase";

type Action = Parameters<typeof callAction>[0];

function forgot(email: string, ip = freshIp()) {
  return callAction(
    forgotPage.action as unknown as Action,
    formRequest({ email }, { path: "/auth/forgot-password", headers: { Origin: origin } }),
    ip,
  );
}

function reset(fields: Record<string, string>, ip = freshIp()) {
  return callAction(
    resetPage.action as unknown as Action,
    formRequest(fields, { path: "/auth/reset-password", headers: { Origin: origin } }),
    ip,
  );
}

function signIn(password: string, email = EMAIL) {
  return signInWithPassword(
    new Request(`${origin}/auth`, { method: "POST", headers: { Origin: origin } }),
    { email, password },
    freshIp(),
  );
}

async function outbox(kind = "password_reset") {
  return database().db.select().from(emailOutbox).where(eq(emailOutbox.kind, kind));
}

/** The token of the link in a queued e-mail (its plain-text part). */
function tokenOf(text: string): string {
  const link = new RegExp(
    `${config.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/auth/reset-password\\?token=([^\\s&]+)`,
  ).exec(text);
  expect(link, text).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

describe("password reset by e-mail", () => {
  it("shares its limits with better-auth's", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(MIN_PASSWORD_LENGTH);
    expect(PASSWORD_MAX_LENGTH).toBe(MAX_PASSWORD_LENGTH);
  });

  it("an admin's request queues one e-mail whose link sets a new password once; sessions end, lockout clears", async () => {
    const admin = await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    expect((await signIn(OLD_PASSWORD)).ok).toBe(true);
    const { db } = database();
    await db
      .update(user)
      .set({ failedSignIns: 7, lockedUntil: new Date(Date.now() + 3_600_000) })
      .where(eq(user.id, admin.id));

    // Typed with capitals and spaces: the account is found all the same.
    const asked = await forgot("  Staff@Example.com ");
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ ok: true, message: RESET_REQUESTED_MESSAGE });

    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe(EMAIL);
    expect(mails[0]!.subject).toMatch(/reset/i);
    const token = tokenOf(mails[0]!.text);
    expect(mails[0]!.html).toContain(`/auth/reset-password?token=${encodeURIComponent(token)}`);
    expect(await passwordLinkState(token)).toEqual({ valid: true, invitation: false });

    // The page the link opens, as an anonymous visitor: a form, not a redirect.
    const page = await resetPage.loader({
      request: new Request(`${origin}/auth/reset-password?token=${token}`),
      params: {},
      context: {},
    } as unknown as Parameters<typeof resetPage.loader>[0]);
    expect(page).toMatchObject({ valid: true, invitation: false, token });

    const done = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ ok: true, message: PASSWORD_CHANGED_MESSAGE });

    const [row] = await db.select().from(user).where(eq(user.id, admin.id));
    expect(row).toMatchObject({ failedSignIns: 0, lockedUntil: null, invitationPending: false });
    expect(await db.select().from(session).where(eq(session.userId, admin.id))).toHaveLength(0);

    expect((await signIn(OLD_PASSWORD)).ok).toBe(false);
    expect((await signIn(NEW_PASSWORD)).ok).toBe(true);

    // The same link again: refused, and it says how to get a new one.
    const again = await reset({
      token,
      password: "yet another passphrase",
      confirmPassword: "yet another passphrase",
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      ok: false,
      reason: "not_found",
      message: LINK_INVALID_MESSAGE,
    });
    expect(await passwordLinkState(token)).toEqual({ valid: false });
    expect((await signIn(NEW_PASSWORD)).ok).toBe(true);

    // Sign-ins write their own auth.* rows (decision 0017); these are the reset's.
    const audit = await db
      .select()
      .from(auditLog)
      .where(notLike(auditLog.action, "auth.%"))
      .orderBy(auditLog.at);
    expect(audit.map((a) => [a.action, a.actorId, a.subjectId])).toEqual([
      ["admin.password_reset_requested", null, admin.id],
      ["admin.password_reset", admin.id, admin.id],
    ]);
    expect(audit[1]!.before).toMatchObject({ failedSignIns: 7 });
    expect(audit[1]!.after).toMatchObject({ failedSignIns: 0, lockedUntil: null });
  });

  it("an unknown address gets the identical answer, and nothing is sent or stored", async () => {
    await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    const known = await forgot(EMAIL);
    const unknown = await forgot("nobody@example.com");
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);

    const { db } = database();
    const mails = await db.select().from(emailOutbox);
    expect(mails.map((m) => m.toAddress)).toEqual([EMAIL]);
    const audit = await db.select().from(auditLog);
    expect(audit.map((a) => a.summary)).toEqual([EMAIL]);
  });

  it("refuses a too-short or mismatched password and changes nothing; the link still works", async () => {
    const admin = await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    await forgot(EMAIL);
    const token = tokenOf((await outbox())[0]!.text);

    const short = await reset({ token, password: "short pass", confirmPassword: "short pass" });
    expect(short.status).toBe(400);
    expect(short.body.ok).toBe(false);
    expect(!short.body.ok && short.body.fieldErrors.password).toMatch(/at least 12 characters/);

    const mismatched = await reset({
      token,
      password: NEW_PASSWORD,
      confirmPassword: `${NEW_PASSWORD}!`,
    });
    expect(mismatched.status).toBe(400);
    expect(!mismatched.body.ok && mismatched.body.fieldErrors.confirmPassword).toMatch(/match/);

    expect((await signIn(OLD_PASSWORD)).ok).toBe(true);
    expect(await passwordLinkState(token)).toEqual({ valid: true, invitation: false });
    const audit = await database()
      .db.select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, admin.id), notLike(auditLog.action, "auth.%")));
    expect(audit.map((a) => a.action)).toEqual(["admin.password_reset_requested"]);
  });

  it("an expired link is refused", async () => {
    await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    await forgot(EMAIL);
    const token = tokenOf((await outbox())[0]!.text);
    const { db } = database();
    await db
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(verification.identifier, `reset-password:${token}`)));
    expect(await passwordLinkState(token)).toEqual({ valid: false });
    const late = await reset({ token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(late.body).toMatchObject({ ok: false, reason: "not_found" });
    expect((await signIn(OLD_PASSWORD)).ok).toBe(true);
  });

  it("links expire after an hour", async () => {
    await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    await forgot(EMAIL);
    const [row] = await database().db.select().from(verification);
    const lifetime = row!.expiresAt.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);
  });

  it("is rate-limited per client address (3 a minute), with a message that says so", async () => {
    await createAdmin({ email: EMAIL, password: OLD_PASSWORD });
    const ip = freshIp();
    for (let i = 0; i < 3; i++)
      expect((await forgot(`someone${i}@example.com`, ip)).status).toBe(200);
    const fourth = await forgot(EMAIL, ip);
    expect(fourth.status).toBe(429);
    expect(fourth.body.ok).toBe(false);
    expect(await outbox()).toHaveLength(0);
    // Another address is not held back.
    expect((await forgot(EMAIL)).status).toBe(200);
  });

  it("a malformed address is a field message, not a request", async () => {
    const answer = await forgot("not-an-address");
    expect(answer.status).toBe(400);
    expect(!answer.body.ok && answer.body.fieldErrors.email).toMatch(/valid e-mail/);
  });

  it("the reset page without a token, or with a made-up one, says the link does not work", async () => {
    for (const query of ["", "?token=made-up-token"]) {
      const page = await resetPage.loader({
        request: new Request(`${origin}/auth/reset-password${query}`),
        params: {},
        context: {},
      } as unknown as Parameters<typeof resetPage.loader>[0]);
      expect(page).toMatchObject({ valid: false });
    }
  });
});
