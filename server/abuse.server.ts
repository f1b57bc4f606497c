import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { lt, sql } from "drizzle-orm";
import { HONEYPOT_FIELD, TOKEN_FIELD } from "#app/lib/inquiry-schemas.ts";
import { config } from "./config.server.ts";
import { db } from "./db/client.server.ts";
import { rateLimitHits } from "./db/schema.ts";
import { log } from "./log.server.ts";

/**
 * Spam and abuse guards for public form posts: a honeypot field, a minimum time between the
 * page being served and the post (a signed time-stamp), and per-client rate limits counted in
 * PostgreSQL so that every server instance shares them.
 */

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as Express sees it (honours Express's `trust proxy`). */
    clientIp?: string;
  }
}

let signingKey: Buffer | undefined;

/** The key that signs form time-stamps: FORM_SECRET, else stable per database (see .env.example). */
function formSigningKey(): Buffer {
  if (signingKey) return signingKey;
  if (config.formSecret) {
    signingKey = Buffer.from(config.formSecret);
  } else if (config.databaseUrl) {
    // Every instance on the same database derives the same key, and it survives restarts.
    signingKey = createHash("sha256").update(`nightwatch-form:${config.databaseUrl}`).digest();
  } else {
    const file = path.join(config.dataDir, "form-secret");
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      try {
        writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
      } catch (error) {
        // Another process wrote it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    signingKey = Buffer.from(readFileSync(file, "utf8").trim());
  }
  return signingKey;
}

function sign(issuedAt: number): string {
  return createHmac("sha256", formSigningKey())
    .update(`form-started:${issuedAt}`)
    .digest("base64url")
    .slice(0, 32);
}

/** A time-stamp for the form's hidden field: `<ms since epoch>.<signature>`. */
export function issueFormToken(issuedAt: number = Date.now()): string {
  return `${issuedAt}.${sign(issuedAt)}`;
}

export type TokenCheck = "ok" | "too_fast" | "invalid";

export function checkFormToken(
  token: unknown,
  now: number = Date.now(),
  minimumMs: number = config.formMinSubmitMs,
): TokenCheck {
  if (typeof token !== "string" || token.length > 100) return "invalid";
  const match = /^(\d{13})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return "invalid";
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(sign(issuedAt));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
  // A time-stamp from the future (beyond clock skew between instances) is forged or broken.
  if (issuedAt > now + 60_000) return "invalid";
  return now - issuedAt < minimumMs ? "too_fast" : "ok";
}

export type SpamVerdict = "human" | "bot" | "expired";

/**
 * Honeypot filled or posted faster than a person could → bot (the caller answers with a
 * normal-looking success and keeps nothing). A missing or unverifiable time-stamp (e.g. a page
 * served before FORM_SECRET changed) → expired: the visitor is asked to send again.
 */
export function judgeSubmission(formData: FormData, now: number = Date.now()): SpamVerdict {
  const honeypot = formData.get(HONEYPOT_FIELD);
  if (honeypot !== null && honeypot !== "") return "bot";
  const token = checkFormToken(formData.get(TOKEN_FIELD), now);
  if (token === "too_fast") return "bot";
  return token === "invalid" ? "expired" : "human";
}

const WINDOW_MS = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends (for Retry-After). */
  retryAfter: number;
}

let lastSweep = 0;

/**
 * Counts one post of `scope` (e.g. a form name) from `client` in the current one-minute window
 * and says whether it is within `limit`. One upsert: instances racing on the same key each get
 * their own count.
 */
export async function hitRateLimit(
  scope: string,
  client: string,
  limit: number = config.formRateLimitPerMinute,
  now: number = Date.now(),
): Promise<RateLimitResult> {
  const windowStart = new Date(now - (now % WINDOW_MS));
  // Hashed so that no IP address is kept in the database.
  const key = createHash("sha256").update(`${scope}\n${client}`).digest("base64url");
  const [row] = await db()
    .insert(rateLimitHits)
    .values({ key, windowStart, hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.key, rateLimitHits.windowStart],
      set: { hits: sql`${rateLimitHits.hits} + 1` },
    })
    .returning({ hits: rateLimitHits.hits });
  if (now - lastSweep > 10 * WINDOW_MS) {
    lastSweep = now;
    // Old windows are of no further use; any instance may clear them.
    db()
      .delete(rateLimitHits)
      .where(lt(rateLimitHits.windowStart, new Date(now - 10 * WINDOW_MS)))
      .catch((error: unknown) =>
        log.warn({ err: error }, "could not clear old rate-limit windows"),
      );
  }
  const retryAfter = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now) / 1000));
  return { allowed: (row?.hits ?? 1) <= limit, retryAfter };
}

export const RATE_LIMIT_MESSAGE =
  "Too many submissions from your connection. Please wait a minute and try again.";

/** The client address for rate limits: from the request context, else a shared bucket. */
export function clientAddress(context: { clientIp?: string } | undefined | null): string {
  return context?.clientIp || "unknown";
}
