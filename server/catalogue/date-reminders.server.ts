import { and, asc, eq, gt, lte } from "drizzle-orm";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { courseDateReminders, courseDates, courses } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderDateReminder } from "../email/templates/course-date.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { attendeeEmail, dateAttendees } from "./date-invitations.server.ts";

/**
 * Reminders before a course date starts (decision 0033; docs/rules.md, Checkout and orders): to
 * everyone with a place on a scheduled date, DATE_REMINDER_DAYS before its start (7 and 1 by
 * default), each with the calendar invitation. Run by the hourly housekeeping pass on every
 * instance: each reminder is claimed in `course_date_reminders` — one row per date, days before
 * and start — in the transaction that queues its e-mails, so it goes exactly once however many
 * passes run at once; a date moved to a new start is a new claim, and is reminded again.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which reminder of a date starting at `startsAt` is due at `now`, if any: the N-days reminder
 * during the N-th day before the start (more than N − 1 and at most N days ahead), and not after.
 * So at most one is due at a time, and none comes late: a date first booked, created or moved
 * two days before it starts gets the one-day reminder only. The hourly pass has the whole day to
 * send each. `days`: whole days (any order).
 */
export function dueReminder(
  startsAt: Date,
  now: Date,
  days: readonly number[] = config.dateReminderDays,
): number | null {
  const left = startsAt.getTime() - now.getTime();
  if (left <= 0) return null;
  const n = Math.ceil(left / DAY_MS);
  return days.includes(n) ? n : null;
}

/**
 * Claims and sends the reminders due at `now`: for each scheduled date starting within the
 * longest reminder's reach, the one reminder due (dueReminder). In one transaction per date, the
 * date is read again under a shared lock (a change by staff waits, or has committed), the claim
 * is inserted `ON CONFLICT DO NOTHING`, and only a claim won queues the e-mails. A due reminder
 * is claimed even when nobody is booked yet: whoever books later that day has just had their
 * booking's own e-mails. Returns how many e-mails were queued.
 */
export async function sendDueReminders(
  now: Date = new Date(),
  days: readonly number[] = config.dateReminderDays,
): Promise<number> {
  const longest = Math.max(0, ...days);
  if (longest <= 0) return 0;
  const candidates = await db()
    .select({ id: courseDates.id, startsAt: courseDates.startsAt })
    .from(courseDates)
    .where(
      and(
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, now),
        lte(courseDates.startsAt, new Date(now.getTime() + longest * DAY_MS)),
      ),
    )
    .orderBy(asc(courseDates.startsAt));
  let queued = 0;
  for (const candidate of candidates) {
    if (dueReminder(candidate.startsAt, now, days) === null) continue;
    queued += await remindDate(candidate.id, now, days);
  }
  if (queued > 0) nudgeOutbox();
  return queued;
}

async function remindDate(dateId: string, now: Date, days: readonly number[]): Promise<number> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ date: courseDates, courseTitle: courses.title })
      .from(courseDates)
      .innerJoin(courses, eq(courses.id, courseDates.courseId))
      .where(eq(courseDates.id, dateId))
      .for("share", { of: courseDates });
    if (!row || row.date.state !== "scheduled") return 0;
    const { date, courseTitle } = row;
    const daysBefore = dueReminder(date.startsAt, now, days);
    if (daysBefore === null) return 0;
    const claimed = await tx
      .insert(courseDateReminders)
      .values({ courseDateId: date.id, daysBefore, startsAt: date.startsAt, sentAt: now })
      .onConflictDoNothing()
      .returning({ courseDateId: courseDateReminders.courseDateId });
    if (claimed.length === 0) return 0;
    const attendees = await dateAttendees(tx, date.id);
    const rows = await queueEmails(
      tx,
      attendees.map((attendee) =>
        attendeeEmail(
          "course_date_reminder",
          courseTitle,
          date,
          attendee,
          renderDateReminder,
          "REQUEST",
        ),
      ),
    );
    return rows.length;
  });
}
