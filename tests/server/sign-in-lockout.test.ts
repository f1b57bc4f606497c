import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { handleAuthRequest, signInWithPassword } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";
import { auditLog, emailOutbox, user } from "#server/db/schema.ts";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
  signInRequest,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

const ATTEMPTS = config.signInLockout.attempts;

// Each attempt from its own address: the per-address rate limit is not what is tested here.
let ip = 0;
const nextIp = () => `198.51.100.${(ip++ % 250) + 1}`;

function formPost() {
  return new Request(`${origin}/auth`, { method: "POST", headers: { Origin: origin } });
}

function signIn(email: string, password: string) {
  return signInWithPassword(formPost(), { email, password }, nextIp());
}

/** Straight to better-auth's HTTP API, as a script would. */
async function apiSignIn(email: string, password: string) {
  const response = await handleAuthRequest(signInRequest(email, password), nextIp());
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

async function lockMails() {
  return database().db.select().from(emailOutbox).where(eq(emailOutbox.kind, "account_locked"));
}

/** The admin, locked for another minute. */
async function lockedAdmin() {
  await createAdmin({ email: EMAIL, password: PASSWORD });
  await database()
    .db.update(user)
    .set({ lockedUntil: new Date(Date.now() + 60_000) })
    .where(eq(user.email, EMAIL));
}

describe("per-account lockout", () => {
  it(`${ATTEMPTS} wrong passwords lock the account, even against the right one; one e-mail`, async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    for (let i = 0; i < ATTEMPTS; i++) {
      // Half through the form, half through the API: both count.
      const result =
        i % 2 ? await signIn(EMAIL, "wrong password!") : await apiSignIn(EMAIL, "wrong password!");
      expect("ok" in result ? result.ok : result.status).not.toBe(true);
    }
    const [row] = await database().db.select().from(user).where(eq(user.email, EMAIL));
    expect(row!.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    const minutes = (row!.lockedUntil!.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(config.signInLockout.minutes - 1);
    expect(minutes).toBeLessThanOrEqual(config.signInLockout.minutes);

    // The right password is refused, through the form and the API, with the usual words.
    expect(await signIn(EMAIL, PASSWORD)).toMatchObject({
      ok: false,
      status: 401,
      message: "Invalid email or password",
    });
    expect(await apiSignIn(EMAIL, PASSWORD)).toEqual({
      status: 401,
      body: expect.objectContaining({ message: "Invalid email or password" }),
    });
    // More wrong passwords while locked neither extend the lock nor send more mail.
    await signIn(EMAIL, "wrong again!!");

    const mails = await lockMails();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.toAddress).toBe(EMAIL);
    expect(mails[0]!.subject).toMatch(/locked/i);
    expect(mails[0]!.text).toMatch(/wasn't you/);
    expect(mails[0]!.text).toMatch(/reset|change your password/i);

    const actions = (await database().db.select().from(auditLog)).map((a) => a.action);
    expect(actions.filter((a) => a === "auth.locked")).toHaveLength(1);
    expect(actions.filter((a) => a === "auth.sign_in_failed").length).toBeGreaterThanOrEqual(
      ATTEMPTS + 2,
    );
    expect(actions).not.toContain("auth.sign_in");
  });

  it("an unknown address gets exactly the answer a locked account gets", async () => {
    await lockedAdmin();
    const locked = await apiSignIn(EMAIL, PASSWORD);
    const unknown = await apiSignIn("nobody@example.com", PASSWORD);
    const wrong = await apiSignIn(EMAIL.toUpperCase(), "wrong password!");
    expect(locked).toEqual(unknown);
    expect(wrong).toEqual(unknown);
    expect(await signIn(EMAIL, PASSWORD)).toEqual(await signIn("nobody@example.com", PASSWORD));

    const failed = await database()
      .db.select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(failed.map((f) => f.summary)).toContain("nobody@example.com");
    expect(failed.every((f) => f.actorId === null)).toBe(true);
    expect(failed.some((f) => f.ipAddress?.startsWith("198.51.100."))).toBe(true);
  });

  it("the lock ends when locked_until has passed", async () => {
    await lockedAdmin();
    expect((await signIn(EMAIL, PASSWORD)).ok).toBe(false);
    await database()
      .db.update(user)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(user.email, EMAIL));
    expect((await signIn(EMAIL, PASSWORD)).ok).toBe(true);
  });

  it("a successful sign-in resets the count of wrong passwords", async () => {
    const admin = await createAdmin({ email: EMAIL, password: PASSWORD });
    for (let i = 0; i < ATTEMPTS - 1; i++) await signIn(EMAIL, "wrong password!");
    const count = async () =>
      (await database().db.select().from(user).where(eq(user.id, admin.id)))[0]!.failedSignIns;
    expect(await count()).toBe(ATTEMPTS - 1);
    expect((await signIn(EMAIL, PASSWORD)).ok).toBe(true);
    expect(await count()).toBe(0);
    // So one more wrong password does not lock it.
    await signIn(EMAIL, "wrong password!");
    expect((await signIn(EMAIL, PASSWORD)).ok).toBe(true);
    expect(await lockMails()).toHaveLength(0);

    const [signedIn] = await database()
      .db.select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.sign_in"));
    expect(signedIn).toMatchObject({ actorId: admin.id, actorEmail: EMAIL, subjectType: "admin" });
    expect(signedIn!.ipAddress).toMatch(/^198\.51\.100\./);
  });

  it("the attempted address in the audit row is cut to 254 characters", async () => {
    const long = `${"a".repeat(300)}@example.com`;
    await signIn(long, "whatever password");
    const [row] = await database()
      .db.select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.sign_in_failed"));
    expect(row).toBeDefined();
    expect(row!.summary.length).toBeLessThanOrEqual(254);
  });
});
