import { AsyncLocalStorage } from "node:async_hooks";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor as twoFactorPlugin } from "better-auth/plugins";
import { count, eq, sql } from "drizzle-orm";
import { replace } from "react-router";
import { z } from "zod";
import { PASSWORD_LINK_LIFETIME } from "#app/lib/staff.ts";
import { recordAudit, type AuditActor } from "./audit.server.ts";
import { config } from "./config.server.ts";
import { db, type Database, type Transaction } from "./db/client.server.ts";
import { account, rateLimit, session, twoFactor, user, verification } from "./db/schema.ts";
import { queueEmails } from "./email/outbox.server.ts";
import {
  renderPasswordResetEmail,
  renderStaffInvitationEmail,
} from "./email/staff-templates.server.ts";
import { nudgeOutbox } from "./email/worker.server.ts";
import { log } from "./log.server.ts";
import {
  ACCOUNT_PAGE_HEADER,
  afterAuthHook,
  beforeAuthHook,
  CLIENT_IP_HEADER,
} from "./sign-in-guard.server.ts";

/**
 * Admin accounts and sessions (spec §2 'Admin sign-in', §6): better-auth with e-mail and
 * password, no public sign-up, sessions as database rows behind an httpOnly cookie.
 *
 * Every admin loader and action starts with `await requireAdmin(request)`; nothing else in the
 * app decides who is signed in.
 */

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  /** Two-factor sign-in (TOTP) is on for this admin. */
  twoFactorEnabled: boolean;
}

export const AUTH_BASE_PATH = "/api/auth";
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;
/**
 * Sessions (decision 0017): a session unused for the idle timeout ends (better-auth's sliding
 * expiry: `expiresIn` is the idle timeout, pushed back on use at most every `updateAge`), and
 * any session ends `adminSessionMaxSeconds` after sign-in however busy (sessionIsTooOld).
 */
const SESSION_EXPIRES_IN = config.adminIdleTimeoutSeconds;
const SESSION_UPDATE_AGE = Math.max(1, Math.min(5 * 60, Math.floor(SESSION_EXPIRES_IN / 10)));
/** The second sign-in step (the code) must follow the password within this many seconds. */
export const TWO_FACTOR_STEP_SECONDS = 5 * 60;

export { CLIENT_IP_HEADER };

/* ---------------------------------------------------------------- secret */

let generatedSecret: string | undefined;

/**
 * BETTER_AUTH_SECRET, else a random secret generated once and kept in DATA_DIR/auth-secret, so
 * the embedded set-up needs no configuration and sessions survive restarts. Several instances
 * must share one secret: they need BETTER_AUTH_SECRET (the log says so).
 */
function authSecret(): string {
  if (config.authSecret) return config.authSecret;
  if (generatedSecret) return generatedSecret;
  // Tests run on throw-away databases: a per-process secret, nothing written to disk.
  if (config.env === "test") return (generatedSecret = randomBytes(32).toString("base64url"));
  const file = path.join(config.dataDir, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      // Another process wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  generatedSecret = readFileSync(file, "utf8").trim();
  log.warn(
    { file },
    "BETTER_AUTH_SECRET is not set: admin sessions are signed with the secret generated in DATA_DIR/auth-secret. " +
      "Set BETTER_AUTH_SECRET (the same value on every instance) when more than one instance serves the site.",
  );
  return generatedSecret;
}

/**
 * A key for another signed cookie of the site, derived from the auth secret and its purpose, so
 * the admin sessions' secret itself signs nothing else and one setting covers every instance.
 */
export function derivedSecret(purpose: string): string {
  return createHmac("sha256", authSecret()).update(`nightwatch:${purpose}`).digest("base64url");
}

/* ---------------------------------------------------------------- better-auth */

/** When a session made at `createdAt` must end at the latest (the absolute lifetime). */
export function sessionDeadline(createdAt: Date): Date {
  return new Date(createdAt.getTime() + config.adminSessionMaxSeconds * 1000);
}

function capExpiry(data: { createdAt?: Date; expiresAt: Date }): Date {
  const deadline = sessionDeadline(data.createdAt ?? new Date());
  return data.expiresAt > deadline ? deadline : data.expiresAt;
}

/** better-auth's log messages for requests it refuses because of what the client sent. */
const CLIENT_MISTAKE =
  /^(Invalid (origin|callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL)\b|Blocked cross-site)/;

function createAuth(database: Database) {
  return betterAuth({
    appName: "NightWatch",
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: authSecret(),
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(database, {
      provider: "pg",
      schema: { user, session, account, verification, rateLimit, twoFactor },
    }),
    emailAndPassword: {
      enabled: true,
      // Admins are created with `npm run admin:create` (or on first start), never by visitors.
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // Password reset and staff invitations (issue 17, decision 0018): better-auth issues the
      // single-use token, we queue the e-mail (see "Password links" at the end of this file).
      resetPasswordTokenExpiresIn: PASSWORD_LINK_EXPIRES_IN,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user: admin, token }, request) =>
        queuePasswordLinkEmail(admin, token, request),
      onPasswordReset: ({ user: admin }, request) => afterPasswordReset(admin, request),
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN,
      updateAge: SESSION_UPDATE_AGE,
      // Changing two-factor sign-in or sessions asks for the password (or is the admin's own
      // list): no second 'signed in recently' rule on top of the absolute lifetime.
      freshAge: 0,
    },
    databaseHooks: {
      session: {
        create: {
          // Never valid past the absolute lifetime, whoever asks better-auth.
          before: async (data) => ({ data: { ...data, expiresAt: capExpiry(data) } }),
        },
      },
    },
    plugins: [
      twoFactorPlugin({
        issuer: "NightWatch",
        twoFactorCookieMaxAge: TWO_FACTOR_STEP_SECONDS,
        // Consecutive wrong codes across sign-ins (the plugin also ends one challenge after 5).
        accountLockout: {
          enabled: true,
          maxFailedAttempts: config.signInLockout.attempts,
          durationSeconds: config.signInLockout.minutes * 60,
        },
      }),
    ],
    hooks: { before: beforeAuthHook, after: afterAuthHook },
    rateLimit: {
      // On in every environment (better-auth's default is production only), counted in the database.
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      // Failed or not, sign-in attempts per client address and minute (shared by all instances).
      customRules: {
        "/sign-in/email": { window: 60, max: config.signInRateLimitPerMinute },
        // "Forgot password?": e-mails per client address and minute.
        "/request-password-reset": { window: 60, max: RESET_REQUESTS_PER_MINUTE },
        // Second-factor codes and the account page's two-factor calls: per path, client and minute.
        "/two-factor/*": { window: 60, max: config.signInRateLimitPerMinute },
      },
    },
    advanced: {
      useSecureCookies: config.publicUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // better-auth skips its Origin/CSRF checks under NODE_ENV=test; tests must see the real thing.
      disableOriginCheck: false,
    },
    telemetry: { enabled: false },
    logger: {
      log: (level, message, ...args) => {
        let pinoLevel: "debug" | "info" | "warn" | "error" =
          level === "debug" || level === "warn" || level === "error" ? level : "info";
        // better-auth reports a refused Origin or callback URL (the client's doing) as an error.
        if (pinoLevel === "error" && CLIENT_MISTAKE.test(message)) pinoLevel = "warn";
        log[pinoLevel]({ auth: args.length ? args : undefined }, `better-auth: ${message}`);
      },
    },
  });
}

type Auth = ReturnType<typeof createAuth>;
let current: { database: Database; auth: Auth } | undefined;

/** better-auth bound to the open database (tests switch databases between tests). */
export function auth(): Auth {
  const database = db();
  if (current?.database !== database) current = { database, auth: createAuth(database) };
  return current.auth;
}

/* ---------------------------------------------------------------- sessions and the guard */

interface SessionLookup {
  user: AdminUser | null;
  /** The session's id (to mark 'This device' in the admin's list of sessions). */
  sessionId: string | null;
  /** Set-Cookie headers better-auth wants sent back (a session pushed back, or a dead cookie cleared). */
  headers: Headers;
}

// One look-up per request, shared by the layout's and the page's loaders.
const lookups = new WeakMap<Request, Promise<SessionLookup>>();

function hasSessionCookie(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/.test(
    request.headers.get("cookie") ?? "",
  );
}

async function lookUpSession(request: Request): Promise<SessionLookup> {
  if (!hasSessionCookie(request)) return { user: null, sessionId: null, headers: new Headers() };
  const { headers, response } = await auth().api.getSession({
    headers: request.headers,
    returnHeaders: true,
  });
  const cookies = new Headers();
  for (const cookie of headers.getSetCookie()) cookies.append("Set-Cookie", cookie);
  if (response && sessionDeadline(new Date(response.session.createdAt)) <= new Date()) {
    // Past the absolute lifetime however busy (better-auth's sliding expiry alone would keep a
    // session in daily use alive for ever): ended here, in the database and in the browser.
    await (await auth().$context).internalAdapter.deleteSession(response.session.token);
    return { user: null, sessionId: null, headers: expiredSessionCookies() };
  }
  const found = response?.user;
  return {
    user: found
      ? {
          id: found.id,
          email: found.email,
          name: found.name,
          twoFactorEnabled: Boolean(found.twoFactorEnabled),
        }
      : null,
    sessionId: response?.session.id ?? null,
    headers: cookies,
  };
}

/** Set-Cookie headers that remove better-auth's session cookie from the browser. */
function expiredSessionCookies(): Headers {
  const secure = config.publicUrl.startsWith("https://");
  const name = `${secure ? "__Secure-" : ""}better-auth.session_token`;
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
  return headers;
}

/** The signed-in admin, or null. Also extends the session while it is in use (see sessionCookies). */
export function getAdmin(request: Request): Promise<AdminUser | null> {
  return readSession(request).then((s) => s.user);
}

/** The id of this request's session (null when signed out). */
export function currentSessionId(request: Request): Promise<string | null> {
  return readSession(request).then((s) => s.sessionId);
}

function readSession(request: Request): Promise<SessionLookup> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = lookUpSession(request);
    lookups.set(request, lookup);
  }
  return lookup;
}

/**
 * Set-Cookie headers to send with this request's response: when a session is extended its cookie
 * gets a new expiry too. The admin layout's loader returns them (`data(…, { headers })`).
 */
export async function sessionCookies(request: Request): Promise<Headers> {
  return new Headers((await readSession(request)).headers);
}

function isApiRequest(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return pathname === "/api" || pathname.startsWith("/api/");
}

function jsonError(status: 401 | 403, error: string, message: string, headers = new Headers()) {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify({ error, message }), { status, headers });
}

/** Where an admin lands after signing in when no page was asked for. */
export const ADMIN_HOME = "/admin/dashboard";

/**
 * The page an admin asked for, carried through sign-in as `/auth?redirectTo=…`. Only a path in
 * the admin area, as the browser would resolve it, is believed; anything else (another site, a
 * `//host` path, a public page) leads to the dashboard.
 */
export function adminReturnPath(request: Request): string {
  const wanted = new URL(request.url).searchParams.get("redirectTo");
  if (!wanted || !wanted.startsWith("/") || wanted.startsWith("//")) return ADMIN_HOME;
  const base = new URL(request.url).origin;
  let resolved: URL;
  try {
    resolved = new URL(wanted, base);
  } catch {
    return ADMIN_HOME;
  }
  if (resolved.origin !== base || !/^\/admin(\/|$)/.test(resolved.pathname)) return ADMIN_HOME;
  return `${resolved.pathname}${resolved.search}`;
}

/** /auth, naming the admin page asked for unless it is the dashboard itself. */
function signInPathFor(request: Request): string {
  const { pathname, search } = new URL(request.url);
  const asked = `${pathname}${search}`;
  return asked === "/admin" || asked === ADMIN_HOME
    ? "/auth"
    : `/auth?redirectTo=${encodeURIComponent(asked)}`;
}

/** Where an admin without two-factor sign-in is sent while REQUIRE_ADMIN_2FA is on. */
export const ACCOUNT_PATH = "/admin/account";

export interface RequireAdminOptions {
  /**
   * Only for /admin/account (and the admin layout around it): reachable while REQUIRE_ADMIN_2FA
   * is on and the admin has not yet turned two-factor sign-in on, so that they can.
   */
  allowWithoutTwoFactor?: boolean;
}

/**
 * The guard: the first line of every admin loader and action (and of every /api endpoint
 * except better-auth's own and the Stripe webhook).
 *
 * Returns the signed-in admin. Otherwise throws a Response, which React Router sends as is:
 * - a page (GET/HEAD outside /api): a redirect to /auth that replaces the history entry;
 * - an action (any other method) or an /api request: 401 JSON `{error, message}`.
 * A non-GET request whose Origin header names another site gets 403 before anything else.
 * With REQUIRE_ADMIN_2FA on, an admin without two-factor sign-in is sent to /admin/account
 * (a page) or answered 403 JSON `two_factor_required` (anything else).
 */
export async function requireAdmin(
  request: Request,
  options: RequireAdminOptions = {},
): Promise<AdminUser> {
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (!isRead) {
    const origin = request.headers.get("origin");
    if (origin && !config.trustedOrigins.includes(origin)) {
      throw jsonError(403, "forbidden", "This request came from another site.");
    }
  }
  const { user: admin, headers } = await readSession(request);
  if (admin) {
    if (!config.requireAdmin2fa || admin.twoFactorEnabled || options.allowWithoutTwoFactor)
      return admin;
    if (isRead && !isApiRequest(request)) throw replace(ACCOUNT_PATH, { headers });
    throw jsonError(
      403,
      "two_factor_required",
      "Turn on two-factor sign-in under My Account first.",
      headers,
    );
  }
  if (isRead && !isApiRequest(request)) throw replace(signInPathFor(request), { headers });
  throw jsonError(401, "unauthorized", "Sign in as an admin to do this.", headers);
}

/* ---------------------------------------------------------------- sign-in and sign-out */

/**
 * Passes a request to better-auth's own HTTP handler (the /api/auth/* route and the /auth form
 * both go through it, so both get its Origin checks and rate limit). `clientIp` is Express's
 * view of the caller; whatever the client put in CLIENT_IP_HEADER is dropped.
 */
export async function handleAuthRequest(
  request: Request,
  clientIp: string | undefined,
): Promise<Response> {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  headers.delete(ACCOUNT_PAGE_HEADER);
  if (clientIp) headers.set(CLIENT_IP_HEADER, clientIp);
  const init: RequestInit = { method: request.method, headers };
  if (request.method !== "GET" && request.method !== "HEAD") {
    // Read here, within the cap on /api/auth bodies (server/request-limits.server.ts): a body
    // refused or cut short never reaches better-auth, and the client has had its answer.
    try {
      init.body = await request.arrayBuffer();
    } catch {
      return new Response(null, { status: 400 });
    }
  }
  return auth().handler(new Request(request.url, init));
}

/** Headers of the browser's request that better-auth's checks look at. */
function forwardedHeaders(request: Request, clientIp: string | undefined): Headers {
  const headers = new Headers({ "Content-Type": "application/json" });
  for (const name of [
    "cookie",
    "origin",
    "referer",
    "user-agent",
    "sec-fetch-site",
    "sec-fetch-mode",
    "sec-fetch-dest",
  ]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (clientIp) headers.set(CLIENT_IP_HEADER, clientIp);
  return headers;
}

function setCookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

export type SignInResult =
  | {
      ok: true;
      /** The password was right and a code must follow: `headers` set the two-factor cookie. */
      twoFactor: boolean;
      headers: Headers;
    }
  | { ok: false; status: number; code: string; message: string };

/** An answer of better-auth's handler, read: JSON body, Set-Cookie headers, error code. */
export interface AuthCallResult<T = Record<string, unknown>> {
  ok: boolean;
  status: number;
  body: T | null;
  /** better-auth's error code (e.g. INVALID_CODE), empty on success. */
  code: string;
  message: string;
  headers: Headers;
}

/**
 * Calls one of better-auth's endpoints through its handler, as the browser's request (its
 * cookies, Origin and address): every check, hook and rate limit applies. `accountPage` marks
 * the /admin/account page's own calls (see ACCOUNT_PAGE_HEADER).
 */
export async function callAuthEndpoint<T = Record<string, unknown>>(
  request: Request,
  clientIp: string | undefined,
  path: string,
  body: unknown,
  { accountPage = false }: { accountPage?: boolean } = {},
): Promise<AuthCallResult<T>> {
  const headers = forwardedHeaders(request, clientIp);
  if (accountPage) headers.set(ACCOUNT_PAGE_HEADER, "1");
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const json = (await response.json().catch(() => null)) as
    (T & { code?: unknown; message?: unknown }) | null;
  const failed = !response.ok;
  const message =
    failed && typeof json?.message === "string" && json.message
      ? json.message
      : failed
        ? "Something went wrong. Please try again."
        : "";
  if (response.status >= 500)
    log.error({ status: response.status, path, message }, "auth call failed");
  return {
    ok: response.ok,
    status: response.status,
    body: json,
    code: failed && typeof json?.code === "string" ? json.code : "",
    message,
    headers: setCookiesOf(response),
  };
}

/**
 * Signs in through better-auth's handler as if the browser had posted to
 * /api/auth/sign-in/email. On success `headers` holds the session cookie, or, for an admin with
 * two-factor sign-in, the short-lived two-factor cookie (`twoFactor`: a code must follow, see
 * verifySecondFactor). On failure `message` is better-auth's own ('Invalid email or password',
 * 'Too many requests. Please try again later.').
 */
export async function signInWithPassword(
  request: Request,
  credentials: { email: string; password: string },
  clientIp: string | undefined,
): Promise<SignInResult> {
  const result = await callAuthEndpoint<{ twoFactorRedirect?: boolean }>(
    request,
    clientIp,
    "/sign-in/email",
    { ...credentials, rememberMe: true },
  );
  if (!result.ok) {
    const message = result.status >= 500 ? "Sign-in failed. Please try again." : result.message;
    return { ok: false, status: result.status, code: result.code, message };
  }
  return { ok: true, twoFactor: result.body?.twoFactorRedirect === true, headers: result.headers };
}

/**
 * The second sign-in step: a code from the authenticator app (`totp`) or a backup code, checked
 * by better-auth against the two-factor cookie the password step set (forwarded from the
 * browser). On success `headers` set the session cookie and clear the two-factor one.
 */
export async function verifySecondFactor(
  request: Request,
  input: { method: "totp" | "backup_code"; code: string },
  clientIp: string | undefined,
): Promise<AuthCallResult> {
  const path =
    input.method === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
  return callAuthEndpoint(request, clientIp, path, { code: input.code });
}

/**
 * Ends the session in the database and returns the Set-Cookie headers that clear the cookie.
 * Without a session there is nothing to end.
 */
export async function signOut(request: Request, clientIp: string | undefined): Promise<Headers> {
  if (!hasSessionCookie(request)) return new Headers();
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/sign-out`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: "{}",
    }),
  );
  if (!response.ok) log.warn({ status: response.status }, "sign-out refused by better-auth");
  return setCookiesOf(response);
}

/* ---------------------------------------------------------------- accounts */

/** Why an admin account could not be created, in words for the command line. */
export class AdminAccountError extends Error {
  override name = "AdminAccountError";
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e === "object" && (e as { code?: unknown }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export function checkAdminPassword(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.`;
  return null;
}

/** A random password for a new admin: 24 URL-safe characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * Creates an admin who can sign in with this e-mail (stored lower-cased) and password.
 * Throws AdminAccountError for a bad address, a too short password or an e-mail already in use.
 * `invitation`: invited from the Staff screen (the password is random, known to nobody);
 * `withinTransaction` runs in the same transaction (the invitation's audit row).
 */
export async function createAdmin(
  input: { email: string; password: string },
  options: {
    invitation?: boolean;
    withinTransaction?: (tx: Transaction, created: AdminUser) => Promise<void>;
  } = {},
): Promise<AdminUser> {
  const email = input.email.trim().toLowerCase();
  if (!z.email().safeParse(email).success)
    throw new AdminAccountError(`'${input.email}' is not an e-mail address.`);
  const problem = checkAdminPassword(input.password);
  if (problem) throw new AdminAccountError(problem);
  const exists = await db()
    .select({ id: user.id })
    .from(user)
    .where(sql`lower(${user.email}) = ${email}`)
    .limit(1);
  if (exists.length)
    throw new AdminAccountError(`An admin with the e-mail ${email} already exists.`);

  // Hashed by better-auth itself, so its sign-in verifies it (scrypt by default).
  const hash = await (await auth().$context).password.hash(input.password);
  const id = randomUUID();
  try {
    await db().transaction(async (tx) => {
      await tx.insert(user).values({
        id,
        name: email,
        email,
        emailVerified: true,
        invitationPending: options.invitation ?? false,
      });
      // What better-auth's own sign-up writes for an e-mail/password account.
      await tx.insert(account).values({
        id: randomUUID(),
        accountId: id,
        providerId: "credential",
        userId: id,
        password: hash,
      });
      await options.withinTransaction?.(tx, { id, email, name: email, twoFactorEnabled: false });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AdminAccountError(`An admin with the e-mail ${email} already exists.`);
    throw error;
  }
  return { id, email, name: email, twoFactorEnabled: false };
}

export async function countAdmins(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(user);
  return row?.n ?? 0;
}

/**
 * First start: with no admin at all, creates ADMIN_EMAIL with a random password and returns it
 * (to be printed once). Never a fixed default password. Null when an admin already exists
 * (including one created at the same moment by another instance).
 */
export async function ensureInitialAdmin(
  email: string = config.adminEmail,
): Promise<{ email: string; password: string } | null> {
  if ((await countAdmins()) > 0) return null;
  const password = generatePassword();
  try {
    const created = await createAdmin({ email, password });
    return { email: created.email, password };
  } catch (error) {
    if (error instanceof AdminAccountError && (await countAdmins()) > 0) return null;
    throw error;
  }
}

/* ---------------------------------------------------------------- password links (issue 17) */

/*
 * "Forgot password?" and staff invitations share better-auth's reset mechanism (decision 0018):
 * better-auth issues a single-use token (a row in `verification`, deleted when used) and calls
 * `queuePasswordLinkEmail`, which queues the e-mail in the outbox — the invitation wording while
 * the account's invitation is pending — with its audit row in the same transaction. When the
 * new password is stored, better-auth ends every session of the account and calls
 * `afterPasswordReset`, which clears the lockout and the pending invitation.
 */

/** How long a reset or invitation link works, in seconds: one hour (decision 0018). */
export const PASSWORD_LINK_EXPIRES_IN = 60 * 60;
/** "Forgot password?" requests per client address and minute (better-auth's own default too). */
const RESET_REQUESTS_PER_MINUTE = 3;

/** A link asked for by an admin on the Staff screen, rather than through "Forgot password?". */
interface StaffLinkRequest {
  actor: AuditActor;
  /** Written with the e-mail; none for a first invitation (its admin.invite row says it). */
  auditAction: "admin.invitation_resent" | null;
  /** Set once the e-mail is queued (better-auth logs, but does not pass on, a failure). */
  queued: boolean;
}
const staffLinkRequests = new AsyncLocalStorage<StaffLinkRequest>();

function passwordLinkUrl(token: string): string {
  // Built here, not from better-auth's callback URL: the link opens our own page.
  return `${config.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
}

/** better-auth's `sendResetPassword`: queues the reset or invitation e-mail and its audit row. */
async function queuePasswordLinkEmail(
  account: { id: string; email: string },
  token: string,
  request: Request | undefined,
): Promise<void> {
  const staffRequest = staffLinkRequests.getStore();
  const queued = await db().transaction(async (tx) => {
    const [row] = await tx
      .select({ invitationPending: user.invitationPending })
      .from(user)
      .where(eq(user.id, account.id));
    if (!row) return false;
    const invitation = row.invitationPending;
    const data = {
      email: account.email,
      url: passwordLinkUrl(token),
      lifetime: PASSWORD_LINK_LIFETIME,
      publicUrl: config.publicUrl,
    };
    const mail = invitation
      ? renderStaffInvitationEmail({ ...data, invitedBy: staffRequest?.actor.email ?? null })
      : renderPasswordResetEmail(data);
    await queueEmails(tx, [
      { kind: invitation ? "staff_invitation" : "password_reset", to: account.email, ...mail },
    ]);
    if (!staffRequest) {
      await recordAudit(tx, null, {
        action: "admin.password_reset_requested",
        subjectType: "admin",
        subjectId: account.id,
        summary: account.email,
        after: { email: account.email, invitationPending: invitation },
        ipAddress: request?.headers.get(CLIENT_IP_HEADER) ?? null,
      });
    } else if (staffRequest.auditAction) {
      await recordAudit(tx, staffRequest.actor, {
        action: staffRequest.auditAction,
        subjectType: "admin",
        subjectId: account.id,
        summary: account.email,
        after: { email: account.email },
      });
    }
    return true;
  });
  if (staffRequest) staffRequest.queued = queued;
  if (queued) nudgeOutbox();
}

/**
 * better-auth's `onPasswordReset` (the password is stored, the token used, every session of the
 * account ended): the account may sign in again at once, and an invitee is an admin like any other.
 */
async function afterPasswordReset(
  account: { id: string; email: string },
  request: Request | undefined,
): Promise<void> {
  await db().transaction(async (tx) => {
    const [before] = await tx
      .select({
        failedSignIns: user.failedSignIns,
        lockedUntil: user.lockedUntil,
        invitationPending: user.invitationPending,
      })
      .from(user)
      .where(eq(user.id, account.id))
      .for("update");
    if (!before) return;
    await tx
      .update(user)
      .set({ failedSignIns: 0, lockedUntil: null, invitationPending: false, updatedAt: new Date() })
      .where(eq(user.id, account.id));
    // The actor is the account: whoever holds its e-mailed link acts as its owner.
    await recordAudit(
      tx,
      { id: account.id, email: account.email },
      {
        action: "admin.password_reset",
        subjectType: "admin",
        subjectId: account.id,
        summary: before.invitationPending
          ? `${account.email} set their password (invitation)`
          : `${account.email} reset their password by e-mail link`,
        before: {
          failedSignIns: before.failedSignIns,
          lockedUntil: before.lockedUntil?.toISOString() ?? null,
          invitationPending: before.invitationPending,
        },
        after: { failedSignIns: 0, lockedUntil: null, invitationPending: false },
        ipAddress: request?.headers.get(CLIENT_IP_HEADER) ?? null,
      },
    );
  });
}

async function authMessage(response: Response): Promise<{ code?: string; message?: string }> {
  const body = (await response.json().catch(() => null)) as {
    code?: unknown;
    message?: unknown;
  } | null;
  return {
    code: typeof body?.code === "string" ? body.code : undefined,
    message: typeof body?.message === "string" && body.message ? body.message : undefined,
  };
}

export type PasswordResetRequestResult =
  { ok: true } | { ok: false; status: number; message: string };

/**
 * "Forgot password?": through better-auth's handler as if the browser had posted to
 * /api/auth/request-password-reset, so its origin check and per-address rate limit apply. The
 * answer is the same whether or not the address is an admin's; only a refusal that has nothing
 * to do with the address (too many requests, another site's form) is not ok.
 */
export async function requestPasswordResetByForm(
  request: Request,
  email: string,
  clientIp: string | undefined,
): Promise<PasswordResetRequestResult> {
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/request-password-reset`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: JSON.stringify({ email }),
    }),
  );
  if (response.ok) return { ok: true };
  const { message } = await authMessage(response);
  if (response.status === 429 || response.status === 403 || response.status >= 500) {
    if (response.status >= 500)
      log.error({ status: response.status, message }, "password reset request failed");
    return {
      ok: false,
      status: response.status,
      message: message ?? "The request could not be sent. Please try again.",
    };
  }
  // An address better-auth's own check refuses is no admin's: the same answer as for any other.
  log.warn({ status: response.status, message }, "password reset request refused by better-auth");
  return { ok: true };
}

export type PasswordResetResult =
  | { ok: true }
  | { ok: false; reason: "invalid_link" | "refused" | "rate_limited"; message: string };

/** Sets a new password with an e-mailed link's token, through better-auth's handler. */
export async function resetPasswordByForm(
  request: Request,
  input: { token: string; password: string },
  clientIp: string | undefined,
): Promise<PasswordResetResult> {
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/reset-password`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: JSON.stringify({ token: input.token, newPassword: input.password }),
    }),
  );
  if (response.ok) return { ok: true };
  const { code, message } = await authMessage(response);
  if (code === "INVALID_TOKEN" || code === "USER_NOT_FOUND") {
    return { ok: false, reason: "invalid_link", message: message ?? "Invalid token" };
  }
  if (response.status === 429) {
    return { ok: false, reason: "rate_limited", message: message ?? "Too many requests." };
  }
  if (response.status >= 500)
    log.error({ status: response.status, message }, "password reset failed");
  return {
    ok: false,
    reason: "refused",
    message: message ?? "The password could not be changed. Please try again.",
  };
}

/**
 * Whether a link's token still works (not used, not expired), and whether it is an invitation:
 * the reset page says so before anyone types a password. Read through better-auth's own adapter.
 */
export async function passwordLinkState(
  token: string,
): Promise<{ valid: false } | { valid: true; invitation: boolean }> {
  if (!token || token.length > 200) return { valid: false };
  const { internalAdapter } = await auth().$context;
  const found = await internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!found || found.expiresAt < new Date()) return { valid: false };
  const [row] = await db()
    .select({ invitationPending: user.invitationPending })
    .from(user)
    .where(eq(user.id, found.value));
  return row ? { valid: true, invitation: row.invitationPending } : { valid: false };
}

/**
 * A new link for an admin, asked for on the Staff screen (an invitation, or its resending):
 * through better-auth's server API, so the public form's per-address rate limit does not apply.
 * True when the e-mail was queued.
 */
export async function sendPasswordLink(
  email: string,
  actor: AuditActor,
  auditAction: StaffLinkRequest["auditAction"],
): Promise<boolean> {
  const staffRequest: StaffLinkRequest = { actor, auditAction, queued: false };
  await staffLinkRequests.run(staffRequest, () =>
    auth().api.requestPasswordReset({ body: { email } }),
  );
  return staffRequest.queued;
}
