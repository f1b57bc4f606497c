import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  adminReturnPath,
  getAdmin,
  requireAdmin,
  sessionCookies,
} from "#server/auth/guard.server.ts";
import {
  AdminAccountError,
  createAdmin,
  ensureInitialAdmin,
} from "#server/auth/accounts.server.ts";
import { CLIENT_IP_HEADER } from "#server/auth/lockout.server.ts";
import { handleAuthRequest, signInWithPassword, signOut } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";
import { account, session, user } from "#server/db/schema.ts";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
  thrown,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const SIGN_IN_ATTEMPTS_PER_MINUTE = config.signInRateLimitPerMinute;

const database = useFreshDatabase();

/** A browser's request to better-auth's HTTP API, from our own pages unless told otherwise. */
function apiRequest(path: string, body: unknown, headers: Record<string, string> = {}) {
  return new Request(`${origin}/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, ...headers },
    body: JSON.stringify(body),
  });
}

function cookieHeader(setCookies: string[]): string {
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}

async function signedInCookie(ip = "203.0.113.7"): Promise<string> {
  const response = await handleAuthRequest(
    apiRequest("/sign-in/email", { email: EMAIL, password: PASSWORD }),
    ip,
  );
  expect(response.status).toBe(200);
  return cookieHeader(response.headers.getSetCookie());
}

function page(path: string, cookie?: string, method = "GET") {
  return new Request(`${origin}${path}`, {
    method,
    headers: cookie ? { Cookie: cookie, Origin: origin } : { Origin: origin },
  });
}

/** A sign-in posted from the sign-in page with `email` and `password`. */
function signInThroughPage(email: string, password: string, ip: string) {
  return signInWithPassword(page("/auth", undefined, "POST"), { email, password }, ip);
}

describe("admin accounts", () => {
  it("createAdmin stores a lower-cased user with a hashed credential account", async () => {
    const created = await createAdmin({ email: "  Staff@Example.COM ", password: PASSWORD });
    expect(created.email).toBe(EMAIL);
    const { db } = database();
    const [row] = await db.select().from(user).where(eq(user.id, created.id));
    expect(row?.email).toBe(EMAIL);
    const [credential] = await db.select().from(account).where(eq(account.userId, created.id));
    expect(credential?.providerId).toBe("credential");
    expect(credential?.password).toBeTruthy();
    expect(credential?.password).not.toContain(PASSWORD);
  });

  it("refuses a second admin with the same e-mail (any casing), a short password, a bad address", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    await expect(createAdmin({ email: "STAFF@example.com", password: PASSWORD })).rejects.toThrow(
      /already exists/,
    );
    await expect(
      createAdmin({ email: "new@example.com", password: "short-11chr" }),
    ).rejects.toThrow(/at least 12 characters/);
    await expect(
      createAdmin({ email: "not-an-address", password: PASSWORD }),
    ).rejects.toBeInstanceOf(AdminAccountError);
    const [row] = await database().db.select({ n: count() }).from(user);
    expect(row?.n).toBe(1);
  });

  it("the first start creates one admin with a random password, and only when there is none", async () => {
    const first = await ensureInitialAdmin("first@example.com");
    expect(first?.email).toBe("first@example.com");
    expect(first?.password.length).toBeGreaterThanOrEqual(20);
    expect(await ensureInitialAdmin("first@example.com")).toBeNull();
    expect(await ensureInitialAdmin("other@example.com")).toBeNull();
    // The printed password works.
    const result = await signInThroughPage("first@example.com", first!.password, "203.0.113.8");
    expect(result.ok).toBe(true);
  });
});

describe("sign-in through better-auth", () => {
  it("a wrong password is refused with the provider's message; the right one sets an httpOnly cookie", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const wrong = await handleAuthRequest(
      apiRequest("/sign-in/email", { email: EMAIL, password: "not the password" }),
      "203.0.113.9",
    );
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { message: string }).message).toBe("Invalid email or password");

    const right = await handleAuthRequest(
      apiRequest("/sign-in/email", { email: EMAIL, password: PASSWORD }),
      "203.0.113.9",
    );
    expect(right.status).toBe(200);
    const cookie = right.headers
      .getSetCookie()
      .find((c) => c.startsWith("better-auth.session_token="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // PUBLIC_URL is http here; with https the cookie is Secure (see useSecureCookies).
    expect(cookie).not.toMatch(/Secure/);
    const [rows] = await database().db.select({ n: count() }).from(session);
    expect(rows?.n).toBe(1);
  });

  it("the /auth form's server-side sign-in answers the same way", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const wrong = await signInThroughPage(EMAIL, "nope-nope-nope", "203.0.113.10");
    expect(wrong).toEqual({
      ok: false,
      status: 401,
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
    const right = await signInThroughPage(EMAIL, PASSWORD, "203.0.113.10");
    expect(right.ok).toBe(true);
    if (!right.ok) return;
    const cookie = cookieHeader(right.headers.getSetCookie());
    expect((await getAdmin(page("/admin/dashboard", cookie)))?.email).toBe(EMAIL);
  });

  it("public sign-up is refused and creates nobody", async () => {
    const response = await handleAuthRequest(
      apiRequest("/sign-up/email", {
        email: "intruder@example.com",
        password: PASSWORD,
        name: "x",
      }),
      "203.0.113.11",
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const [row] = await database().db.select({ n: count() }).from(user);
    expect(row?.n).toBe(0);
  });

  it("a request from another origin is refused", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const response = await handleAuthRequest(
      apiRequest(
        "/sign-in/email",
        { email: EMAIL, password: PASSWORD },
        {
          Origin: "https://evil.example",
          "Sec-Fetch-Site": "cross-site",
          "Sec-Fetch-Mode": "cors",
        },
      ),
      "203.0.113.12",
    );
    expect(response.status).toBe(403);
  });

  it(`sign-in attempts are limited to ${SIGN_IN_ATTEMPTS_PER_MINUTE} a minute per client, counted in the database`, async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const attempt = (ip: string) => signInThroughPage(EMAIL, "wrong password!", ip);
    for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_MINUTE; i++) {
      expect((await attempt("198.51.100.1")).ok).toBe(false);
    }
    const limited = await attempt("198.51.100.1");
    expect(limited).toMatchObject({
      ok: false,
      status: 429,
      message: "Too many requests. Please try again later.",
    });
    // Even the right password waits.
    const right = await signInThroughPage(EMAIL, PASSWORD, "198.51.100.1");
    expect(right.ok).toBe(false);
    // Another client is not affected.
    expect(await attempt("198.51.100.2")).toMatchObject({ ok: false, status: 401 });
    const rows = await database().db.execute(`select count(*)::int as n from rate_limit`);
    expect(Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBeGreaterThan(0);
  });

  it("a client cannot pick its own address for the rate limit", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const request = () =>
      apiRequest(
        "/sign-in/email",
        { email: EMAIL, password: "wrong password!" },
        { [CLIENT_IP_HEADER]: `10.0.0.${Math.floor(Math.random() * 250)}` },
      );
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_ATTEMPTS_PER_MINUTE; i++) {
      statuses.push((await handleAuthRequest(request(), "198.51.100.3")).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("requireAdmin", () => {
  it("sends an anonymous page visit to /auth, replacing the history entry", async () => {
    const response = await thrown(requireAdmin(page("/admin/dashboard")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
    expect(response.headers.get("X-Remix-Replace")).toBe("true");
  });

  it("names any other admin page asked for, so sign-in can return to it", async () => {
    const response = await thrown(requireAdmin(page("/admin/payments?status=paid")));
    expect(response.headers.get("Location")).toBe(
      "/auth?redirectTo=%2Fadmin%2Fpayments%3Fstatus%3Dpaid",
    );
  });

  it("answers 401 JSON to an anonymous action or /api call", async () => {
    for (const request of [page("/admin/inquiries", undefined, "POST"), page("/api/anything")]) {
      const response = await thrown(requireAdmin(request));
      expect(response.status).toBe(401);
      expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
      expect(await response.json()).toMatchObject({ error: "unauthorized" });
    }
  });

  it("answers 403 to an action posted from another site, even signed in", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    const request = new Request(`${origin}/admin/inquiries`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect((await thrown(requireAdmin(request))).status).toBe(403);
  });

  it("returns the admin for a signed-in request, and refuses again after sign-out", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    expect(await requireAdmin(page("/admin/dashboard", cookie))).toMatchObject({ email: EMAIL });
    expect(await requireAdmin(page("/admin/inquiries", cookie, "POST"))).toMatchObject({
      email: EMAIL,
    });

    const cleared = await signOut(page("/auth/sign-out", cookie, "POST"), "203.0.113.7");
    expect(cleared.getSetCookie().join()).toMatch(/better-auth\.session_token=;/);
    const [rows] = await database().db.select({ n: count() }).from(session);
    expect(rows?.n).toBe(0);
    expect((await thrown(requireAdmin(page("/admin/dashboard", cookie)))).status).toBe(302);
  });

  it("a forged or unknown session cookie is anonymous", async () => {
    const response = await thrown(
      requireAdmin(page("/admin/dashboard", "better-auth.session_token=forged.value")),
    );
    expect(response.headers.get("Location")).toBe("/auth");
  });

  it("extends a session that is in use and sends the cookie again", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    const { db } = database();
    // Last used ten minutes ago (more than better-auth's updateAge, a few minutes at most).
    const soon = new Date(Date.now() + IDLE_MS - 10 * 60 * 1000);
    await db.update(session).set({ expiresAt: soon, updatedAt: new Date(Date.now() - 600_000) });
    const request = page("/admin/dashboard", cookie);
    await requireAdmin(request);
    const [row] = await db.select({ expiresAt: session.expiresAt }).from(session);
    // Pushed back to a whole idle timeout from now.
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + IDLE_MS - 60_000);
    const headers = await sessionCookies(request);
    expect(headers.getSetCookie().join()).toMatch(
      new RegExp(`better-auth\\.session_token=.+Max-Age=${config.adminIdleTimeoutSeconds}`),
    );
  });
});

const IDLE_MS = config.adminIdleTimeoutSeconds * 1000;
const MAX_MS = config.adminSessionMaxSeconds * 1000;

describe("session limits", () => {
  it(`a new session lasts the idle timeout (${config.adminIdleTimeoutSeconds / 3600} h), not a week`, async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    await signedInCookie();
    const [row] = await database().db.select().from(session);
    const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(lifetime).toBeGreaterThan(IDLE_MS - 60_000);
    expect(lifetime).toBeLessThanOrEqual(Math.min(IDLE_MS, MAX_MS) + 1000);
  });

  it("a session unused for longer than the idle timeout is refused", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    const { db } = database();
    // Last used just over the idle timeout ago: its sliding expiry has passed.
    const lastUsed = new Date(Date.now() - IDLE_MS - 60_000);
    await db.update(session).set({
      updatedAt: lastUsed,
      expiresAt: new Date(lastUsed.getTime() + IDLE_MS),
    });
    const response = await thrown(requireAdmin(page("/admin/dashboard", cookie)));
    expect(response.headers.get("Location")).toBe("/auth");
    expect(response.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=;/);
    const [rows] = await db.select({ n: count() }).from(session);
    expect(rows?.n).toBe(0);
  });

  it("a session used within the idle timeout stays, and is extended", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    const { db } = database();
    // Last used an hour before the idle timeout would have ended it.
    const lastUsed = new Date(Date.now() - IDLE_MS + 3600_000);
    await db.update(session).set({
      updatedAt: lastUsed,
      expiresAt: new Date(lastUsed.getTime() + IDLE_MS),
    });
    expect(await requireAdmin(page("/admin/dashboard", cookie))).toMatchObject({ email: EMAIL });
    const [row] = await db.select().from(session);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + IDLE_MS - 60_000);
  });

  it(`a session older than the absolute limit (${config.adminSessionMaxSeconds / 86400} days) is refused even while in use`, async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const cookie = await signedInCookie();
    const { db } = database();
    // Signed in just over the limit ago, used a minute ago: not idle, but too old.
    await db.update(session).set({
      createdAt: new Date(Date.now() - MAX_MS - 60_000),
      updatedAt: new Date(Date.now() - 60_000),
      expiresAt: new Date(Date.now() + IDLE_MS - 60_000),
    });
    const response = await thrown(requireAdmin(page("/admin/dashboard", cookie)));
    expect(response.headers.get("Location")).toBe("/auth");
    expect(response.headers.getSetCookie().join()).toMatch(
      /better-auth\.session_token=; Max-Age=0/,
    );
    const [rows] = await db.select({ n: count() }).from(session);
    expect(rows?.n).toBe(0);
    // An action gets its 401 too.
    expect((await thrown(requireAdmin(page("/admin/inquiries", cookie, "POST")))).status).toBe(401);
  });
});

describe("adminReturnPath", () => {
  const at = (redirectTo: string) =>
    adminReturnPath(new Request(`${origin}/auth?redirectTo=${encodeURIComponent(redirectTo)}`));

  it("returns to an admin page with its query", () => {
    expect(at("/admin/payments?status=paid")).toBe("/admin/payments?status=paid");
    expect(at("/admin")).toBe("/admin");
  });

  it("never leaves the admin area of this site", () => {
    for (const elsewhere of [
      "https://evil.example/admin",
      "//evil.example/admin",
      "/admin/..//evil.example",
      "/\\evil.example/admin",
      "/administrator",
      "/courses/x",
      "admin/courses",
      "",
    ]) {
      expect(at(elsewhere), elsewhere).toBe("/admin/dashboard");
    }
    expect(adminReturnPath(new Request(`${origin}/auth`))).toBe("/admin/dashboard");
  });
});
