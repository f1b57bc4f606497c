import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { optionalString } from "./config/fields.server.ts";
import { mediaSettings, mediaStorageConfig } from "./config/media.server.ts";
import { sellerConfig, sellerSettings } from "./config/seller.server.ts";

export type { MediaStorageConfig } from "./config/media.server.ts";
export type { SellerConfig } from "./config/seller.server.ts";

/**
 * The one place that reads process.env. Everything else imports `config`.
 * Validated once, at first import; a bad value stops start-up with a message
 * that names the variable.
 */

const emailList = z
  .string()
  .trim()
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ message: "must be a comma-separated list of e-mail addresses" })));

const SMTP_URL_MESSAGE =
  "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587";

const schema = z.object({
  ...sellerSettings,
  ...mediaSettings,
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  HOST: z.string().trim().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url({ message: "must be an absolute URL" }).optional()),
  ADMIN_EMAIL: z.email({ message: "must be an e-mail address" }).default("admin@example.com"),
  ADMIN_EMAILS: emailList.optional(),
  // Signs the admin session cookies. Default: a random secret generated once and kept in
  // DATA_DIR/auth-secret. Set it (the same value everywhere) when several instances serve the site.
  // Admin sign-in attempts (right or wrong) allowed per client address each minute.
  SIGN_IN_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(1)
    .max(10_000)
    .default(5),
  // Admins must turn on two-factor sign-in before any other admin page (default: on in production).
  REQUIRE_ADMIN_2FA: z.enum(["true", "false"]).optional(),
  // An admin session ends after this many hours without use, and in any case this many days after
  // sign-in.
  ADMIN_IDLE_TIMEOUT_HOURS: z.coerce
    .number({ message: "must be a number of hours" })
    .min(0.05)
    .max(24 * 30)
    .default(12),
  ADMIN_SESSION_MAX_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .min(0.1)
    .max(90)
    .default(7),
  // Per account: this many wrong passwords in a row lock it for this many minutes (and e-mail it).
  SIGN_IN_LOCKOUT_ATTEMPTS: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(1)
    .max(1000)
    .default(10),
  SIGN_IN_LOCKOUT_MINUTES: z.coerce
    .number({ message: "must be a whole number of minutes" })
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  // Inquiries older than this many months have the person's details replaced (0 keeps them).
  INQUIRY_RETENTION_MONTHS: z.coerce
    .number({ message: "must be a whole number of months" })
    .int()
    .min(0)
    .max(1200)
    .default(24),
  // E-mail staff (ADMIN_EMAILS) once when an enquiry's reply becomes overdue (decision 0047).
  INQUIRY_OVERDUE_ALERTS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  // A waiting list's offer holds its places for this many hours (decision 0034).
  WAITING_LIST_OFFER_HOURS: z.coerce
    .number({ message: "must be a whole number of hours" })
    .int()
    .min(1)
    .max(24 * 14)
    .default(24),
  // The booker's page (decision 0037) takes changes to names until the end of the working day this
  // many working days before a date starts (0: until it starts).
  BOOKING_CHANGES_CUTOFF_WORKING_DAYS: z.coerce
    .number({ message: "must be a whole number of working days" })
    .int()
    .min(0)
    .max(30)
    .default(2),
  BETTER_AUTH_SECRET: optionalString.pipe(
    z
      .string()
      .min(32, { message: "must be at least 32 characters (e.g. openssl rand -base64 32)" })
      .optional(),
  ),
  // E-mail: without SMTP_URL, outgoing messages are written as .eml files under DATA_DIR/outbox.
  SMTP_URL: optionalString.pipe(
    z
      .url({ message: SMTP_URL_MESSAGE })
      .regex(/^smtps?:\/\//, SMTP_URL_MESSAGE)
      .optional(),
  ),
  MAIL_FROM: z
    .string()
    .trim()
    .default("NightWatch <no-reply@localhost>")
    .pipe(
      z
        .string()
        .regex(
          /^(?:[^<>\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
          'must be an address, optionally with a name: "NightWatch <no-reply@example.co.uk>"',
        ),
    ),
  MAIL_REPLY_TO: optionalString.pipe(z.email({ message: "must be an e-mail address" }).optional()),
  // Public forms: posts allowed per client and form each minute.
  FORM_RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(1)
    .max(100_000)
    .default(5),
  // Confirmation e-mails (enquiry, invoice request) one address may receive per rolling hour,
  // whoever sends the posts; beyond it the post is stored, held and staff are told.
  RECIPIENT_CONFIRMATIONS_PER_HOUR: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(1)
    .max(100_000)
    .default(3),
  // Card payments (Stripe Checkout). Without a secret key, 'Pay with Card' is disabled and
  // only invoices can be requested.
  STRIPE_SECRET_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
      .optional(),
  ),
  STRIPE_WEBHOOK_SECRET: optionalString.pipe(
    z
      .string()
      .regex(/^whsec_\S+$/, "must be a webhook signing secret (whsec_…)")
      .optional(),
  ),
  // Tests only: send the Stripe SDK's API calls to a fake Stripe on this base URL.
  STRIPE_API_BASE: optionalString.pipe(
    z
      .url({ message: "must be an absolute http(s) URL, e.g. http://127.0.0.1:12111" })
      .regex(/^https?:\/\//, "must be an absolute http(s) URL, e.g. http://127.0.0.1:12111")
      .optional(),
  ),
  // Public pages rendered for visitors without cookies are kept in memory this long and served
  // to everyone asking in that time (0 turns it off). Admin changes on this instance clear it at
  // once; other instances show them after at most this long.
  PAGE_CACHE_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(10_000)
    .default(2000),
  // Failed sign-ins nobody was signed in for (unknown or mistyped addresses, with the client's
  // address) are kept this many days in the audit log (0: kept for ever); better-auth's
  // per-address counters are cleared after a day whatever this says.
  SIGN_IN_LOG_RETENTION_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int()
    .min(0)
    .max(3650)
    .default(90),
  // Bodies of e-mails sent longer ago than this are emptied (who, what subject, when and whether
  // it went are kept): the outbox is not an archive of personal data (0: kept for ever).
  EMAIL_BODY_RETENTION_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int()
    .min(0)
    .max(3650)
    .default(180),
  // Course dates (decision 0033): booked students are reminded this many days before a date
  // starts, one reminder per number (comma-separated, e.g. 7,1); 0 sends no reminders.
  DATE_REMINDER_DAYS: optionalString
    .transform((v) => (v ?? "7,1").split(",").map((s) => s.trim()))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^\d{1,2}$/, "must be whole numbers of days separated by commas, e.g. 7,1")
          .transform(Number),
      ),
    )
    .transform((days) => [...new Set(days.filter((d) => d > 0))].sort((a, b) => b - a)),
  // File Interrogator licences (decision 0050): the customer and staff are reminded this many
  // days before a licence ends, once per number (comma-separated); 0 sends none.
  LICENCE_REMINDER_DAYS: optionalString
    .transform((v) => (v ?? "60,30,7").split(",").map((s) => s.trim()))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^\d{1,3}$/, "must be whole numbers of days separated by commas, e.g. 60,30,7")
          .transform(Number),
      ),
    )
    .transform((days) => [...new Set(days.filter((d) => d > 0))].sort((a, b) => b - a)),
  // /metrics (Prometheus): served only to a bearer of this token; unset, there is no such page.
  METRICS_TOKEN: z.string().trim().min(16, "must be at least 16 characters").optional(),
  // On SIGTERM: how long /readyz fails while requests are still served (for a load balancer to
  // notice), then how long requests in flight may take to finish before they are cut.
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(120_000)
    .default(3_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(600_000)
    .default(10_000),
  // PostgreSQL (DATABASE_URL): connections per instance, and the longest a statement may run
  // before the server cancels it (a runaway query must not hold a connection for ever).
  DB_POOL_SIZE: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(1)
    .max(200)
    .default(10),
  DB_STATEMENT_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(3_600_000)
    .default(30_000),
  // Below this much free space where DATA_DIR lives, posts are refused (503) and the e-mail worker
  // and jobs wait, so the embedded database never meets a full disk (0: never refuse).
  MIN_FREE_DISK_MB: z.coerce
    .number({ message: "must be a number of megabytes" })
    .int()
    .min(0)
    .default(64),
  // Open connections one client address may hold at once (0: no cap). A proxy in front
  // (TRUST_PROXY) connects for everyone, so the cap is then left to it.
  CONNECTIONS_PER_CLIENT: z.coerce
    .number({ message: "must be a whole number" })
    .int()
    .min(0)
    .max(100_000)
    .default(128),
  // Where `npm run build` wrote the site (react-router.config.ts and server.ts read the same).
  BUILD_DIR: z.string().trim().min(1).default("build"),
  SEED_DEMO_CONTENT: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // Behind a load balancer: how many proxy hops (or which addresses) to trust for the client IP.
  TRUST_PROXY: z
    .string()
    .trim()
    .default("false")
    .transform((v): boolean | number | string => {
      if (v === "" || v === "false") return false;
      if (v === "true") return true;
      return /^\d+$/.test(v) ? Number(v) : v;
    }),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example.`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const trustProxy = e.TRUST_PROXY;
  if (publicUrl.startsWith("https://") && trustProxy === false) {
    // The server speaks plain http, so an https address means a proxy terminates TLS in front.
    // Without trusting it, every request looks like http from the proxy's address: the
    // browser's https Origin is refused on every form post and sign-in, and all visitors share
    // one rate-limit bucket.
    throw new Error(
      "Invalid configuration:\n" +
        `  TRUST_PROXY: PUBLIC_URL is ${publicUrl}, so a proxy terminates TLS in front of this ` +
        "server; set TRUST_PROXY to its hops (e.g. 1) or addresses (e.g. loopback, 10.0.0.0/8) " +
        "so that the visitor's https address and IP address are believed from its " +
        "X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For headers.\nSee .env.example.",
    );
  }
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === "production",
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    trustedOrigins: trustedOrigins(publicUrl),
    adminEmail: e.ADMIN_EMAIL,
    adminEmails: e.ADMIN_EMAILS?.length ? e.ADMIN_EMAILS : [e.ADMIN_EMAIL],
    authSecret: e.BETTER_AUTH_SECRET,
    signInRateLimitPerMinute: e.SIGN_IN_RATE_LIMIT_PER_MINUTE,
    requireAdmin2fa:
      (e.REQUIRE_ADMIN_2FA ?? (e.NODE_ENV === "production" ? "true" : "false")) === "true",
    adminIdleTimeoutSeconds: Math.round(e.ADMIN_IDLE_TIMEOUT_HOURS * 3600),
    adminSessionMaxSeconds: Math.round(e.ADMIN_SESSION_MAX_DAYS * 86400),
    signInLockout: { attempts: e.SIGN_IN_LOCKOUT_ATTEMPTS, minutes: e.SIGN_IN_LOCKOUT_MINUTES },
    inquiryRetentionMonths: e.INQUIRY_RETENTION_MONTHS,
    inquiryOverdueAlerts: e.INQUIRY_OVERDUE_ALERTS,
    waitingListOfferHours: e.WAITING_LIST_OFFER_HOURS,
    bookingChangesCutoffWorkingDays: e.BOOKING_CHANGES_CUTOFF_WORKING_DAYS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mailReplyTo: e.MAIL_REPLY_TO ?? (e.ADMIN_EMAILS?.length ? e.ADMIN_EMAILS[0]! : e.ADMIN_EMAIL),
    formRateLimitPerMinute: e.FORM_RATE_LIMIT_PER_MINUTE,
    recipientConfirmationsPerHour: e.RECIPIENT_CONFIRMATIONS_PER_HOUR,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE ? stripeApiBase(e.STRIPE_API_BASE) : undefined,
    },
    seller: sellerConfig(e),
    media: mediaStorageConfig(e),
    pageCacheMs: e.PAGE_CACHE_MS,
    connectionsPerClient: trustProxy === false ? e.CONNECTIONS_PER_CLIENT : 0,
    database: { poolSize: e.DB_POOL_SIZE, statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS },
    shutdown: { graceMs: e.SHUTDOWN_GRACE_MS, timeoutMs: e.SHUTDOWN_TIMEOUT_MS },
    minFreeDiskBytes: e.MIN_FREE_DISK_MB * 1024 * 1024,
    metricsToken: e.METRICS_TOKEN,
    signInLogRetentionDays: e.SIGN_IN_LOG_RETENTION_DAYS,
    emailBodyRetentionDays: e.EMAIL_BODY_RETENTION_DAYS,
    dateReminderDays: e.DATE_REMINDER_DAYS,
    licenceReminderDays: e.LICENCE_REMINDER_DAYS,
    invoiceReminderDays: e.INVOICE_REMINDER_DAYS,
    buildDir: path.resolve(e.BUILD_DIR),
    seedDemoContent: e.SEED_DEMO_CONTENT,
    logLevel: e.LOG_LEVEL,
    trustProxy,
  };
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The origins whose pages may post to the site (admin sign-in, admin actions): PUBLIC_URL's, and
 * when that is a loopback address, its other loopback names on the same port, so a site started
 * on the defaults works whether it is opened as localhost or 127.0.0.1.
 */
function trustedOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  return LOOPBACK_HOSTS.map((host) => {
    const alias = new URL(url.origin);
    alias.hostname = host;
    return alias.origin;
  });
}

/** STRIPE_API_BASE as the host/port/protocol options of the Stripe SDK (tests point it at a fake).
 */
function stripeApiBase(value: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(value);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443,
    protocol,
  };
}

// A .env file beside package.json is honoured, without overriding the real environment.
if (existsSync(".env") && typeof process.loadEnvFile === "function") process.loadEnvFile(".env");

export const config = loadConfig();

/**
 * The environment's values of `keys` as typed ('' when unset), before any check: the seller
 * settings staff may change start from these (server/seller-settings.server.ts).
 */
export function environmentValues<Key extends string>(keys: readonly Key[]): Record<Key, string> {
  return Object.fromEntries(keys.map((key) => [key, process.env[key]?.trim() ?? ""])) as Record<
    Key,
    string
  >;
}
