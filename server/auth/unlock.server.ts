import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { user, verification } from "../db/schema.ts";
import { derivedSecret } from "./secret.server.ts";

/**
 * "Unlock and sign in" (decision 0031): whoever guesses an admin's password locks the account, but
 * cannot keep its owner out. The lock e-mail carries a one-time link; the owner's browser that
 * follows it gets an unlock pass (a signed cookie naming the account, for an hour) with which
 * the sign-in form takes the right password — and the second factor — while the account stays
 * locked for everyone else.
 */

/** How long the e-mailed link works, and how long the pass it gives lasts. */
export const UNLOCK_LINK_MINUTES = 60;
export const UNLOCK_PASS_MINUTES = 60;

export const UNLOCK_COOKIE = "nw_unlock";

const identifierOf = (token: string) =>
  `unlock:${createHash("sha256").update(token).digest("base64url")}`;

/** Issues a link's token for this account (stored hashed; any earlier one keeps working). */
export async function issueUnlockToken(tx: Transaction, userId: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx.insert(verification).values({
    id: randomUUID(),
    identifier: identifierOf(token),
    value: userId,
    expiresAt: new Date(Date.now() + UNLOCK_LINK_MINUTES * 60_000),
  });
  return token;
}

export function unlockUrl(token: string): string {
  return `${config.publicUrl}/auth/unlock?token=${encodeURIComponent(token)}`;
}

function wellFormed(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{20,100}$/.test(token);
}

/** The account a link's token unlocks, while it still works (not used, not expired). */
export async function unlockLinkAccount(token: unknown): Promise<{ email: string } | null> {
  if (!wellFormed(token)) return null;
  const [row] = await db()
    .select({ email: user.email })
    .from(verification)
    .innerJoin(user, eq(user.id, verification.value))
    .where(
      and(eq(verification.identifier, identifierOf(token)), gt(verification.expiresAt, sql`now()`)),
    );
  return row ?? null;
}

/**
 * Uses a link (once): the Set-Cookie header of the unlock pass for this browser, and an audit row.
 * Null when the link does not work (used, expired, unknown).
 */
export async function useUnlockLink(
  token: unknown,
  ipAddress: string | null,
): Promise<{ cookie: string; email: string } | null> {
  if (!wellFormed(token)) return null;
  return db().transaction(async (tx) => {
    const [used] = await tx
      .delete(verification)
      .where(
        and(
          eq(verification.identifier, identifierOf(token)),
          gt(verification.expiresAt, sql`now()`),
        ),
      )
      .returning({ userId: verification.value });
    if (!used) return null;
    const [account] = await tx
      .select({ id: user.id, email: user.email })
      .from(user)
      .where(eq(user.id, used.userId));
    if (!account) return null;
    await recordAudit(tx, null, {
      action: "auth.unlock_link_used",
      subjectType: "admin",
      subjectId: account.id,
      summary: account.email,
      ipAddress,
    });
    return { cookie: passCookie(account.id), email: account.email };
  });
}

function signature(payload: string): Buffer {
  return createHmac("sha256", derivedSecret("unlock-pass")).update(payload).digest();
}

function passCookie(userId: string): string {
  const expires = Date.now() + UNLOCK_PASS_MINUTES * 60_000;
  const payload = `${userId}.${expires}`;
  const value = `${payload}.${signature(payload).toString("base64url")}`;
  const secure = config.publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${UNLOCK_COOKIE}=${value}; Max-Age=${UNLOCK_PASS_MINUTES * 60}; Path=/auth; HttpOnly; SameSite=Lax${secure}`;
}

/** The account whose lock this request's unlock pass lifts (signed, not expired), or null. */
export function unlockPassAccount(cookieHeader: string | null | undefined): string | null {
  const match = new RegExp(`(?:^|;\\s*)${UNLOCK_COOKIE}=([^;]+)`).exec(cookieHeader ?? "");
  const parts = match?.[1]?.split(".");
  if (!parts || parts.length !== 3) return null;
  const [userId, expires, given] = parts as [string, string, string];
  if (!/^\d{1,15}$/.test(expires) || Number(expires) < Date.now()) return null;
  const expected = signature(`${userId}.${expires}`);
  const received = Buffer.from(given, "base64url");
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return null;
  return userId;
}
