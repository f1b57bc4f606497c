/**
 * The retention rule (decision 0020): inquiries older than the retention period are anonymised,
 * and so are the contacts of quotes and licences that ended that long ago (decision 0051),
 * hourly while the site runs and by `npm run privacy:retention`.
 */
import * as orm from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, maintainDatabase } from "../db/client.server.ts";
import {
  auditLog,
  emailOutbox,
  inquiries,
  inquiryNotes,
  inquiryReplies,
  licences,
  quotes,
  rateLimit,
} from "../db/schema.ts";
import { diskLow } from "../disk-space.server.ts";
import { log } from "../log.server.ts";
import { removeOldSubmissions } from "../forms/submit-once.server.ts";
import { releaseLapsedHolds } from "../payments/lapsed-holds.server.ts";
import {
  deleteEndedEntries,
  waitingListHousekeeping,
} from "../catalogue/waiting-list-offers.server.ts";
import { sendDueReminders } from "../catalogue/date-reminders.server.ts";
import { sendInvoiceReminders } from "../invoices/debtors.server.ts";
import { alertOverdueReplies } from "../inquiries/reply-due.server.ts";
import { expireQuotes } from "../quotes/acceptance.server.ts";
import { sendLicenceReminders } from "../licences/licences.server.ts";
import { jobSucceeded } from "../metrics.server.ts";
import { anonymiseLicenceContacts, anonymiseQuoteContacts } from "./contacts.server.ts";
import { ANONYMISED } from "./matching.server.ts";
import { removeStoredEmails, outboxDirectory } from "./erase.server.ts";

export interface RetentionResult {
  inquiries: number;
  emails: number;
}

/** Calendar months before `now` (setUTCMonth rolls 31 March − 1 month over to 3 March: a few days either way is fine here). */
function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/**
 * The retention rule (INQUIRY_RETENTION_MONTHS, 0 = off): inquiries received longer ago than
 * that and not yet anonymised lose the person's details (name, e-mail, phone, company, budget,
 * message and notes), keeping type, status, dates and course for the counts; the e-mails about
 * them are deleted with their stored copies. Idempotent, so every server instance may run it;
 * in batches of up to RETENTION_BATCH, one audit row (actor: the system) per batch.
 */
export async function anonymiseExpiredInquiries(
  now: Date = new Date(),
  {
    months = config.inquiryRetentionMonths,
    outboxDir = outboxDirectory(),
    batchSize = RETENTION_BATCH,
  }: { months?: number; outboxDir?: string; batchSize?: number } = {},
): Promise<RetentionResult> {
  if (!months || months <= 0) return { inquiries: 0, emails: 0 };
  const cutoff = monthsBefore(now, months);
  const total: RetentionResult = { inquiries: 0, emails: 0 };
  // In batches, each its own transaction: any number of due inquiries is a bounded statement
  // each time, and what is done stays done if the run stops half-way.
  for (;;) {
    const batch = await anonymiseBatch(now, cutoff, months, batchSize);
    await removeStoredEmails(batch.emailIds, outboxDir);
    total.inquiries += batch.inquiries;
    total.emails += batch.emailIds.length;
    if (batch.inquiries < batchSize) return total;
  }
}

/** How many inquiries one retention transaction anonymises at most. */
const RETENTION_BATCH = 1000;

async function anonymiseBatch(now: Date, cutoff: Date, months: number, batchSize: number) {
  return db().transaction(async (tx) => {
    // Locks the rows, so two instances running at once anonymise each inquiry once.
    const expired = await tx
      .select({ id: inquiries.id })
      .from(inquiries)
      .where(orm.and(orm.lt(inquiries.createdAt, cutoff), orm.isNull(inquiries.anonymisedAt)))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    if (!expired.length) return { inquiries: 0, emailIds: [] as string[] };
    const ids = expired.map((r) => r.id);
    const deleted = await tx
      .delete(emailOutbox)
      .where(orm.inArray(emailOutbox.inquiryId, ids))
      .returning({ id: emailOutbox.id });
    // What staff wrote to or about the person goes with their details (decision 0048).
    await tx.delete(inquiryReplies).where(orm.inArray(inquiryReplies.inquiryId, ids));
    await tx.delete(inquiryNotes).where(orm.inArray(inquiryNotes.inquiryId, ids));
    await tx
      .update(inquiries)
      .set({
        name: ANONYMISED,
        email: orm.sql`'inquiry-' || ${inquiries.id}::text || '@erased.invalid'`,
        phone: null,
        company: null,
        budget: null,
        message: "(anonymised after the retention period)",
        notes: null,
        anonymisedAt: now,
        updatedAt: now,
      })
      .where(orm.inArray(inquiries.id, ids));
    await recordAudit(tx, null, {
      action: "privacy.retention",
      subjectType: "privacy",
      summary: `Retention: ${ids.length} ${ids.length === 1 ? "inquiry" : "inquiries"} older than ${months} months anonymised`,
      after: {
        inquiries: ids.length,
        emails: deleted.length,
        months,
        cutoff: cutoff.toISOString(),
      },
    });
    return { inquiries: ids.length, emailIds: deleted.map((d) => d.id) };
  });
}

export interface ContactRetentionResult {
  quotes: number;
  licences: number;
  emails: number;
}

/**
 * The same period for the contacts of quotes and licences (decision 0051): a quote that was never
 * accepted loses its contact's name and e-mail once its last valid day is that long past, with
 * the e-mails that sent it; a licence, once its end is. An accepted quote stays as it is, with
 * the order it made. Numbers, amounts, organisation and dates stay. Idempotent and batched, as
 * the enquiries' rule is, with one audit row per batch.
 */
export async function anonymiseOldContacts(
  now: Date = new Date(),
  {
    months = config.inquiryRetentionMonths,
    outboxDir = outboxDirectory(),
    batchSize = RETENTION_BATCH,
  }: { months?: number; outboxDir?: string; batchSize?: number } = {},
): Promise<ContactRetentionResult> {
  const total: ContactRetentionResult = { quotes: 0, licences: 0, emails: 0 };
  if (!months || months <= 0) return total;
  const cutoff = londonDate(monthsBefore(now, months));
  for (;;) {
    const batch = await anonymiseContactsBatch(now, cutoff, months, batchSize);
    await removeStoredEmails(batch.emailIds, outboxDir);
    total.quotes += batch.quotes;
    total.licences += batch.licences;
    total.emails += batch.emailIds.length;
    if (batch.quotes < batchSize && batch.licences < batchSize) return total;
  }
}

async function anonymiseContactsBatch(
  now: Date,
  cutoff: string,
  months: number,
  batchSize: number,
) {
  return db().transaction(async (tx) => {
    const oldQuotes = await tx
      .select({ id: quotes.id })
      .from(quotes)
      .where(
        orm.and(
          orm.ne(quotes.status, "accepted"),
          orm.lt(quotes.validUntil, cutoff),
          orm.isNull(quotes.anonymisedAt),
        ),
      )
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const oldLicences = await tx
      .select({ id: licences.id })
      .from(licences)
      .where(orm.and(orm.lt(licences.endsOn, cutoff), orm.isNull(licences.anonymisedAt)))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const quoteIds = oldQuotes.map((q) => q.id);
    const licenceIds = oldLicences.map((l) => l.id);
    if (!quoteIds.length && !licenceIds.length) {
      return { quotes: 0, licences: 0, emailIds: [] as string[] };
    }
    const deleted = quoteIds.length
      ? await tx
          .delete(emailOutbox)
          .where(orm.inArray(emailOutbox.quoteId, quoteIds))
          .returning({ id: emailOutbox.id })
      : [];
    await anonymiseQuoteContacts(tx, quoteIds, ANONYMISED, now);
    await anonymiseLicenceContacts(tx, licenceIds, ANONYMISED, now);
    await recordAudit(tx, null, {
      action: "privacy.retention",
      subjectType: "privacy",
      summary: `Retention: the contacts of ${quoteIds.length} ${quoteIds.length === 1 ? "quote" : "quotes"} and ${licenceIds.length} ${licenceIds.length === 1 ? "licence" : "licences"} ended over ${months} months ago anonymised`,
      after: {
        quotes: quoteIds.length,
        licences: licenceIds.length,
        emails: deleted.length,
        months,
        cutoff,
      },
    });
    return {
      quotes: quoteIds.length,
      licences: licenceIds.length,
      emailIds: deleted.map((d) => d.id),
    };
  });
}

/** better-auth's per-address sign-in counters older than this are no use to its limits. */
const RATE_LIMIT_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * The sign-in traces that name a client address and nobody's account: better-auth's rate-limit
 * counters (its key is the raw address) after a day, and failed sign-ins for no known account
 * (an unknown or mistyped address) after `days` — deleted from the audit log through the one
 * exception its trigger makes for them (`nightwatch.housekeeping`). Failed sign-ins for a real
 * account stay: they are that account's history.
 */
export async function removeExpiredSignInTraces(
  now: Date = new Date(),
  days: number = config.signInLogRetentionDays,
): Promise<{ counters: number; signIns: number }> {
  const counters = await db()
    .delete(rateLimit)
    .where(orm.lt(rateLimit.lastRequest, now.getTime() - RATE_LIMIT_KEEP_MS))
    .returning({ id: rateLimit.id });
  if (days <= 0) return { counters: counters.length, signIns: 0 };
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const signIns = await db().transaction(async (tx) => {
    await tx.execute(orm.sql`select set_config('nightwatch.housekeeping', 'on', true)`);
    return tx
      .delete(auditLog)
      .where(
        orm.and(
          orm.eq(auditLog.action, "auth.sign_in_failed"),
          orm.isNull(auditLog.actorId),
          orm.isNull(auditLog.subjectId),
          orm.lt(auditLog.at, cutoff),
        ),
      )
      .returning({ id: auditLog.id });
  });
  return { counters: counters.length, signIns: signIns.length };
}

/**
 * Empties the bodies of e-mails sent longer ago than `days` (0: never), calendar invitations
 * included: the outbox keeps who was written to, about what, when and whether it went, not every
 * message's words for ever. The `.eml` copies of the file mailer are the operator's
 * (DATA_DIR/outbox) and stay.
 */
export async function pruneSentEmailBodies(
  now: Date = new Date(),
  days: number = config.emailBodyRetentionDays,
): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
  const pruned = await db()
    .update(emailOutbox)
    .set({ html: "", text: "", calendar: null })
    .where(
      orm.and(
        orm.eq(emailOutbox.status, "sent"),
        orm.lt(emailOutbox.sentAt, cutoff),
        orm.or(
          orm.ne(emailOutbox.html, ""),
          orm.ne(emailOutbox.text, ""),
          orm.isNotNull(emailOutbox.calendar),
        ),
      ),
    )
    .returning({ id: emailOutbox.id });
  return pruned.length;
}

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

let retentionTimer: NodeJS.Timeout | undefined;

let retentionRun: Promise<void> | undefined;

function runRetention(upkeep = true): void {
  // One run at a time in this process; a run still going when the next is due is left to finish.
  retentionRun ??= retentionPass(upkeep).finally(() => {
    retentionRun = undefined;
  });
}

/** After a failed run, the next try comes sooner than the hour: 1, 2, 4 … minutes. */
let failures = 0;
let retryTimer: NodeJS.Timeout | undefined;

async function retentionPass(upkeep: boolean): Promise<void> {
  // Every step writes: none while the disk is nearly full (the next hourly run catches up).
  if (diskLow()) {
    log.warn("retention run skipped: the disk is nearly full");
    return;
  }
  try {
    const result = await anonymiseExpiredInquiries();
    const contacts = await anonymiseOldContacts();
    const traces = await removeExpiredSignInTraces();
    const bodies = await pruneSentEmailBodies();
    await removeOldSubmissions();
    await releaseLapsedHolds();
    // Waiting lists (decision 0034): lapsed offers pass on; ended entries are deleted.
    const offers = await waitingListHousekeeping();
    const entries = await deleteEndedEntries();
    if (offers || entries)
      log.info({ offers, entries }, "waiting lists: offers passed on, old entries deleted");
    // Hourly is soon enough for reminders counted in days: each goes within the hour it is due.
    const reminders = await sendDueReminders();
    if (reminders) log.info({ emails: reminders }, "course date reminders queued");
    const invoiceReminders = await sendInvoiceReminders();
    if (invoiceReminders) log.info({ emails: invoiceReminders }, "unpaid invoice reminders queued");
    // Staff told once when an enquiry's reply becomes overdue (decision 0047).
    const overdue = await alertOverdueReplies();
    if (overdue) log.info({ inquiries: overdue }, "overdue replies: staff e-mailed");
    // Quotes past their last valid day (decision 0049).
    const expired = await expireQuotes();
    if (expired) log.info({ quotes: expired }, "quotes expired");
    // Licences ending soon (decision 0050): the customer and staff reminded, each day once.
    const licenceReminders = await sendLicenceReminders();
    if (licenceReminders) log.info({ licences: licenceReminders }, "licence reminders queued");
    if (bodies) log.info({ emails: bodies }, "bodies of old sent e-mails emptied");
    // The embedded database has no autovacuum: its statistics and free space are kept here,
    // on the hourly runs (not the one at start, while the site is being warmed up). A failure is
    // the upkeep's own: the retention run still succeeded.
    if (upkeep) {
      await maintainDatabase().then(
        (done) => {
          if (done && done.analysed) log.info(done, "embedded database vacuumed and analysed");
        },
        (error: unknown) =>
          log.warn({ err: boundedError(error) }, "embedded database upkeep failed: next hour"),
      );
    }
    failures = 0;
    jobSucceeded("retention");
    if (result.inquiries) log.info(result, "old inquiries anonymised (retention period)");
    if (contacts.quotes || contacts.licences)
      log.info(contacts, "contacts of old quotes and licences anonymised (retention period)");
    if (traces.counters || traces.signIns) log.info(traces, "old sign-in traces removed");
  } catch (error) {
    failures += 1;
    const retryMs = Math.min(RETENTION_INTERVAL_MS, 60_000 * 2 ** (failures - 1));
    // One bounded line: a failed statement's text can be megabytes (its parameters).
    log.error(
      { err: boundedError(error), retryInSeconds: retryMs / 1000 },
      "inquiry retention run failed",
    );
    if (retentionTimer && !retryTimer) {
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        runRetention();
      }, retryMs);
      retryTimer.unref();
    }
  }
}

/** An error as a log line may carry it: its kind, code and the start of its message. */
export function boundedError(error: unknown): { type: string; code?: string; message: string } {
  const e = error as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  const cause = e?.cause as { code?: unknown; message?: unknown } | undefined;
  const message = String(cause?.message ?? e?.message ?? error);
  const code = cause?.code ?? e?.code;
  return {
    type: typeof e?.name === "string" ? e.name : "Error",
    ...(typeof code === "string" ? { code } : {}),
    message: message.length > 500 ? `${message.slice(0, 499)}…` : message,
  };
}

/** Hourly in the background (unref'd: it never keeps the process alive); a first run at start. */
export function startRetentionSchedule(intervalMs: number = RETENTION_INTERVAL_MS): void {
  if (retentionTimer) return;
  runRetention(false);
  retentionTimer = setInterval(runRetention, intervalMs);
  retentionTimer.unref();
}

/** Stops the schedule and waits for a run in progress, so the database can close after it. */
export async function stopRetentionSchedule(): Promise<void> {
  if (retentionTimer) clearInterval(retentionTimer);
  if (retryTimer) clearTimeout(retryTimer);
  retentionTimer = undefined;
  retryTimer = undefined;
  await retentionRun;
}
