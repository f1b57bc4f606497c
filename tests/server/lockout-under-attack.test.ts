import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { getAdmin } from "#server/auth/guard.server.ts";
import { RESET_ANSWER_MS, requestPasswordResetByForm } from "#server/auth/password-links.server.ts";
import { RESET_EMAILS_PER_HOUR } from "#server/auth/password-link-emails.server.ts";
import { signInWithPassword } from "#server/auth/sign-in.server.ts";
import { unlockLinkAccount, useUnlockLink } from "#server/auth/unlock.server.ts";
import { config } from "#server/config.server.ts";
import { emailOutbox, user } from "#server/db/schema.ts";
import {
  origin,
  STAFF_EMAIL as EMAIL,
  STAFF_PASSWORD as PASSWORD,
} from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * Nobody can lock the real admin out (decision 0031): guessing stays bounded per account — each
 * lock of the day doubles the next — while the owner, through the lock e-mail's one-time link,
 * signs in from their own browser during an attack from many addresses. "Forgot password?" is
 * limited per mailbox as well as per client, and answers after the same time for any address.
 */
const database = useFreshDatabase();
const ATTEMPTS = config.signInLockout.attempts;

let ip = 0;
const attacker = () => `203.0.113.${(ip++ % 20) + 1}`; // 20 addresses, in turn

function post(cookie?: string) {
  return new Request(`${origin}/auth`, {
    method: "POST",
    headers: { Origin: origin, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

const guess = () =>
  signInWithPassword(post(), { email: EMAIL, password: "guess guess guess" }, attacker());

async function account() {
  const [row] = await database().db.select().from(user).where(eq(user.email, EMAIL));
  return row!;
}

/** The unlock links of the account's lock e-mails, newest last. */
async function unlockLinks(): Promise<string[]> {
  const mails = await database()
    .db.select({ text: emailOutbox.text })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, "account_locked"), eq(emailOutbox.toAddress, EMAIL)))
    .orderBy(emailOutbox.createdAt);
  return mails.map((m) =>
    new URL(/https?:\/\/\S+\/auth\/unlock\?token=\S+/.exec(m.text)![0]).searchParams.get("token")!,
  );
}

const lockMinutes = async () => ((await account()).lockedUntil!.getTime() - Date.now()) / 60_000;

describe("lockout under attack", () => {
  it("guessing stays bounded: each lock of the day doubles the next", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const base = config.signInLockout.minutes;
    for (const factor of [1, 2, 4]) {
      for (let i = 0; i < ATTEMPTS; i++) await guess();
      const minutes = await lockMinutes();
      expect(minutes, `lock ${factor}`).toBeGreaterThan(base * factor - 1);
      expect(minutes, `lock ${factor}`).toBeLessThanOrEqual(base * factor);
      // Guesses while locked are not even tried.
      await guess();
      // The lock runs out (as if its time had passed).
      await database()
        .db.update(user)
        .set({ lockedUntil: new Date(Date.now() - 1000) });
    }
  });

  it("20 addresses keep guessing; the owner signs in through the unlock link all the same", async () => {
    const admin = await createAdmin({ email: EMAIL, password: PASSWORD });
    for (let i = 0; i < ATTEMPTS + 20; i++) await guess();
    // The right password alone is refused while locked.
    expect(
      await signInWithPassword(post(), { email: EMAIL, password: PASSWORD }, "192.0.2.9"),
    ).toMatchObject({
      ok: false,
      status: 401,
    });

    const [token] = await unlockLinks();
    expect(await unlockLinkAccount(token)).toEqual({ email: EMAIL });
    const used = await useUnlockLink(token, "192.0.2.9");
    expect(used).not.toBeNull();
    const pass = used!.cookie.split(";")[0]!;
    // The link works once.
    expect(await useUnlockLink(token, "192.0.2.9")).toBeNull();

    // The attack goes on; the owner's browser, with its pass, signs in.
    for (let i = 0; i < 5; i++) await guess();
    const owner = await signInWithPassword(
      post(pass),
      { email: EMAIL, password: PASSWORD },
      "192.0.2.9",
    );
    expect(owner.ok).toBe(true);
    if (!owner.ok) return;
    const session = owner.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(
      (await getAdmin(new Request(`${origin}/admin`, { headers: { Cookie: session } })))?.id,
    ).toBe(admin.id);
    // Everyone else is still locked out, the pass with a wrong password too.
    expect((await account()).lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(
      await signInWithPassword(post(), { email: EMAIL, password: PASSWORD }, attacker()),
    ).toMatchObject({ ok: false });
    expect(
      await signInWithPassword(
        post(pass),
        { email: EMAIL, password: "not it at all" },
        "192.0.2.9",
      ),
    ).toMatchObject({ ok: false });
  });

  it("a pass is this account's only, and cannot be forged", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const other = await createAdmin({ email: "other@example.com", password: PASSWORD });
    for (let i = 0; i < ATTEMPTS; i++) await guess();
    await database()
      .db.update(user)
      .set({ lockedUntil: new Date(Date.now() + 600_000) })
      .where(eq(user.id, other.id));
    const [token] = await unlockLinks();
    const pass = (await useUnlockLink(token, null))!.cookie.split(";")[0]!;
    expect(
      await signInWithPassword(
        post(pass),
        { email: "other@example.com", password: PASSWORD },
        "192.0.2.9",
      ),
    ).toMatchObject({ ok: false });
    const [name, value] = pass.split("=") as [string, string];
    const forged = `${name}=${other.id}.${value.split(".").slice(1).join(".")}`;
    expect(
      await signInWithPassword(
        post(forged),
        { email: "other@example.com", password: PASSWORD },
        "192.0.2.9",
      ),
    ).toMatchObject({ ok: false });
  });
});

describe("forgot password under attack", () => {
  it("one mailbox gets at most a few reset e-mails an hour, however many clients ask", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    const [local, domain] = EMAIL.split("@") as [string, string];
    const answers = [];
    for (let i = 0; i < 6; i++) {
      // Other clients, other casings and +tags: the same mailbox.
      const address = i % 2 ? EMAIL.toUpperCase() : `${local}+${i}@${domain}`;
      answers.push(await requestPasswordResetByForm(post(), address, `198.18.0.${i + 1}`));
    }
    expect(answers.every((a) => a.ok)).toBe(true);
    const mails = await database()
      .db.select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "password_reset"));
    expect(mails).toHaveLength(RESET_EMAILS_PER_HOUR);
  });

  it("an admin's address and an unknown one both answer after the same floor", async () => {
    await createAdmin({ email: EMAIL, password: PASSWORD });
    for (const address of [EMAIL, "nobody@example.com"]) {
      const started = performance.now();
      expect(
        await requestPasswordResetByForm(post(), address, `198.18.1.${address.length}`),
      ).toEqual({ ok: true });
      expect(performance.now() - started, address).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    }
  });
});
