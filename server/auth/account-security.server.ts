import { symmetricDecrypt } from "better-auth/crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { session, twoFactor, user } from "../db/schema.ts";
import { auth } from "./config.server.ts";
import { callAuthEndpoint, type AuthCallResult } from "./endpoint.server.ts";
import { currentSessionId, type AdminUser } from "./guard.server.ts";
import {
  MAILBOX_CODE_EXPIRED,
  MAILBOX_CODE_WRONG,
  mailboxStepNeeded,
  sendMailboxCode,
  spendMailboxCode,
} from "./mailbox-step.server.ts";
import { endOtherSessions, sessionTokenSet } from "./second-factor.server.ts";

/**
 * The signed-in admin's own account (decision 0017, /admin/account): two-factor sign-in (better-auth's
 * twoFactor plugin, called through its handler so its checks and rate limits apply) and their
 * sessions. better-auth writes its own rows; the audit row follows once its change succeeded
 * (decision 0017).
 */

export interface AccountSession {
  id: string;
  /** The browser and system, shortened from the user agent. */
  device: string;
  ipAddress: string | null;
  createdAt: Date;
  lastActiveAt: Date;
  current: boolean;
}

export interface TwoFactorSetup {
  /** The otpauth:// address as a QR code, an SVG drawn on the server. */
  qrSvg: string;
  /** The same secret in base32, in groups of four for typing. */
  secret: string;
  /** Shown once, when set up (null when the page is shown again after a wrong code). */
  backupCodes: string[] | null;
}

export type AccountResult<T = object> =
  ({ ok: true; headers: Headers } & T) | { ok: false; status: number; message: string };

export async function accountScreen(request: Request, admin: AdminUser) {
  return {
    email: admin.email,
    twoFactorEnabled: admin.twoFactorEnabled,
    twoFactorRequired: config.requireAdmin2fa,
    sessions: await listAdminSessions(request, admin),
  };
}

/* ---------------------------------------------------------------- two-factor sign-in */

export type SetupStart =
  | AccountResult<{ setup: TwoFactorSetup }>
  /** The mailbox step: a code was e-mailed to this address, to be entered with the password. */
  | { ok: true; headers: Headers; mailboxCodeSentTo: string };

/**
 * Step 1 of turning it on: the password, then a new secret and backup codes (not yet active).
 * Where the mailbox must be proved first (mailboxStepNeeded), the password alone e-mails a code
 * to the account; the password with that code goes on to the set-up.
 */
export async function startTwoFactorSetup(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
  password: string,
  mailboxCode?: string,
): Promise<SetupStart> {
  if (!admin.twoFactorEnabled && (await mailboxStepNeeded(admin))) {
    const checked = await callAuthEndpoint(
      request,
      clientIp,
      "/verify-password",
      { password },
      { accountPage: true },
    );
    if (!checked.ok) return refused(checked);
    if (mailboxCode === undefined) {
      await sendMailboxCode(admin, clientIp);
      return { ok: true, headers: checked.headers, mailboxCodeSentTo: admin.email };
    }
    const spent = await spendMailboxCode(admin.id, mailboxCode);
    if (spent === "wrong") {
      return { ok: false, status: 400, message: MAILBOX_CODE_WRONG };
    }
    if (spent === "expired") {
      return { ok: false, status: 410, message: MAILBOX_CODE_EXPIRED };
    }
  }
  const result = await callAuthEndpoint<{ totpURI?: string; backupCodes?: string[] }>(
    request,
    clientIp,
    "/two-factor/enable",
    { password, method: "totp" },
    { accountPage: true },
  );
  if (!result.ok || !result.body?.totpURI) return refused(result);
  return {
    ok: true,
    headers: result.headers,
    setup: await setupOf(result.body.totpURI, result.body.backupCodes ?? []),
  };
}

/**
 * Step 2: a code from the app proves it was set up; better-auth then turns two-factor sign-in
 * on and replaces the session (`headers` carry its new cookie). A wrong code answers the set-up
 * again (without the backup codes, shown once).
 */
export async function confirmTwoFactorSetup(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
  code: string,
): Promise<
  AccountResult | { ok: false; status: number; message: string; setup: TwoFactorSetup | null }
> {
  const result = await callAuthEndpoint(
    request,
    clientIp,
    "/two-factor/verify-totp",
    { code },
    { accountPage: true },
  );
  if (!result.ok) {
    return { ...refused(result), setup: await pendingSetup(admin) };
  }
  // Sessions signed in with the password alone end: only this one passed the code (decision 0029).
  const ended = await endOtherSessions(admin.id, sessionTokenSet(result.headers));
  await db()
    .update(user)
    .set({ twoFactorEnrolledAt: sql`now()` })
    .where(and(eq(user.id, admin.id), isNull(user.twoFactorEnrolledAt)));
  await recordAudit(db(), admin, {
    action: "admin.two_factor_enabled",
    subjectType: "admin",
    subjectId: admin.id,
    summary: admin.email,
    after: { twoFactorEnabled: true, otherSessionsEnded: ended },
    ipAddress: clientIp ?? null,
  });
  return { ok: true, headers: result.headers };
}

export async function turnOffTwoFactor(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
  password: string,
): Promise<AccountResult> {
  const result = await callAuthEndpoint(
    request,
    clientIp,
    "/two-factor/disable",
    { password },
    { accountPage: true },
  );
  if (!result.ok) return refused(result);
  const ended = await endOtherSessions(admin.id, sessionTokenSet(result.headers));
  await recordAudit(db(), admin, {
    action: "admin.two_factor_disabled",
    subjectType: "admin",
    subjectId: admin.id,
    summary: admin.email,
    before: { twoFactorEnabled: true },
    after: { twoFactorEnabled: false, otherSessionsEnded: ended },
    ipAddress: clientIp ?? null,
  });
  return { ok: true, headers: result.headers };
}

export async function regenerateBackupCodes(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
  password: string,
): Promise<AccountResult<{ backupCodes: string[] }>> {
  const result = await callAuthEndpoint<{ backupCodes?: string[] }>(
    request,
    clientIp,
    "/two-factor/generate-backup-codes",
    { password },
    { accountPage: true },
  );
  if (!result.ok || !result.body?.backupCodes) return refused(result);
  await recordAudit(db(), admin, {
    action: "admin.backup_codes_regenerated",
    subjectType: "admin",
    subjectId: admin.id,
    summary: admin.email,
    ipAddress: clientIp ?? null,
  });
  return { ok: true, headers: result.headers, backupCodes: result.body.backupCodes };
}

/** The set-up begun but not confirmed, drawn again from better-auth's (encrypted) row. */
async function pendingSetup(admin: AdminUser): Promise<TwoFactorSetup | null> {
  if (admin.twoFactorEnabled) return null;
  const [row] = await db()
    .select({ secret: twoFactor.secret })
    .from(twoFactor)
    .where(and(eq(twoFactor.userId, admin.id), eq(twoFactor.verified, false)))
    .limit(1);
  if (!row) return null;
  const secret = await symmetricDecrypt({
    key: (await auth().$context).secretConfig,
    data: row.secret,
  });
  return setupOf(totpUri(secret, admin.email), null);
}

/** The otpauth:// address better-auth's plugin gives for this secret (RFC 6238 defaults). */
function totpUri(secret: string, email: string): string {
  const issuer = "NightWatch";
  const params = new URLSearchParams({ secret: base32(Buffer.from(secret, "utf8")), issuer });
  params.set("digits", "6");
  params.set("period", "30");
  return `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(email)}?${params}`;
}

function base32(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

async function setupOf(uri: string, backupCodes: string[] | null): Promise<TwoFactorSetup> {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  const qrSvg = await QRCode.toString(uri, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    width: 200,
  });
  return { qrSvg, secret: secret.match(/.{1,4}/g)?.join(" ") ?? "", backupCodes };
}

/* ---------------------------------------------------------------- sessions */

/**
 * The admin's sessions still valid, newest activity first (read from better-auth's session
 * table like its listSessions does, without its 'signed in within a day' rule: this is the
 * admin's own list, behind the guard).
 */
export async function listAdminSessions(
  request: Request,
  admin: AdminUser,
): Promise<AccountSession[]> {
  const current = await currentSessionId(request);
  const rows = await db()
    .select()
    .from(session)
    .where(and(eq(session.userId, admin.id), gt(session.expiresAt, new Date())))
    .orderBy(desc(session.updatedAt))
    .limit(50);
  return rows.map((row) => ({
    id: row.id,
    device: describeUserAgent(row.userAgent),
    ipAddress: row.ipAddress || null,
    createdAt: row.createdAt,
    lastActiveAt: row.updatedAt,
    current: row.id === current,
  }));
}

/** Ends one of the admin's own sessions (not found, or another admin's: false). */
export async function signOutSession(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
  sessionId: string,
): Promise<AccountResult> {
  // The page names sessions by id; tokens (which sign a browser in) never leave the server.
  const [row] = await db()
    .select({ token: session.token, userAgent: session.userAgent, ipAddress: session.ipAddress })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, admin.id)))
    .limit(1);
  if (!row) return { ok: false, status: 404, message: "That session has already ended." };
  const result = await callAuthEndpoint(
    request,
    clientIp,
    "/revoke-session",
    { token: row.token },
    { accountPage: true },
  );
  if (!result.ok) return refused(result);
  await recordAudit(db(), admin, {
    action: "admin.sessions_revoked",
    subjectType: "admin",
    subjectId: admin.id,
    summary: admin.email,
    before: {
      sessions: [{ device: describeUserAgent(row.userAgent), ipAddress: row.ipAddress }],
    },
    ipAddress: clientIp ?? null,
  });
  return { ok: true, headers: result.headers };
}

/** 'Sign out everywhere else': every session of the admin but this one ends. */
export async function signOutOtherSessions(
  request: Request,
  clientIp: string | undefined,
  admin: AdminUser,
): Promise<AccountResult<{ count: number }>> {
  const others = (await listAdminSessions(request, admin)).filter((s) => !s.current);
  const result = await callAuthEndpoint(
    request,
    clientIp,
    "/revoke-other-sessions",
    {},
    { accountPage: true },
  );
  if (!result.ok) return refused(result);
  await recordAudit(db(), admin, {
    action: "admin.sessions_revoked",
    subjectType: "admin",
    subjectId: admin.id,
    summary: `${admin.email}: ${others.length} other session${others.length === 1 ? "" : "s"}`,
    before: { sessions: others.map((s) => ({ device: s.device, ipAddress: s.ipAddress })) },
    ipAddress: clientIp ?? null,
  });
  return { ok: true, headers: result.headers, count: others.length };
}

/** 'Chrome on Windows' from a user agent; the raw string is long and says little to a reader. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  if (!ua) return "Unknown browser";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\/|Opera/.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrome\/|Chromium\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : null;
  const system = /Windows/.test(ua)
    ? "Windows"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Android/.test(ua)
        ? "Android"
        : /Mac OS X|Macintosh/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system)!;
  return ua.length > 40 ? `${ua.slice(0, 39)}…` : ua;
}

/* ---------------------------------------------------------------- answers */

/** better-auth's refusal in words for the page. */
function refused(result: AuthCallResult<unknown>): { ok: false; status: number; message: string } {
  const status = result.ok ? 500 : result.status;
  return { ok: false, status, message: accountMessage(result) };
}

function accountMessage(result: AuthCallResult<unknown>): string {
  if (result.status === 429) return "Too many attempts. Please wait a minute and try again.";
  switch (result.code) {
    case "INVALID_PASSWORD":
      return "That password is not right.";
    case "INVALID_CODE":
      return "That code is not right. Enter the 6-digit code your app shows now.";
    case "CODE_ALREADY_USED":
      return "That code has been used already. Enter the next code your app shows.";
    case "TOTP_ALREADY_ENABLED":
      return "Two-factor sign-in is already on.";
    case "TWO_FACTOR_NOT_ENABLED":
    case "TOTP_NOT_ENABLED":
      return "Two-factor sign-in is not on. Please start again.";
    default:
      return result.status >= 500 || result.ok
        ? "Something went wrong. Please try again."
        : result.message;
  }
}
