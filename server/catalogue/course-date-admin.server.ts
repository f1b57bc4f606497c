import { and, eq, sql } from "drizzle-orm";
import {
  courseDateInstants,
  courseDateProblems,
  type CourseDateFormValues,
} from "#app/lib/catalogue/course-date-form.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import type { FieldErrors } from "#app/lib/forms.ts";
import {
  auditSnapshot,
  changedFields,
  recordAudit,
  type AuditActor,
  type AuditSubject,
} from "../audit.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseDates, courses, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { holdsPlaces, placesTaken } from "./course-dates.server.ts";
import { catalogueChanged } from "./write.server.ts";
import { announceNewDate, offerFreedPlacesAfter } from "./waiting-list-offers.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import {
  cancelDateBookings,
  moveDateBookings,
  type CancelledBookings,
} from "./date-bookings.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderDateCancelled, renderDateUpdated } from "../email/templates/course-date.server.ts";
import { attendeeEmail, dateAttendees, dateChangedEmails } from "./date-invitations.server.ts";

/**
 * Course dates as the admin maintains them (decision 0033; docs/rules.md, Catalogue and courses):
 * creating, editing and cancelling a date (the Dates screen's lists: course-date-list.server.ts). Every rule is checked here again, whatever the browser checked;
 * a refusal changes nothing. Each change writes its audit row in its own transaction (decision
 * 0019) and empties the page cache, since course pages show their dates.
 */

/** The audit log's kind for dates. */
const COURSE_DATE_SUBJECT: AuditSubject = "course_date";

type DateRow = typeof courseDates.$inferSelect;

/** A change refused, with what to tell the admin (and by which field, when one is at fault). */
export type CourseDateRefusal = {
  ok: false;
  status: 400 | 404 | 409;
  message: string;
  fieldErrors?: FieldErrors;
};
export type CourseDateChange = { ok: true; date: DateRow } | CourseDateRefusal;

export const DATE_NOT_FOUND = "This date no longer exists.";
export const DATE_NOT_SCHEDULED = "This date is no longer scheduled, so it cannot be changed.";
export const COURSE_NOT_FOUND = "This course no longer exists.";
export const COURSE_HAS_BOOKINGS =
  "This date has bookings, so it cannot move to another course. Create a date for that course instead.";
export const INVALID_DATE = "Please correct the fields marked below.";

/** 'Move or cancel its 3 bookings first': a date with live bookings is not cancelled. */
export function cancelRefusedMessage(bookings: number): string {
  const them = bookings === 1 ? "its booking" : `its ${bookings} bookings`;
  return `This date still has ${bookings === 1 ? "a booking" : `${bookings} bookings`}. Choose whether to move ${them} to another date or cancel ${bookings === 1 ? "it" : "them"}.`;
}

/** The fields whose change sends attendees an updated invitation (and raises its SEQUENCE). */
const INVITATION_FIELDS = [
  "startsAt",
  "endsAt",
  "format",
  "venueName",
  "venueAddress",
  "joiningDetails",
] as const;

/** What the audit log records of a date (not its state or timestamps, but on cancel). */
const DATE_AUDIT_FIELDS = [
  "courseId",
  "startsAt",
  "endsAt",
  "bookingClosesAt",
  "format",
  "venueName",
  "venueTown",
  "venueAddress",
  "joiningDetails",
  "schedule",
  "capacity",
  "price",
] as const;

function summary(courseTitle: string, row: Pick<DateRow, "startsAt" | "endsAt">): string {
  return `${courseTitle}, ${formatDateRange(row.startsAt, row.endsAt)}`;
}

/** The row's columns from the form (UK wall times as instants; venue only for a classroom). */
function columns(values: CourseDateFormValues) {
  const instants = courseDateInstants(values);
  if (!instants) return null;
  const classroom = values.format === "classroom";
  return {
    courseId: values.course_id,
    ...instants,
    format: values.format,
    venueName: classroom ? values.venue_name : null,
    venueTown: classroom ? values.venue_town : null,
    venueAddress: classroom ? values.venue_address : null,
    joiningDetails: values.joining_details,
    schedule: values.schedule,
    capacity: values.capacity,
    price: values.price,
  };
}

function invalid(fieldErrors: FieldErrors): CourseDateRefusal {
  return { ok: false, status: 400, message: INVALID_DATE, fieldErrors };
}

async function courseTitle(
  runner: Pick<Transaction, "select">,
  courseId: string,
): Promise<string | null> {
  if (!isUuid(courseId)) return null;
  const [course] = await runner
    .select({ title: courses.title })
    .from(courses)
    .where(eq(courses.id, courseId));
  return course?.title ?? null;
}

/** Creates a scheduled date after checking every rule; nothing is stored when one fails. */
export async function createCourseDate(
  actor: AuditActor,
  values: CourseDateFormValues,
  now = new Date(),
): Promise<CourseDateChange> {
  const row = columns(values);
  if (!row) return invalid({ starts_at: INVALID_DATE });
  const problems = courseDateProblems(values, { now });
  if (Object.keys(problems).length > 0) return invalid(problems);
  const result = await db().transaction(async (tx): Promise<CourseDateChange> => {
    const title = await courseTitle(tx, row.courseId);
    if (title === null) {
      return {
        ok: false,
        status: 404,
        message: COURSE_NOT_FOUND,
        fieldErrors: { course_id: COURSE_NOT_FOUND },
      };
    }
    const [created] = await tx.insert(courseDates).values(row).returning();
    await recordAudit(tx, actor, {
      action: "course_date.create",
      subjectType: COURSE_DATE_SUBJECT,
      subjectId: created!.id,
      summary: summary(title, created!),
      after: auditSnapshot(created!, DATE_AUDIT_FIELDS),
    });
    // Those who asked to hear of the course's next date get their one e-mail (decision 0034).
    await announceNewDate(tx, created!);
    return { ok: true, date: created! };
  });
  if (result.ok) {
    catalogueChanged();
    nudgeOutbox();
  }
  return result;
}

/**
 * Updates a scheduled date. Under a lock on its row (so no order takes places meanwhile: orders
 * take theirs under the same lock), the capacity may not go below the places taken, a date with
 * bookings keeps its course, and a start that changes must be in the future. Null-free: a date
 * that is gone is a 404 refusal. Saving an unchanged form writes no audit row.
 */
export async function updateCourseDate(
  actor: AuditActor,
  id: string,
  values: CourseDateFormValues,
  now = new Date(),
): Promise<CourseDateChange> {
  if (!isUuid(id)) return { ok: false, status: 404, message: DATE_NOT_FOUND };
  const row = columns(values);
  if (!row) return invalid({ starts_at: INVALID_DATE });
  const result = await db().transaction(async (tx): Promise<CourseDateChange> => {
    const [before] = await tx
      .select()
      .from(courseDates)
      .where(eq(courseDates.id, id))
      .for("update");
    if (!before) return { ok: false, status: 404, message: DATE_NOT_FOUND };
    if (before.state !== "scheduled") {
      return { ok: false, status: 409, message: DATE_NOT_SCHEDULED };
    }
    const taken = (await placesTaken(tx, [id])).get(id) ?? 0;
    const problems = courseDateProblems(values, {
      now,
      placesSold: taken,
      startMayBePast: row.startsAt.getTime() === before.startsAt.getTime(),
    });
    if (taken > 0 && row.courseId !== before.courseId) problems.course_id = COURSE_HAS_BOOKINGS;
    if (Object.keys(problems).length > 0) return invalid(problems);
    const title = await courseTitle(tx, row.courseId);
    if (title === null) {
      return {
        ok: false,
        status: 404,
        message: COURSE_NOT_FOUND,
        fieldErrors: { course_id: COURSE_NOT_FOUND },
      };
    }
    // Times, place or joining details changed: attendees' calendars must take the new event.
    const attendeesMustHear = INVITATION_FIELDS.some(
      (field) => String(before[field] ?? "") !== String(row[field] ?? ""),
    );
    const [after] = await tx
      .update(courseDates)
      .set({
        ...row,
        sequence: attendeesMustHear ? before.sequence + 1 : before.sequence,
        updatedAt: new Date(),
      })
      .where(eq(courseDates.id, id))
      .returning();
    if (attendeesMustHear) {
      await queueEmails(tx, await dateChangedEmails(tx, id, { cancelled: false }));
    }
    const changes = changedFields(before, after!, DATE_AUDIT_FIELDS);
    if (changes) {
      await recordAudit(tx, actor, {
        action: "course_date.update",
        subjectType: COURSE_DATE_SUBJECT,
        subjectId: id,
        summary: summary(title, after!),
        ...changes,
      });
    }
    return { ok: true, date: after! };
  });
  if (result.ok) {
    catalogueChanged();
    nudgeOutbox();
    // A raised capacity frees places: the waiting list is offered them first (decision 0034).
    await offerFreedPlacesAfter(id);
  }
  return result;
}

/**
 * What to do with a date's bookings when it is cancelled (server/catalogue/date-bookings.server.ts):
 * move them to another date of the course, or cancel them (refunds and credit notes). A date with
 * bookings and no choice is not cancelled.
 */
export type DateBookingsChoice = { kind: "move"; toDateId: string } | { kind: "cancel" };

export type CourseDateCancellation =
  | { ok: true; date: DateRow; moved: number; bookings: CancelledBookings | null }
  | CourseDateRefusal;

export async function cancelCourseDate(
  actor: AuditActor,
  id: string,
  choice: DateBookingsChoice | null = null,
): Promise<CourseDateCancellation> {
  if (!isUuid(id)) return { ok: false, status: 404, message: DATE_NOT_FOUND };
  let moved = 0;
  const result = await db().transaction(async (tx): Promise<CourseDateChange> => {
    const [before] = await tx
      .select()
      .from(courseDates)
      .where(eq(courseDates.id, id))
      .for("update");
    if (!before) return { ok: false, status: 404, message: DATE_NOT_FOUND };
    if (before.state !== "scheduled") {
      return { ok: false, status: 409, message: DATE_NOT_SCHEDULED };
    }
    const [live] = await tx
      .select({ bookings: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(eq(orders.courseDateId, id), holdsPlaces));
    const bookings = Number(live?.bookings ?? 0);
    if (bookings > 0 && !choice) {
      return { ok: false, status: 409, message: cancelRefusedMessage(bookings) };
    }
    // Who had a place, read before any booking moves: each gets the cancellation for their calendar.
    const attendees = await dateAttendees(tx, id);
    let movedTo: { date: DateRow; orderIds: Set<string> } | null = null;
    if (bookings > 0 && choice?.kind === "move") {
      const move = await moveDateBookings(tx, actor, before, choice.toDateId);
      if (!move.ok) return { ok: false, status: 409, message: move.message };
      moved = move.orderIds.length;
      movedTo = { date: move.to, orderIds: new Set(move.orderIds) };
    }
    const [after] = await tx
      .update(courseDates)
      .set({ state: "cancelled", sequence: before.sequence + 1, updatedAt: new Date() })
      .where(eq(courseDates.id, id))
      .returning();
    const title = (await courseTitle(tx, before.courseId)) ?? "";
    const letters = attendees.map((a) =>
      attendeeEmail("course_date_cancelled", title, after!, a, renderDateCancelled, "CANCEL"),
    );
    if (movedTo) {
      // The moved students' invitations to the date they now have a place on.
      const newcomers = (await dateAttendees(tx, movedTo.date.id)).filter((a) =>
        movedTo.orderIds.has(a.orderId),
      );
      letters.push(
        ...newcomers.map((a) =>
          attendeeEmail(
            "course_date_updated",
            title,
            movedTo.date,
            a,
            renderDateUpdated,
            "REQUEST",
          ),
        ),
      );
    }
    await queueEmails(tx, letters);
    await recordAudit(tx, actor, {
      action: "course_date.cancel",
      subjectType: COURSE_DATE_SUBJECT,
      subjectId: id,
      summary: summary(title, before),
      before: { state: before.state },
      after: {
        state: after!.state,
        ...(moved
          ? { bookingsMovedTo: choice && "toDateId" in choice ? choice.toDateId : null, moved }
          : {}),
      },
    });
    return { ok: true, date: after! };
  });
  if (!result.ok) return result;
  catalogueChanged();
  nudgeOutbox();
  // Cancelled bookings are handled one by one once the date is off sale (a refund is a call to
  // Stripe, outside any transaction).
  const cancelled =
    choice?.kind === "cancel" ? await cancelDateBookings(db(), actor, result.date.id) : null;
  return { ...result, moved, bookings: cancelled };
}
