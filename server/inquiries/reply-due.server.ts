import * as orm from "drizzle-orm";
import { londonDate, startOfLondonDate } from "#app/lib/admin/time.ts";
import {
  INQUIRY_TYPES,
  inquiryHref,
  type InquiryStatus,
  type InquiryType,
} from "#app/lib/inquiries/admin.ts";
import { endOfWorkingDaysAfter } from "../calendar/working-days.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { inquiries } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderReplyOverdue } from "../email/templates/inquiry.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";

/**
 * When an enquiry is owed its reply (docs/decisions/0047-reply-due-times.md): the site promises a
 * reply within 24 hours, and a File Interrogator licence quote within 2 business days — by the end
 * of the second working day (England and Wales bank holidays counted) after the day it arrived.
 * An enquiry awaits its reply while it is new or in progress; one replied to, closed, held as
 * suspected spam or anonymised is owed nothing. Staff are e-mailed once when one becomes overdue.
 */

const HOUR = 60 * 60 * 1000;

/** The promise, per kind of enquiry. */
export const REPLY_TARGETS: Record<InquiryType, { hours: number } | { workingDays: number }> = {
  training: { hours: 24 },
  file_interrogator: { workingDays: 2 },
  security_consultation: { hours: 24 },
  course: { hours: 24 },
  general: { hours: 24 },
};

/** How long before its due time an enquiry is listed on the Dashboard as due soon. */
export const DUE_SOON_MS = 4 * HOUR;

const AWAITING: readonly InquiryStatus[] = ["new", "in_progress"];

/** When an enquiry of `type` that arrived at `createdAt` is owed its reply. */
export function replyDueAt(type: InquiryType, createdAt: Date): Date {
  const target = REPLY_TARGETS[type];
  return "hours" in target
    ? new Date(createdAt.getTime() + target.hours * HOUR)
    : endOfWorkingDaysAfter(createdAt, target.workingDays);
}

/** Whether an enquiry is still owed its reply. */
export function awaitsReply(inquiry: {
  status: InquiryStatus;
  spamReason: string | null;
  anonymisedAt: Date | null;
}): boolean {
  return AWAITING.includes(inquiry.status) && !inquiry.spamReason && !inquiry.anonymisedAt;
}

/**
 * The latest arrival of an enquiry of `type` whose reply is due by `deadline`, as the bound of
 * a query: due times never go down as arrivals go up, so "due by the deadline" is "arrived
 * before this instant". For working days, London days are tried from the deadline's down: every
 * arrival on one day is due at the same time (a due time is at most three weeks after the
 * arrival, holidays and all).
 */
function arrivedBefore(type: InquiryType, deadline: Date): Date {
  const target = REPLY_TARGETS[type];
  if ("hours" in target) return new Date(deadline.getTime() - target.hours * HOUR + 1);
  const last = londonDate(deadline);
  for (let back = 0; back <= 21; back += 1) {
    const dayStart = startOfLondonDate(last, -back);
    if (replyDueAt(type, dayStart) <= deadline) return startOfLondonDate(last, 1 - back);
  }
  return startOfLondonDate(last, -21);
}

/** The condition that an enquiry awaits its reply (awaitsReply, in the database). */
export function awaitingCondition(): orm.SQL {
  return orm.and(
    orm.inArray(inquiries.status, [...AWAITING]),
    orm.isNull(inquiries.spamReason),
    orm.isNull(inquiries.anonymisedAt),
  )!;
}

/**
 * The condition that an enquiry awaits its reply and is due by `deadline` (the Dashboard: due
 * within four hours, or overdue). One range per kind of enquiry over its arrival time, so the
 * status-and-date index answers it.
 */
export function dueByCondition(deadline: Date): orm.SQL {
  return orm.and(
    awaitingCondition(),
    orm.or(
      ...INQUIRY_TYPES.map((type) =>
        orm.and(
          orm.eq(inquiries.inquiryType, type),
          orm.lt(inquiries.createdAt, arrivedBefore(type, deadline)),
        ),
      ),
    ),
  )!;
}

/** Overdue longer than this when first seen (a backlog, or a site that was down): no e-mail. */
const ALERT_WITHIN_MS = 48 * HOUR;
const ALERTS_PER_RUN = 50;

/**
 * E-mails staff (ADMIN_EMAILS) once about each enquiry whose reply became overdue in the last two
 * days and has not been alerted (decision 0047): the enquiries are marked in the transaction
 * that queues their e-mails, skipping rows another instance holds, so each is told once. Run
 * with the hourly housekeeping; off with INQUIRY_OVERDUE_ALERTS=false. Returns how many went.
 */
export async function alertOverdueReplies(now: Date = new Date()): Promise<number> {
  if (!config.inquiryOverdueAlerts) return 0;
  const since = new Date(now.getTime() - ALERT_WITHIN_MS);
  const sent = await db().transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(inquiries)
      .where(
        orm.and(
          dueByCondition(now),
          orm.not(dueByCondition(since)),
          orm.isNull(inquiries.replyOverdueAlertedAt),
        ),
      )
      .orderBy(orm.asc(inquiries.createdAt))
      .limit(ALERTS_PER_RUN)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return 0;
    await tx
      .update(inquiries)
      .set({ replyOverdueAlertedAt: now })
      .where(
        orm.inArray(
          inquiries.id,
          rows.map((r) => r.id),
        ),
      );
    await queueEmails(
      tx,
      rows.map((row) => ({
        kind: "reply_overdue",
        to: config.adminEmails,
        replyTo: row.email,
        inquiryId: row.id,
        ...renderReplyOverdue(
          row,
          replyDueAt(row.inquiryType, row.createdAt),
          `${config.publicUrl}${inquiryHref(row.id)}`,
        ),
      })),
    );
    return rows.length;
  });
  if (sent > 0) nudgeOutbox();
  return sent;
}
