import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/client.server.ts";
import { emailOutbox } from "../db/schema.ts";

/**
 * The outbox table: a message is queued inside the caller's transaction (so it exists if and
 * only if the business change committed), then claimed, sent and marked by the worker.
 */

export type OutboxRow = typeof emailOutbox.$inferSelect;

export interface OutgoingEmail {
  kind: string;
  to: string | string[];
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  inquiryId?: string | null;
  orderId?: string | null;
  /** An invoice, receipt or credit note to attach as a PDF (drawn when the message is sent). */
  documentId?: string | null;
  /** A certificate of attendance to attach as its issued PDF (decision 0036). */
  certificateId?: string | null;
  /** A sent quote to attach as its PDF, drawn from its snapshot (decision 0049). */
  quoteId?: string | null;
  /** Extra message headers (e.g. List-Unsubscribe on newsletter mail); names and values one line. */
  headers?: Record<string, string> | null;
  /** An iCalendar invitation or cancellation (RFC 5545 text), sent as invite.ics (decision 0033). */
  calendar?: string | null;
}

/** Queues messages in `tx` (a transaction or the database). */
export async function queueEmails(
  tx: Transaction | Database,
  messages: OutgoingEmail[],
): Promise<OutboxRow[]> {
  if (messages.length === 0) return [];
  // Due now by this process's clock, the one claims compare with: the column's default (the
  // database's now(), in microseconds) could fall a fraction of a millisecond after a claim's
  // millisecond time and leave a message waiting for the next poll.
  const now = new Date();
  return tx
    .insert(emailOutbox)
    .values(
      messages.map((m) => ({
        kind: m.kind,
        toAddress: Array.isArray(m.to) ? m.to.join(", ") : m.to,
        replyTo: m.replyTo ?? null,
        subject: m.subject,
        html: m.html,
        text: m.text,
        inquiryId: m.inquiryId ?? null,
        orderId: m.orderId ?? null,
        documentId: m.documentId ?? null,
        certificateId: m.certificateId ?? null,
        quoteId: m.quoteId ?? null,
        headers: m.headers ?? null,
        calendar: m.calendar ?? null,
        nextAttemptAt: now,
      })),
    )
    .returning();
}

/**
 * Queues those of `messages` not in the outbox yet for the same inquiry or order, whatever
 * became of them since: releasing held suspected spam sends what the normal path would have,
 * and never again what went at the time (decision 0012).
 */
export async function queueEmailsNotYetQueued(
  tx: Transaction,
  about: { inquiryId: string } | { orderId: string },
  messages: OutgoingEmail[],
): Promise<OutboxRow[]> {
  const queued = await tx
    .select({ kind: emailOutbox.kind })
    .from(emailOutbox)
    .where(
      "inquiryId" in about
        ? eq(emailOutbox.inquiryId, about.inquiryId)
        : eq(emailOutbox.orderId, about.orderId),
    );
  const already = new Set(queued.map((q) => q.kind));
  return queueEmails(
    tx,
    messages.filter((m) => !already.has(m.kind)),
  );
}

/**
 * Claims up to `limit` messages that are due (or whose previous claim lapsed), in one statement:
 * `FOR UPDATE SKIP LOCKED` lets several instances claim at once without taking the same row,
 * and the lease (`locked_until`) lets another instance take a row over if its claimer died.
 */
export async function claimDueEmails(
  database: Database,
  options: { limit: number; leaseMs: number; now?: Date },
): Promise<OutboxRow[]> {
  const now = options.now ?? new Date();
  const due = database
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(
      or(
        and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)),
        and(eq(emailOutbox.status, "sending"), lt(emailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(emailOutbox.nextAttemptAt))
    .limit(options.limit)
    .for("update", { skipLocked: true });
  return database
    .update(emailOutbox)
    .set({
      status: "sending",
      attempts: sql`${emailOutbox.attempts} + 1`,
      lockedUntil: new Date(now.getTime() + options.leaseMs),
    })
    .where(inArray(emailOutbox.id, due))
    .returning();
}

/**
 * Renews the lease of one claimed message just before it is sent, if the claim is still this
 * worker's (same attempt, still sending): a batch sent one by one through a slow relay could
 * otherwise outlast its lease, and another worker would send the rest again. False: the message
 * was taken over (its lease had lapsed) — leave it to whoever holds it now.
 */
export async function renewClaim(
  database: Database,
  row: Pick<OutboxRow, "id" | "attempts">,
  leaseMs: number,
): Promise<boolean> {
  const renewed = await database
    .update(emailOutbox)
    .set({ lockedUntil: new Date(Date.now() + leaseMs) })
    .where(
      and(
        eq(emailOutbox.id, row.id),
        eq(emailOutbox.status, "sending"),
        eq(emailOutbox.attempts, row.attempts),
      ),
    )
    .returning({ id: emailOutbox.id });
  return renewed.length > 0;
}

export async function markSent(database: Database, id: string, at = new Date()): Promise<void> {
  await database
    .update(emailOutbox)
    .set({ status: "sent", sentAt: at, lockedUntil: null, lastError: null })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "sending")));
}

/** After a failed attempt: try again at `retryAt`, or give up (`failed`) when it is null. */
export async function markAttemptFailed(
  database: Database,
  id: string,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await database
    .update(emailOutbox)
    .set(
      retryAt
        ? { status: "pending", nextAttemptAt: retryAt, lockedUntil: null, lastError: error }
        : { status: "failed", lockedUntil: null, lastError: error },
    )
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, "sending")));
}

/** Gives claimed, unsent messages back (e.g. at shutdown): due again at once. */
export async function releaseClaims(database: Database, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await database
    .update(emailOutbox)
    .set({ status: "pending", lockedUntil: null, nextAttemptAt: new Date() })
    .where(and(inArray(emailOutbox.id, ids), eq(emailOutbox.status, "sending")));
}
