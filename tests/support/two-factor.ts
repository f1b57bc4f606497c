import { and, desc, eq } from "drizzle-orm";
import { expect } from "vitest";
import {
  confirmTwoFactorSetup,
  startTwoFactorSetup,
} from "#server/auth/account-security.server.ts";
import { createAdmin } from "#server/auth/accounts.server.ts";
import type { AdminUser } from "#server/auth/guard.server.ts";
import { signInWithPassword } from "#server/auth/sign-in.server.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox } from "#server/db/schema.ts";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
} from "#tests/support/admin-session.ts";
import { codeFor } from "#tests/support/totp.ts";

/**
 * Two-factor sign-in (decision 0017) as the server tests go through it: requests with the
 * cookies a browser would keep, the password step, the code e-mailed on a first set-up, and an
 * admin who has started or finished turning it on, in the database the test made current
 * (`useFreshDatabase`).
 */

// Addresses of their own per step: better-auth's per-address rate limits are tested elsewhere.
let ip = 0;
export const nextIp = () => `192.0.2.${(ip++ % 250) + 1}`;

export function request(path: string, cookie?: string, method = "GET") {
  return new Request(`${origin}${path}`, {
    method,
    headers: cookie ? { Cookie: cookie, Origin: origin } : { Origin: origin },
  });
}

export function cookieOf(headers: Headers, previous = ""): string {
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

export async function passwordSignIn(): Promise<string> {
  const result = await signInWithPassword(
    request("/auth", undefined, "POST"),
    { email: EMAIL, password: PASSWORD },
    nextIp(),
  );
  expect(result.ok).toBe(true);
  if (!result.ok) throw new Error("sign-in failed");
  return cookieOf(result.headers);
}

/** The code of the latest mailbox-step e-mail to `to`. */
export async function mailedCode(to: string): Promise<string> {
  const mails = await db()
    .select({ text: emailOutbox.text })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, "two_factor_mailbox_code")))
    .orderBy(desc(emailOutbox.createdAt));
  const code = /^\d{6}$/m.exec(mails[0]?.text ?? "")?.[0];
  if (!code) throw new Error(`no mailbox code e-mailed to ${to}`);
  return code;
}

/**
 * Step 1 of turning it on, as the account page goes through it: the password, and on a first
 * set-up the code e-mailed to the account with the password again.
 */
export async function beginSetup(cookie: string, admin: AdminUser) {
  const post = () => request("/admin/account", cookie, "POST");
  const first = await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD);
  if (!first.ok) throw new Error(first.message);
  if ("setup" in first) return first;
  expect(first.mailboxCodeSentTo).toBe(admin.email);
  const code = await mailedCode(admin.email);
  const second = await startTwoFactorSetup(post(), nextIp(), admin, PASSWORD, code);
  if (!second.ok || !("setup" in second)) throw new Error("expected the set-up");
  return second;
}

/** An admin signed in with their password who has started turning two-factor sign-in on. */
export async function adminStartingTwoFactor() {
  const created = await createAdmin({ email: EMAIL, password: PASSWORD });
  const cookie = await passwordSignIn();
  const started = await beginSetup(cookie, created);
  return { created, cookie, started };
}

/** An admin signed in with their password who has turned two-factor sign-in on. */
export async function adminWithTwoFactor() {
  const { created, cookie: passwordCookie, started } = await adminStartingTwoFactor();
  let cookie = passwordCookie;
  expect(started.setup.qrSvg).toMatch(/^<svg/);
  expect(started.setup.backupCodes).toHaveLength(10);
  const secret = started.setup.secret;
  expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);

  const admin: AdminUser = { ...created };
  // The code that turns it on, and its 30-second step: a test replaying it may run in a later one.
  const enabledWith = codeFor(secret);
  const enabledInStep = Math.floor(Date.now() / 30_000);
  const confirmed = await confirmTwoFactorSetup(
    request("/admin/account", cookie, "POST"),
    nextIp(),
    admin,
    enabledWith,
  );
  expect(confirmed.ok).toBe(true);
  if (!confirmed.ok) throw new Error(confirmed.message);
  cookie = cookieOf(confirmed.headers, cookie);
  return {
    admin,
    secret,
    backupCodes: started.setup.backupCodes!,
    cookie,
    enabledWith,
    enabledInStep,
  };
}
