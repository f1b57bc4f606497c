import { createHash } from "node:crypto";
import { and, count, gt, inArray, lt, sql, type AnyColumn } from "drizzle-orm";
import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { config } from "./config.server.ts";
import { db, type Database, type Transaction } from "./db/client.server.ts";
import { emailOutbox, rateLimitHits } from "./db/schema.ts";
import { log } from "./log.server.ts";

/**
 * Spam and abuse guards for public form posts: a honeypot field, per-client rate limits and a
 * per-recipient limit on confirmation e-mails, all counted in PostgreSQL so that every server
 * instance shares them. Nothing here needs anything per visitor in the page's HTML, which is
 * shared by every anonymous visitor (and any cache). A post the guards suspect is stored and
 * marked, never dropped (decision 0012).
 */

export type SpamVerdict = "human" | "bot";

/**
 * Honeypot filled → bot. The caller still stores the post (marked 'honeypot', no e-mails) and
 * answers as usual: the post is kept, so the answer is true.
 */
export function judgeSubmission(formData: FormData): SpamVerdict {
  const honeypot = formData.get(HONEYPOT_FIELD);
  return honeypot !== null && honeypot !== "" ? "bot" : "human";
}

/** The mark a post gets from the honeypot alone: 'honeypot' or none. */
export function honeypotMark(formData: FormData): SpamReason | null {
  return judgeSubmission(formData) === "bot" ? "honeypot" : null;
}

/**
 * E-mails to the visitor's own address that anyone could ask for by typing it into a form: the
 * ones the per-recipient limit counts and holds. (Receipts and joining details follow a
 * payment, so they are neither counted nor held.)
 */
export const LIMITED_CONFIRMATION_KINDS = [
  "visitor_confirmation",
  "invoice_request_confirmation",
  // 'Find my booking' (server/orders/booking-links.server.ts: BOOKING_LINKS_KIND).
  "booking_links",
] as const;

const RECIPIENT_WINDOW = "1 hour";

/**
 * The mailbox an address delivers to, for counting: lower-cased, without a `+tag` (most mail
 * services deliver `name+anything@` to `name@`). The SQL below is the same rule, and the outbox's
 * recipient index is built on it (server/db/schema.ts).
 */
export function mailboxOf(address: string): string {
  return address
    .trim()
    .toLowerCase()
    .replace(/\+[^@]*@/, "@");
}
const mailboxSql = (column: AnyColumn) => sql`regexp_replace(lower(${column}), '\\+[^@]*@', '@')`;

/**
 * Whether one more confirmation may be queued to `address` in this transaction: fewer than
 * `limit` e-mails of `kinds` (by default the visitor confirmations) were queued to its mailbox
 * (any casing, any `+tag`) in the last hour, whoever posted them.
 * Counted from the outbox itself; a transaction-scoped advisory lock per address makes
 * concurrent posts (on any instance) count one another, so the limit cannot be raced.
 */
export async function confirmationAllowed(
  tx: Transaction | Database,
  address: string,
  limit: number = config.recipientConfirmationsPerHour,
  kinds: readonly string[] = LIMITED_CONFIRMATION_KINDS,
): Promise<boolean> {
  const recipient = mailboxOf(address);
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`confirmation:${kinds.join(",")}:${recipient}`}, 0))`,
  );
  const [row] = await tx
    .select({ n: count() })
    .from(emailOutbox)
    .where(
      and(
        sql`${mailboxSql(emailOutbox.toAddress)} = ${recipient}`,
        inArray(emailOutbox.kind, [...kinds]),
        gt(emailOutbox.createdAt, sql`now() - ${RECIPIENT_WINDOW}::interval`),
      ),
    );
  return (row?.n ?? 0) < limit;
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
