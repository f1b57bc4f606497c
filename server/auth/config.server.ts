import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor as twoFactorPlugin } from "better-auth/plugins";
import { config } from "../config.server.ts";
import { db, type Database } from "../db/client.server.ts";
import { account, rateLimit, session, twoFactor, user, verification } from "../db/schema.ts";
import { log } from "../log.server.ts";
import { afterAuthHook, beforeAuthHook, CLIENT_IP_HEADER } from "./lockout.server.ts";
import {
  afterPasswordReset,
  PASSWORD_LINK_EXPIRES_IN,
  queuePasswordLinkEmail,
  RESET_REQUESTS_PER_MINUTE,
} from "./password-link-emails.server.ts";
import { authSecret } from "./secret.server.ts";

/**
 * The better-auth instance behind admin sign-in (decision 0004): e-mail and password, no public
 * sign-up, sessions as database rows behind an httpOnly cookie, the two-factor plugin, reset
 * tokens, and its rate limits — bound to the open database. Nothing else in the app decides who
 * is signed in: server/auth/guard.server.ts reads sessions through it.
 */

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
      // Password reset and staff invitations (decision 0018): better-auth issues the
      // single-use token, we queue the e-mail (password-link-emails.server.ts).
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
      // Whether this session passed a second factor (decision 0029): set by our own hook after a
      // code is accepted, never by what a client sends.
      additionalFields: {
        twoFactorVerified: { type: "boolean", required: false, defaultValue: false, input: false },
      },
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
