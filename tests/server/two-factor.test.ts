import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  MAILBOX_CODE_EXPIRED,
  MAILBOX_CODE_WRONG,
  mailboxStepNeeded,
} from "#server/auth/mailbox-step.server.ts";
import {
  confirmTwoFactorSetup,
  regenerateBackupCodes,
  startTwoFactorSetup,
  turnOffTwoFactor,
} from "#server/auth/account-security.server.ts";
import { createAdmin, ensureInitialAdmin } from "#server/auth/accounts.server.ts";
import { getAdmin, type AdminUser } from "#server/auth/guard.server.ts";
import {
  handleAuthRequest,
  signInWithPassword,
  verifySecondFactor,
} from "#server/auth/sign-in.server.ts";
import { auditLog, emailOutbox, session, twoFactor, user } from "#server/db/schema.ts";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { codeFor, wrongCode } from "#tests/support/totp.ts";
import {
  adminStartingTwoFactor,
  adminWithTwoFactor,
  cookieOf,
  mailedCode,
  nextIp,
  passwordSignIn,
  request,
} from "#tests/support/two-factor.ts";

/**
 * Two-factor sign-in for admins (decision 0017): turning it on with the password and a code from
 * the app, signing in with a code or a backup code, the /auth page's two steps, turning it off,
 * better-auth's endpoints closed to direct calls, and the e-mailed code that proves the mailbox
 * on a first set-up. Which sessions it lets through, and REQUIRE_ADMIN_2FA:
 * two-factor-sessions.test.ts.
 */

const database = useFreshDatabase();

describe("two-factor sign-in", () => {
  it("turning it on needs the password and a code from the app", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const created = (await database().db.select().from(user))[0]!;
    const wrong = await startTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      { ...created, twoFactorVerified: false },
      "not the password",
    );
    expect(wrong).toMatchObject({ ok: false, message: "That password is not right." });

    const { admin, cookie: newCookie } = await adminWithTwoFactorAfterReset();
    const [row] = await database().db.select().from(user).where(eq(user.id, admin.id));
    expect(row!.twoFactorEnabled).toBe(true);
    expect((await getAdmin(request("/admin/account", newCookie)))?.twoFactorEnabled).toBe(true);
    const actions = (await database().db.select().from(auditLog)).map((a) => a.action);
    expect(actions).toContain("admin.two_factor_enabled");
  });

  it("a wrong code while turning it on is refused and the set-up is shown again", async () => {
    const { created, cookie, started } = await adminStartingTwoFactor();
    const refused = await confirmTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      created,
      wrongCode(started.setup.secret),
    );
    expect(refused.ok).toBe(false);
    if (refused.ok || !("setup" in refused)) throw new Error("expected the set-up again");
    expect(refused.setup?.secret).toBe(started.setup.secret);
    expect(refused.setup?.backupCodes).toBeNull();
    const [row] = await database().db.select().from(user).where(eq(user.id, created.id));
    expect(row!.twoFactorEnabled).toBe(false);
  });

  it("signing in then needs the code: the password alone gives no session; a wrong code is refused", async () => {
    const { admin, secret, enabledWith, enabledInStep } = await adminWithTwoFactor();
    const { db } = database();
    const sessionsBefore = (await db.select({ n: count() }).from(session))[0]!.n;

    const first = await signInWithPassword(
      request("/auth", undefined, "POST"),
      { email: EMAIL, password: PASSWORD },
      nextIp(),
    );
    expect(first).toMatchObject({ ok: true, twoFactor: true });
    if (!first.ok) return;
    const challenge = cookieOf(first.headers);
    expect(challenge).toMatch(/better-auth\.two_factor=/);
    expect(challenge).not.toMatch(/session_token/);
    expect((await db.select({ n: count() }).from(session))[0]!.n).toBe(sessionsBefore);
    expect(await getAdmin(request("/admin/dashboard", challenge))).toBeNull();

    const wrong = await verifySecondFactor(
      request("/auth", challenge, "POST"),
      { method: "totp", code: wrongCode(secret) },
      nextIp(),
    );
    expect(wrong).toMatchObject({ ok: false, code: "INVALID_CODE" });

    // The code that turned two-factor on is spent: the next one signs in, once. On a slow run
    // its 30-second step may have passed meanwhile, and then it is simply no longer valid.
    const replayed = await verifySecondFactor(
      request("/auth", challenge, "POST"),
      { method: "totp", code: enabledWith },
      nextIp(),
    );
    const sameStep = Math.floor(Date.now() / 30_000) === enabledInStep;
    expect(replayed).toMatchObject({ ok: false });
    if (sameStep) expect(replayed).toMatchObject({ code: "CODE_ALREADY_USED" });
    const right = await verifySecondFactor(
      request("/auth", challenge, "POST"),
      { method: "totp", code: codeFor(secret, 1) },
      nextIp(),
    );
    expect(right.ok).toBe(true);
    const signedIn = cookieOf(right.headers, challenge);
    expect((await getAdmin(request("/admin/dashboard", signedIn)))?.email).toBe(EMAIL);

    const rows = await db.select().from(auditLog);
    expect(rows.find((r) => r.action === "auth.two_factor_failed")).toMatchObject({
      subjectId: admin.id,
      actorId: null,
    });
    const signIns = rows.filter((r) => r.action === "auth.sign_in");
    expect(signIns.at(-1)).toMatchObject({ actorId: admin.id, after: { method: "totp" } });
  });

  it("a backup code works once", async () => {
    const { backupCodes } = await adminWithTwoFactor();
    const useBackupCode = async (code: string) => {
      const first = await signInWithPassword(
        request("/auth", undefined, "POST"),
        { email: EMAIL, password: PASSWORD },
        nextIp(),
      );
      if (!first.ok) throw new Error(first.message);
      return verifySecondFactor(
        request("/auth", cookieOf(first.headers), "POST"),
        { method: "backup_code", code },
        nextIp(),
      );
    };
    expect((await useBackupCode(backupCodes[0]!)).ok).toBe(true);
    expect(await useBackupCode(backupCodes[0]!)).toMatchObject({
      ok: false,
      code: "INVALID_BACKUP_CODE",
    });
    expect((await useBackupCode(backupCodes[1]!)).ok).toBe(true);
  });

  it("an expired second step sends the admin back to the password", async () => {
    const { secret } = await adminWithTwoFactor();
    const first = await signInWithPassword(
      request("/auth", undefined, "POST"),
      { email: EMAIL, password: PASSWORD },
      nextIp(),
    );
    if (!first.ok) throw new Error(first.message);
    // The browser dropped the cookie (its Max-Age passed): nothing says who is signing in.
    const late = await verifySecondFactor(
      request("/auth", undefined, "POST"),
      { method: "totp", code: codeFor(secret) },
      nextIp(),
    );
    expect(late).toMatchObject({ ok: false, code: "INVALID_TWO_FACTOR_COOKIE" });
  });

  it("the /auth page: the code step after the password; an expired step goes back to the password", async () => {
    const { secret } = await adminWithTwoFactor();
    const signInPage = await import("#app/routes/auth/sign-in.tsx");
    const post = (fields: Record<string, string>, cookie?: string) =>
      signInPage.action({
        request: new Request(`${origin}/auth`, {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            Origin: origin,
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: new URLSearchParams(fields).toString(),
        }),
        params: {},
        context: { clientIp: nextIp() },
      } as never) as Promise<{ data: Record<string, unknown>; init: ResponseInit | null }>;

    const first = await post({ email: EMAIL, password: PASSWORD });
    expect(first.data).toMatchObject({ form: "two-factor", method: "totp", ok: true });
    const challenge = cookieOf(new Headers(first.init?.headers));
    expect(challenge).toMatch(/two_factor=/);

    const wrong = await post(
      { intent: "two-factor", method: "totp", code: wrongCode(secret) },
      challenge,
    );
    expect(wrong.data).toMatchObject({ form: "two-factor", ok: false });
    expect(wrong.data.message).toMatch(/not right/);

    const expired = await post({ intent: "two-factor", method: "totp", code: codeFor(secret) });
    expect(expired.data).toMatchObject({ form: "sign-in", ok: false });
    expect(expired.data.message).toMatch(/ran out.*password again/);

    // The right code: on to the dashboard with the session cookie.
    let redirect: unknown;
    try {
      await post({ intent: "two-factor", method: "totp", code: codeFor(secret, 1) }, challenge);
    } catch (thrownResponse) {
      redirect = thrownResponse;
    }
    expect(redirect).toBeInstanceOf(Response);
    expect((redirect as Response).headers.get("Location")).toBe("/admin/dashboard");
    expect((redirect as Response).headers.getSetCookie().join()).toMatch(/session_token=\w/);
  });

  it("backup codes can be made again and two-factor sign-in turned off, with the password", async () => {
    const { admin, cookie } = await adminWithTwoFactor();
    const regenerated = await regenerateBackupCodes(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      { ...admin, twoFactorEnabled: true },
      PASSWORD,
    );
    expect(regenerated.ok && regenerated.backupCodes).toHaveLength(10);
    const refused = await turnOffTwoFactor(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      admin,
      "not the password",
    );
    expect(refused.ok).toBe(false);
    const off = await turnOffTwoFactor(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      admin,
      PASSWORD,
    );
    expect(off.ok).toBe(true);
    const { db } = database();
    expect((await db.select().from(user))[0]!.twoFactorEnabled).toBe(false);
    expect(await db.select().from(twoFactor)).toHaveLength(0);
    const actions = (await db.select().from(auditLog)).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(["admin.backup_codes_regenerated", "admin.two_factor_disabled"]),
    );
  });

  it("better-auth's account, two-factor and session endpoints are not open to direct calls", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const closed = [
      "/two-factor/enable",
      "/revoke-other-sessions",
      "/change-password",
      "/verify-password",
      "/update-user",
      "/list-sessions",
      "/get-session",
      "/request-password-reset",
    ];
    for (const path of closed) {
      const response = await handleAuthRequest(
        new Request(`${origin}/api/auth${path}`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Origin: origin,
            Cookie: cookie,
            "x-nightwatch-account-page": "1",
          },
          body: JSON.stringify({ password: PASSWORD }),
        }),
        nextIp(),
      );
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toMatch(/token/i);
    }
    const { db } = database();
    expect(await db.select().from(twoFactor)).toHaveLength(0);
    // Each call from a signed-in session is on record.
    const refused = await db
      .select({ summary: auditLog.summary })
      .from(auditLog)
      .where(eq(auditLog.action, "auth.endpoint_refused"));
    expect(refused.map((r) => r.summary).sort()).toEqual(
      closed.map((path) => `POST /api/auth${path}`).sort(),
    );
  });

  /** adminWithTwoFactor for a test that already created the admin. */
  async function adminWithTwoFactorAfterReset() {
    await database().db.delete(user);
    return adminWithTwoFactor();
  }
});

describe("a first set-up proves the mailbox", () => {
  it("the password alone e-mails a code; only the password with that code reaches the set-up", async () => {
    const created = await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const post = () => request("/admin/account", cookie, "POST");
    const admin: AdminUser = { ...created };

    const first = await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD);
    expect(first).toMatchObject({ ok: true, mailboxCodeSentTo: EMAIL });
    const { db } = database();
    // Nothing of better-auth's set-up exists yet: no secret to scan.
    expect(await db.select().from(twoFactor)).toHaveLength(0);
    const code = await mailedCode(EMAIL);

    // A wrong code, or the right code with a wrong password, gets nowhere.
    const notTheCode = code === "000000" ? "111111" : "000000";
    expect(await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD, notTheCode)).toMatchObject({
      ok: false,
      status: 400,
      message: MAILBOX_CODE_WRONG,
    });
    expect(
      await startTwoFactorSetup(post(), nextIp(), admin, "not the password", code),
    ).toMatchObject({ ok: false, message: "That password is not right." });
    expect(await db.select().from(twoFactor)).toHaveLength(0);

    const started = await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD, code);
    expect(started.ok && "setup" in started).toBe(true);
    // The code is spent.
    expect(await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD, code)).toMatchObject({
      ok: false,
      status: 410,
      message: MAILBOX_CODE_EXPIRED,
    });
  });

  it("five wrong codes end it: a new one must be asked for", async () => {
    const created = await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const post = () => request("/admin/account", cookie, "POST");
    await startTwoFactorSetup(post(), nextIp(), created, PASSWORD);
    const code = await mailedCode(EMAIL);
    const notTheCode = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 4; i++) {
      expect(
        await startTwoFactorSetup(post(), nextIp(), created, PASSWORD, notTheCode),
      ).toMatchObject({ status: 400 });
    }
    expect(
      await startTwoFactorSetup(post(), nextIp(), created, PASSWORD, notTheCode),
    ).toMatchObject({ status: 410 });
    expect(await startTwoFactorSetup(post(), nextIp(), created, PASSWORD, code)).toMatchObject({
      status: 410,
    });
  });

  it("the admin made on first start, and an account set up before, go straight to the set-up", async () => {
    const initial = await ensureInitialAdmin(EMAIL);
    if (!initial) throw new Error("expected the first admin");
    const signedIn = await signInWithPassword(
      request("/auth", undefined, "POST"),
      initial,
      nextIp(),
    );
    if (!signedIn.ok) throw new Error(signedIn.message);
    const cookie = cookieOf(signedIn.headers);
    const [row] = await database().db.select().from(user);
    const admin: AdminUser = { ...row!, twoFactorVerified: false };
    const started = await startTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      admin,
      initial.password,
    );
    expect(started.ok && "setup" in started).toBe(true);
    expect(await database().db.select().from(emailOutbox)).toHaveLength(0);

    await database().db.update(user).set({ initialAdmin: false, twoFactorEnrolledAt: new Date() });
    expect(await mailboxStepNeeded(admin)).toBe(false);
  });
});
