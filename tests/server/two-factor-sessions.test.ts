import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { confirmTwoFactorSetup, turnOffTwoFactor } from "#server/auth/account-security.server.ts";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { getAdmin, requireAdmin, type AdminUser } from "#server/auth/guard.server.ts";
import { signInWithPassword, verifySecondFactor } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";
import { auditLog, session, user } from "#server/db/schema.ts";
import {
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
  thrown,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { codeFor } from "#tests/support/totp.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";
import {
  adminWithTwoFactor,
  beginSetup,
  cookieOf,
  nextIp,
  passwordSignIn,
  request,
} from "#tests/support/two-factor.ts";

/**
 * Two-factor sign-in for admins (decision 0017), as the guard enforces it: the second factor
 * belongs to the session (sessions without it end when it is turned on or off, and a code signs
 * in only once), and REQUIRE_ADMIN_2FA keeps an admin without it to My Account. Turning it on,
 * signing in with it and the mailbox step: two-factor.test.ts.
 */

const database = useFreshDatabase();

describe("the second factor belongs to the session", () => {
  const original = config.requireAdmin2fa;
  afterEach(() => {
    config.requireAdmin2fa = original;
  });

  it("a session signed in with the password before two-factor was turned on ends when it is", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const earlier = await passwordSignIn();
    expect((await getAdmin(request("/admin/dashboard", earlier)))?.email).toBe(EMAIL);

    const { admin, cookie } = await adminWithTwoFactorAfterSignIn();
    // The session that turned it on goes on; the one that only had the password does not.
    expect(await requireAdmin(request("/admin/dashboard", cookie))).toMatchObject({
      twoFactorEnabled: true,
      twoFactorVerified: true,
    });
    expect(await getAdmin(request("/admin/dashboard", earlier))).toBeNull();
    for (const path of ["/admin/dashboard", "/admin/payments/export", "/admin/privacy/export"]) {
      const refused = await thrown(requireAdmin(request(path, earlier)));
      expect(refused.status, path).toBe(302);
      expect(refused.headers.get("Location"), path).toMatch(/^\/auth/);
    }
    const invite = await thrown(requireAdmin(request("/admin/staff", earlier, "POST")));
    expect(invite.status).toBe(401);

    const { db } = database();
    const sessions = await db.select().from(session).where(eq(session.userId, admin.id));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.twoFactorVerified).toBe(true);
    const [enabled] = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "admin.two_factor_enabled"));
    expect(enabled!.after).toMatchObject({ otherSessionsEnded: 1 });
  });

  it("a password-only session of an account with two-factor on is ended by the guard, REQUIRE_ADMIN_2FA or not", async () => {
    for (const required of [false, true]) {
      config.requireAdmin2fa = required;
      await database().db.delete(user);
      const created = await createAdmin({ email: EMAIL, password: PASSWORD });
      const cookie = await passwordSignIn();
      // Two-factor turned on some other way than this session (as before sessions recorded it).
      await database()
        .db.update(user)
        .set({ twoFactorEnabled: true })
        .where(eq(user.id, created.id));
      const refused = await thrown(requireAdmin(request("/admin/account", cookie)));
      expect(refused.headers.get("Location"), String(required)).toBe(
        "/auth?redirectTo=%2Fadmin%2Faccount",
      );
      expect(refused.headers.getSetCookie().join(), String(required)).toMatch(/session_token=;/);
      expect(
        await database().db.select().from(session).where(eq(session.userId, created.id)),
      ).toHaveLength(0);
    }
  });

  it("turning two-factor sign-in off ends every other session of the account", async () => {
    const { admin, cookie, backupCodes } = await adminWithTwoFactor();
    const other = await signInWithBackupCode(backupCodes[0]!);
    expect(await getAdmin(request("/admin/dashboard", other))).not.toBeNull();
    const off = await turnOffTwoFactor(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      admin,
      PASSWORD,
    );
    expect(off.ok).toBe(true);
    if (!off.ok) return;
    expect(await getAdmin(request("/admin/dashboard", other))).toBeNull();
    expect(
      await getAdmin(request("/admin/dashboard", cookieOf(off.headers, cookie))),
    ).toMatchObject({ twoFactorEnabled: false });
  });

  it("a code is accepted once, even by two sign-ins at the same moment", async () => {
    const { secret } = await adminWithTwoFactor();
    const challenges = await Promise.all([passwordStep(), passwordStep()]);
    const code = codeFor(secret, 1);
    const results = await Promise.all(
      challenges.map((challenge) =>
        verifySecondFactor(request("/auth", challenge, "POST"), { method: "totp", code }, nextIp()),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ code: "CODE_ALREADY_USED" });
    const { db } = database();
    const failed = await db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "auth.two_factor_failed"));
    expect(failed.at(-1)?.after).toMatchObject({ reason: "CODE_ALREADY_USED" });
  });

  /** The password step of a sign-in with two-factor: the challenge cookie. */
  async function passwordStep(): Promise<string> {
    const first = await signInWithPassword(
      request("/auth", undefined, "POST"),
      { email: EMAIL, password: PASSWORD },
      nextIp(),
    );
    if (!first.ok || !first.twoFactor) throw new Error("expected the code step");
    return cookieOf(first.headers);
  }

  /** A sign-in with the password and a backup code (no code from the app is spent). */
  async function signInWithBackupCode(code: string): Promise<string> {
    const challenge = await passwordStep();
    const verified = await verifySecondFactor(
      request("/auth", challenge, "POST"),
      { method: "backup_code", code },
      nextIp(),
    );
    if (!verified.ok) throw new Error(verified.message);
    return cookieOf(verified.headers, challenge);
  }

  /** adminWithTwoFactor for an admin already created (and signed in elsewhere). */
  async function adminWithTwoFactorAfterSignIn() {
    const cookie = await passwordSignIn();
    const [created] = await database().db.select().from(user);
    const admin: AdminUser = {
      id: created!.id,
      email: created!.email,
      name: created!.name,
      twoFactorEnabled: false,
      twoFactorVerified: false,
    };
    const started = await beginSetup(cookie, admin);
    const confirmed = await confirmTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      admin,
      codeFor(started.setup.secret),
    );
    if (!confirmed.ok) throw new Error(confirmed.message);
    return { admin, cookie: cookieOf(confirmed.headers, cookie) };
  }
});

describe("REQUIRE_ADMIN_2FA", () => {
  const original = config.requireAdmin2fa;
  afterEach(() => {
    config.requireAdmin2fa = original;
  });

  it("an admin without two-factor sign-in reaches only My Account", async () => {
    config.requireAdmin2fa = true;
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();

    const page = await thrown(requireAdmin(request("/admin/dashboard", cookie)));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/admin/account");

    for (const denied of [
      request("/admin/inquiries", cookie, "POST"),
      request("/api/admin/media", cookie, "POST"),
      request("/admin/inquiries/export", cookie),
    ]) {
      const response = await thrown(requireAdmin(denied));
      if (denied.method === "GET") {
        expect(response.headers.get("Location")).toBe("/admin/account");
        continue;
      }
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: "two_factor_required" });
    }

    const account = throughAdminLayout(await import("#app/routes/admin/account.tsx"));
    const args = (req: Request) =>
      ({ request: req, params: {}, context: { clientIp: "192.0.2.200" } }) as never;
    const data = (await account.loader(args(request("/admin/account", cookie)))) as {
      twoFactorEnabled: boolean;
      twoFactorRequired: boolean;
    };
    expect(data).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
    // Behind the layout's guard, as in the app: the layout lets it through too.
    const layout = throughAdminLayout(await import("#app/routes/admin/layout.tsx"));
    await expect(layout.loader(args(request("/admin/account", cookie)))).resolves.toBeTruthy();
    // And the dashboard's own loader does not.
    const dashboard = throughAdminLayout(await import("#app/routes/admin/dashboard.tsx"));
    const refused = await thrown(dashboard.loader(args(request("/admin/dashboard", cookie))));
    expect(refused.headers.get("Location")).toBe("/admin/account");
  });

  it("with two-factor sign-in on, every admin page opens", async () => {
    const { cookie } = await adminWithTwoFactor();
    config.requireAdmin2fa = true;
    expect(await requireAdmin(request("/admin/dashboard", cookie))).toMatchObject({
      email: EMAIL,
      twoFactorEnabled: true,
    });
    expect(await requireAdmin(request("/admin/inquiries", cookie, "POST"))).toMatchObject({
      email: EMAIL,
    });
  });
});
