import * as orm from "drizzle-orm";
import { londonDate, startOfLondonDate } from "#app/lib/admin/time.ts";
import { INQUIRY_TYPES, type InquiryStatus, type InquiryType } from "#app/lib/inquiries/admin.ts";
import { endOfWorkingDaysAfter } from "../calendar/working-days.server.ts";
import { inquiries } from "../db/schema.ts";

/**
 * When an enquiry is owed its reply (docs/decisions/0047-reply-due-times.md): the site promises a
 * reply within 24 hours, and a File Interrogator licence quote within 2 business days — by the end
 * of the second working day (England and Wales bank holidays counted) after the day it arrived.
 * An enquiry awaits its reply while it is new or in progress; one replied to, closed, held as
 * suspected spam or anonymised is owed nothing.
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

/**
 * The condition that an enquiry awaits its reply and is due by `deadline` (the Dashboard: due
 * within four hours, or overdue). One range per kind of enquiry over its arrival time, so the
 * status-and-date index answers it.
 */
export function dueByCondition(deadline: Date): orm.SQL {
  return orm.and(
    orm.inArray(inquiries.status, [...AWAITING]),
    orm.isNull(inquiries.spamReason),
    orm.isNull(inquiries.anonymisedAt),
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
