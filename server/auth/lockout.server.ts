import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { and, eq, gt, isNull, lte, ne, or, sql } from "drizzle-orm";
import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { auditLog, user } from "../db/schema.ts";
import { renderAccountLocked } from "../email/templates/account.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { log } from "../log.server.ts";
import { claimCode, markSessionVerified, releaseCode } from "./second-factor.server.ts";
import {
  issueUnlockToken,
  UNLOCK_LINK_MINUTES,
  unlockPassAccount,
  unlockUrl,
} from "./unlock.server.ts";

/**
 * What happens around better-auth's own sign-in endpoints (decision 0017), as its `hooks.before` and
 * `hooks.after`, so the /auth form and a direct POST to /api/auth/sign-in/email get the same:
 * - per-account lockout: `config.signInLockout.attempts` wrong passwords in a row lock the account
 *   for `minutes`, doubled for each lock of the last day; while locked the right password is
 *   refused too, except from a browser holding the unlock pass that the lock e-mail's one-time
 *   link gives the owner (decision 0031); the account is e-mailed once per lock;
 * - the sign-in audit rows (auth.sign_in, auth.sign_in_failed, auth.locked, auth.two_factor_failed);
 * - no 'trust this device': an admin with two-factor sign-in gives a code every time;
 * - a code from the app is accepted once, and a session that passed a code is marked so
 *   (decision 0029).
 * Sign-in rows are written outside any transaction: a sign-in changes no business data.
 */

/**
 * The header that carries the client's address to better-auth (for its rate limit and these
 * rows). Set only by our own code from Express's view of the connection; any value a client
 * sends is replaced (handleAuthRequest in sign-in.server.ts).
 */
export const CLIENT_IP_HEADER = "x-nightwatch-client-ip";

/**
 * Marks a call to better-auth made by our own server code for the /admin/account page. Dropped
 * from every outside request, so better-auth's account-changing endpoints (below) are reachable
 * only through that page, which writes their audit rows.
 */
export const ACCOUNT_PAGE_HEADER = "x-nightwatch-account-page";

/** Changes to an admin's own two-factor set-up and sessions: only through /admin/account. */
const ACCOUNT_PAGE_ONLY = new Set([
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/generate-backup-codes",
  "/two-factor/get-totp-uri",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
]);

const SIGN_IN_PATH = "/sign-in/email";
const VERIFY_PATHS: Record<string, "totp" | "backup_code"> = {
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
};

/**
 * better-auth's own answer to a wrong password and to an unknown address, and ours to a locked
 * account: the three cannot be told apart from outside (the lock e-mail tells the real owner).
 */
export const INVALID_CREDENTIALS = "Invalid email or password";

const MAX_ADDRESS = 254;

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

function clientIp(ctx: HookContext): string | null {
  return ctx.headers?.get(CLIENT_IP_HEADER) ?? null;
}

function attemptedEmail(ctx: HookContext): string {
  const body = ctx.body as { email?: unknown } | undefined;
  return typeof body?.email === "string" ? body.email.trim().slice(0, MAX_ADDRESS) : "";
}

function apiErrorOf(value: unknown): { status: number; code: string } | null {
  if (!(value instanceof APIError)) return null;
  const body = value.body as { code?: unknown } | undefined;
  return { status: value.statusCode, code: typeof body?.code === "string" ? body.code : "" };
}

/* ---------------------------------------------------------------- lockout */

/** The account behind this address if it is locked now. */
export async function lockedAccount(email: string): Promise<{ id: string } | null> {
  const [row] = await db()
    .select({ id: user.id })
    .from(user)
    .where(
      and(sql`lower(${user.email}) = ${email.toLowerCase()}`, gt(user.lockedUntil, sql`now()`)),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Counts a wrong password for this address (nothing for an unknown one). The one that reaches
 * the limit locks the account, restarts the count and queues the lock e-mail, all in one
 * statement's row lock and one transaction: concurrent wrong passwords lock it, and mail it,
 * once.
 */
export async function recordWrongPassword(
  email: string,
  ipAddress: string | null,
): Promise<{ id: string; locked: boolean } | null> {
  const { attempts, minutes } = config.signInLockout;
  const reachesLimit = sql`${user.failedSignIns} + 1 >= ${attempts}`;
  // Each lock of the last day doubles the next (up to a day): guessing stays a few dozen tries a
  // day, however patient (decision 0031).
  const locksToday = sql`(select count(*) from ${auditLog} where ${auditLog.action} = 'auth.locked' and ${auditLog.subjectId} = ${user.id} and ${auditLog.at} > now() - interval '1 day')`;
  const lockMinutes = sql`least(${minutes} * power(2, ${locksToday}), 24 * 60)`;
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(user)
      .set({
        failedSignIns: sql`case when ${reachesLimit} then 0 else ${user.failedSignIns} + 1 end`,
        lockedUntil: sql`case when ${reachesLimit} then now() + make_interval(mins => ${lockMinutes}::int) else ${user.lockedUntil} end`,
      })
      .where(
        and(
          sql`lower(${user.email}) = ${email.toLowerCase()}`,
          or(isNull(user.lockedUntil), lte(user.lockedUntil, sql`now()`)),
        ),
      )
      .returning({ id: user.id, email: user.email, lockedUntil: user.lockedUntil });
    if (!row) return null;
    // Only the update that set the lock sees a lock in the future (the WHERE skips locked rows).
    const locked = row.lockedUntil !== null && row.lockedUntil.getTime() > Date.now();
    if (locked) {
      const token = await issueUnlockToken(tx, row.id);
      await queueEmails(tx, [
        {
          kind: "account_locked",
          to: row.email,
          ...renderAccountLocked({
            email: row.email,
            attempts,
            lockedUntil: row.lockedUntil!,
            ipAddress,
            signInUrl: `${config.publicUrl}/auth`,
            unlockUrl: unlockUrl(token),
            unlockMinutes: UNLOCK_LINK_MINUTES,
          }),
        },
      ]);
      await recordAudit(tx, null, {
        action: "auth.locked",
        subjectType: "admin",
        subjectId: row.id,
        summary: row.email,
        after: { lockedUntil: row.lockedUntil!.toISOString(), failedSignIns: attempts },
        ipAddress,
      });
    }
    return { id: row.id, locked };
  });
}

/** A successful password: the count of wrong ones starts again. */
export async function resetWrongPasswords(userId: string): Promise<void> {
  await db()
    .update(user)
    .set({ failedSignIns: 0 })
    .where(and(eq(user.id, userId), ne(user.failedSignIns, 0)));
}

/* ---------------------------------------------------------------- hooks */

/** Who a two-factor sign-in step is for, read before the plugin may consume its challenge. */
const pendingTwoFactorUsers = new Map<string, string>();

async function twoFactorChallenge(ctx: HookContext): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  return typeof identifier === "string" && identifier ? identifier : null;
}

export const beforeAuthHook = createAuthMiddleware(async (ctx) => {
  // Only HTTP requests: our own server code calling auth().api.* directly is not refused.
  if (
    ACCOUNT_PAGE_ONLY.has(ctx.path) &&
    ctx.request &&
    ctx.headers?.get(ACCOUNT_PAGE_HEADER) !== "1"
  ) {
    throw new APIError("FORBIDDEN", {
      code: "USE_ACCOUNT_PAGE",
      message: "Change two-factor sign-in and sessions on the My Account page.",
    });
  }

  if (ctx.path === SIGN_IN_PATH) {
    const email = attemptedEmail(ctx);
    const locked = email ? await lockedAccount(email) : null;
    if (!locked) return;
    // The owner, through the e-mailed unlock link: this browser may sign in while it is locked.
    if (unlockPassAccount(ctx.headers?.get("cookie")) === locked.id) return;
    // As long as a wrong password takes, so the answer's timing does not tell either.
    const password = (ctx.body as { password?: unknown } | undefined)?.password;
    await ctx.context.password.hash(typeof password === "string" ? password : "");
    await recordAudit(db(), null, {
      action: "auth.sign_in_failed",
      subjectType: "admin",
      subjectId: locked.id,
      summary: email,
      after: { reason: "locked" },
      ipAddress: clientIp(ctx),
    });
    throw new APIError("UNAUTHORIZED", {
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: INVALID_CREDENTIALS,
    });
  }

  if (ctx.path in VERIFY_PATHS) {
    const challenge = await twoFactorChallenge(ctx);
    let userId: string | null;
    if (challenge) {
      const found = await ctx.context.internalAdapter.findVerificationValue(challenge);
      // Bounded: an entry whose after-hook never ran (a crash) must not pile up.
      if (pendingTwoFactorUsers.size > 1000) pendingTwoFactorUsers.clear();
      if (found?.value) pendingTwoFactorUsers.set(challenge, found.value);
      userId = found?.value ?? null;
    } else {
      userId = (await getSessionFromCtx(ctx))?.user.id ?? null;
      // Without a sign-in challenge a code confirms the account page's set-up: only there.
      if (userId && ctx.request && ctx.headers?.get(ACCOUNT_PAGE_HEADER) !== "1") {
        throw new APIError("FORBIDDEN", {
          code: "USE_ACCOUNT_PAGE",
          message: "Change two-factor sign-in and sessions on the My Account page.",
        });
      }
    }
    const code = submittedCode(ctx);
    if (userId && code && VERIFY_PATHS[ctx.path] === "totp" && !(await claimCode(userId, code))) {
      if (challenge) {
        await recordAudit(db(), null, {
          action: "auth.two_factor_failed",
          subjectType: "admin",
          subjectId: userId,
          summary: await emailOf(userId),
          after: { method: "totp", reason: "CODE_ALREADY_USED" },
          ipAddress: clientIp(ctx),
        });
      }
      throw new APIError("UNAUTHORIZED", {
        code: "CODE_ALREADY_USED",
        message: "That code has been used already.",
      });
    }
    // A code every time: the plugin's 'trust this device' cookie is never handed out.
    return { context: { body: { ...(ctx.body as object), trustDevice: false } } };
  }
});

function submittedCode(ctx: HookContext): string {
  const code = (ctx.body as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code.replace(/\s+/g, "") : "";
}

async function emailOf(userId: string): Promise<string> {
  const [row] = await db().select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? "";
}

export const afterAuthHook = createAuthMiddleware(async (ctx) => {
  try {
    if (ctx.path === SIGN_IN_PATH) await afterPasswordSignIn(ctx);
    else if (ctx.path in VERIFY_PATHS) await afterTwoFactorStep(ctx, VERIFY_PATHS[ctx.path]!);
  } catch (error) {
    // The sign-in itself stands: its bookkeeping failing is logged, never the visitor's problem.
    log.error({ err: error, path: ctx.path }, "sign-in bookkeeping failed");
  }
});

async function afterPasswordSignIn(ctx: HookContext) {
  const email = attemptedEmail(ctx);
  const ipAddress = clientIp(ctx);
  const error = apiErrorOf(ctx.context.returned);
  if (error) {
    if (error.code === "INVALID_EMAIL") {
      await recordAudit(db(), null, {
        action: "auth.sign_in_failed",
        subjectType: "admin",
        summary: email,
        after: { reason: "not_an_address" },
        ipAddress,
      });
    }
    if (error.code !== "INVALID_EMAIL_OR_PASSWORD" || !email) return;
    const account = await recordWrongPassword(email, ipAddress);
    await recordAudit(db(), null, {
      action: "auth.sign_in_failed",
      subjectType: "admin",
      subjectId: account?.id ?? null,
      summary: email,
      after: { reason: account ? "wrong_password" : "unknown_address" },
      ipAddress,
    });
    return;
  }
  const signedIn = ctx.context.newSession;
  if (!signedIn) return;
  await resetWrongPasswords(signedIn.user.id);
  // With two-factor sign-in the plugin's own hook (after this one) swaps the session for a
  // challenge: the sign-in is recorded when the code is accepted.
  if ((signedIn.user as { twoFactorEnabled?: boolean }).twoFactorEnabled) return;
  await recordAudit(db(), signedIn.user, {
    action: "auth.sign_in",
    subjectType: "admin",
    subjectId: signedIn.user.id,
    summary: signedIn.user.email,
    after: { method: "password" },
    ipAddress,
  });
}

async function afterTwoFactorStep(ctx: HookContext, method: "totp" | "backup_code") {
  const error = apiErrorOf(ctx.context.returned);
  const accepted = ctx.context.newSession;
  // The session this code made (at sign-in) or replaced (turning two-factor on) passed it.
  if (!error && accepted) await markSessionVerified(accepted.session.token);
  const challenge = await twoFactorChallenge(ctx);
  const userId = challenge
    ? pendingTwoFactorUsers.get(challenge)
    : error
      ? (await getSessionFromCtx(ctx).catch(() => null))?.user.id
      : undefined;
  if (challenge) pendingTwoFactorUsers.delete(challenge);
  // A refused code is not remembered as used: the right one may still follow.
  if (error && userId && method === "totp") await releaseCode(userId, submittedCode(ctx));
  // Only the sign-in step: a code typed while turning two-factor on is the account page's.
  if (!userId || !challenge) return;
  const ipAddress = clientIp(ctx);
  const [account] = await db()
    .select({ id: user.id, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  if (!account) return;
  if (error) {
    await recordAudit(db(), null, {
      action: "auth.two_factor_failed",
      subjectType: "admin",
      subjectId: account.id,
      summary: account.email,
      after: { method, reason: error.code || String(error.status) },
      ipAddress,
    });
    return;
  }
  if (!ctx.context.newSession) return;
  await recordAudit(db(), account, {
    action: "auth.sign_in",
    subjectType: "admin",
    subjectId: account.id,
    summary: account.email,
    after: { method },
    ipAddress,
  });
}
