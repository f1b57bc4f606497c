import { and, eq, lt, ne, sql } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { session, twoFactorCodeUse } from "../db/schema.ts";

/**
 * The second factor belongs to the session (decision 0029): which session passed one, a code
 * accepted once, and the other sessions an account change ends.
 */

/**
 * How long an accepted code is remembered: longer than any code stays valid (better-auth accepts
 * the code of the 30-second step before and after the current one, so at most 90 seconds).
 */
const CODE_MEMORY_SECONDS = 5 * 60;

/**
 * Claims a code for this account before it is checked. False when the same code was claimed
 * within CODE_MEMORY_SECONDS (a replay: refused however right it is). One statement, so two
 * requests racing with the same code cannot both win.
 */
export async function claimCode(userId: string, code: string): Promise<boolean> {
  const normalised = code.replace(/\s+/g, "");
  const database = db();
  await database
    .delete(twoFactorCodeUse)
    .where(
      and(
        eq(twoFactorCodeUse.userId, userId),
        lt(twoFactorCodeUse.usedAt, sql`now() - make_interval(secs => ${CODE_MEMORY_SECONDS})`),
      ),
    );
  const claimed = await database
    .insert(twoFactorCodeUse)
    .values({ userId, code: normalised })
    .onConflictDoNothing()
    .returning({ userId: twoFactorCodeUse.userId });
  return claimed.length > 0;
}

/** A claimed code that was refused (wrong, or the request failed) is not kept as used. */
export async function releaseCode(userId: string, code: string): Promise<void> {
  await db()
    .delete(twoFactorCodeUse)
    .where(
      and(eq(twoFactorCodeUse.userId, userId), eq(twoFactorCodeUse.code, code.replace(/\s+/g, ""))),
    );
}

/** Marks the session behind this token as having passed a second factor. */
export async function markSessionVerified(token: string): Promise<void> {
  await db().update(session).set({ twoFactorVerified: true }).where(eq(session.token, token));
}

/** Ends a session that must not go on (it did not pass the second factor its account needs). */
export async function endSession(sessionId: string): Promise<void> {
  await db().delete(session).where(eq(session.id, sessionId));
}

/**
 * Ends every session of the account but the one behind `keepToken` (turning two-factor sign-in
 * on or off). Returns how many ended.
 */
export async function endOtherSessions(userId: string, keepToken: string | null): Promise<number> {
  const ended = await db()
    .delete(session)
    .where(
      keepToken
        ? and(eq(session.userId, userId), ne(session.token, keepToken))
        : eq(session.userId, userId),
    )
    .returning({ id: session.id });
  return ended.length;
}

/**
 * The session token in better-auth's session cookie among these Set-Cookie headers (its value is
 * `<token>.<signature>`), or null.
 */
export function sessionTokenSet(headers: Headers): string | null {
  for (const cookie of headers.getSetCookie()) {
    const match = /^(?:__Secure-)?better-auth\.session_token=([^;]*)/.exec(cookie);
    if (!match?.[1]) continue;
    const token = decodeURIComponent(match[1]).split(".")[0];
    if (token) return token;
  }
  return null;
}
