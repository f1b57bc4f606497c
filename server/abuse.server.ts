import { createHash } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { HONEYPOT_FIELD } from "#app/lib/inquiry-schemas.ts";
import { config } from "./config.server.ts";
import { db } from "./db/client.server.ts";
import { rateLimitHits } from "./db/schema.ts";
import { log } from "./log.server.ts";

/**
 * Spam and abuse guards for public form posts: a honeypot field, and per-client rate limits
 * counted in PostgreSQL so that every server instance shares them. Nothing here needs anything
 * per visitor in the page's HTML, which is shared by every anonymous visitor (and any cache).
 */

declare module "react-router" {
  interface AppLoadContext {
    /** The client's address as Express sees it (honours Express's `trust proxy`). */
    clientIp?: string;
  }
}

export type SpamVerdict = "human" | "bot";

/** Honeypot filled → bot (the caller answers with a normal-looking success and keeps nothing). */
export function judgeSubmission(formData: FormData): SpamVerdict {
  const honeypot = formData.get(HONEYPOT_FIELD);
  return honeypot !== null && honeypot !== "" ? "bot" : "human";
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
