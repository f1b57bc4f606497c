import { count, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterEach, describe, expect, it } from "vitest";
import {
  confirmTwoFactorSetup,
  regenerateBackupCodes,
  startTwoFactorSetup,
  turnOffTwoFactor,
} from "#server/account-security.server.ts";
import {
  createAdmin,
  getAdmin,
  handleAuthRequest,
  requireAdmin,
  signInWithPassword,
  verifySecondFactor,
  type AdminUser,
} from "#server/auth.server.ts";
import { config } from "#server/config.server.ts";
import { auditLog, session, twoFactor, user } from "#server/db/schema.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

const origin = new URL(config.publicUrl).origin;
const EMAIL = "staff@example.com";
const PASSWORD = "correct horse battery";

// Addresses of their own per step: better-auth's per-address rate limits are tested elsewhere.
let ip = 0;
const nextIp = () => `192.0.2.${(ip++ % 250) + 1}`;

function request(path: string, cookie?: string, method = "GET") {
  return new Request(`${origin}${path}`, {
    method,
    headers: cookie ? { Cookie: cookie, Origin: origin } : { Origin: origin },
  });
}

function cookieOf(headers: Headers, previous = ""): string {
  const jar = new Map(
    previous
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c] as const),
  );
  for (const set of headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/Max-Age=0/i.test(set) || pair.endsWith("=")) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a Response to be thrown");
}

function codeFor(secret: string): string {
  return new TOTP({
    secret: Secret.fromBase32(secret.replace(/\s+/g, "")),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  }).generate();
}

/** A wrong code: the right one with its last digit changed. */
function wrongCode(secret: string): string {
  const right = codeFor(secret);
  return right.slice(0, 5) + String((Number(right[5]) + 5) % 10);
}

async function passwordSignIn(): Promise<string> {
  const result = await signInWithPassword(
    request("/auth", undefined, "POST"),
    { email: EMAIL, password: PASSWORD },
    nextIp(),
  );
  expect(result.ok).toBe(true);
  if (!result.ok) throw new Error("sign-in failed");
  return cookieOf(result.headers);
}

/** An admin signed in with their password who has turned two-factor sign-in on. */
async function adminWithTwoFactor() {
  const created = await createAdmin({ email: EMAIL, password: PASSWORD });
  let cookie = await passwordSignIn();
  const started = await startTwoFactorSetup(
    request("/admin/account", cookie, "POST"),
    nextIp(),
    PASSWORD,
  );
  if (!started.ok) throw new Error(started.message);
  expect(started.setup.qrSvg).toMatch(/^<svg/);
  expect(started.setup.backupCodes).toHaveLength(10);
  const secret = started.setup.secret;
  expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);

  const admin: AdminUser = { ...created };
  const confirmed = await confirmTwoFactorSetup(
    request("/admin/account", cookie, "POST"),
    nextIp(),
    admin,
    codeFor(secret),
  );
  expect(confirmed.ok).toBe(true);
  if (!confirmed.ok) throw new Error(confirmed.message);
  cookie = cookieOf(confirmed.headers, cookie);
  return { admin, secret, backupCodes: started.setup.backupCodes!, cookie };
}

describe("two-factor sign-in", () => {
  it("turning it on needs the password and a code from the app", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const wrong = await startTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
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
    const created = await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    const started = await startTwoFactorSetup(
      request("/admin/account", cookie, "POST"),
      nextIp(),
      PASSWORD,
    );
    if (!started.ok) throw new Error(started.message);
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
    const { admin, secret } = await adminWithTwoFactor();
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

    const right = await verifySecondFactor(
      request("/auth", challenge, "POST"),
      { method: "totp", code: codeFor(secret) },
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
      await post({ intent: "two-factor", method: "totp", code: codeFor(secret) }, challenge);
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

  it("better-auth's two-factor and session endpoints are not open to direct calls", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await passwordSignIn();
    for (const path of ["/two-factor/enable", "/revoke-other-sessions"]) {
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
      expect(response.status, path).toBe(403);
    }
    expect(await database().db.select().from(twoFactor)).toHaveLength(0);
  });

  /** adminWithTwoFactor for a test that already created the admin. */
  async function adminWithTwoFactorAfterReset() {
    await database().db.delete(user);
    return adminWithTwoFactor();
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

    const account = await import("#app/routes/admin/account.tsx");
    const args = (req: Request) =>
      ({ request: req, params: {}, context: { clientIp: "192.0.2.200" } }) as never;
    const data = (await account.loader(args(request("/admin/account", cookie)))) as {
      twoFactorEnabled: boolean;
      twoFactorRequired: boolean;
    };
    expect(data).toMatchObject({ twoFactorEnabled: false, twoFactorRequired: true });
    // The layout around it lets it through too.
    const layout = await import("#app/routes/admin/layout.tsx");
    await expect(layout.loader(args(request("/admin/account", cookie)))).resolves.toBeTruthy();
    // And the dashboard's own loader does not.
    const dashboard = await import("#app/routes/admin/dashboard.tsx");
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
