import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from "ical-generator";
import { config } from "../config.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { courseDates, courses, orderStudents, orders } from "../db/schema.ts";
import type { OutgoingEmail } from "../email/outbox.server.ts";
import {
  type DateLetter,
  renderDateCancelled,
  renderDateUpdated,
} from "../email/templates/course-date.server.ts";
import { fullName, type BookedDate } from "../email/templates/order.server.ts";
import { greetingName } from "../email/templates/layout.server.ts";
import { holdsPlaces } from "./course-dates.server.ts";

/**
 * Calendar invitations for booked course dates (decision 0033): an iCalendar (RFC 5545) event per
 * date and student — sent with the joining details, with each reminder, and again as an update
 * or a cancellation when staff change the date — and who on a date receives them. The event's
 * UID is the same every time for one date and student, and its SEQUENCE is the date's, raised by
 * every change students must hear of, so calendars replace the old event instead of adding one.
 * Times are UTC; the text is made by ical-generator, never by hand.
 */

type DateRow = typeof courseDates.$inferSelect;

/** A date as its invitation shows it: when, where, how to join, and its id and sequence. */
export type InvitationDate = BookedDate & Pick<DateRow, "id" | "sequence">;

export type InvitationMethod = "REQUEST" | "CANCEL";

/** Someone with a place on a date. */
export interface InvitedStudent {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * The event's UID: the date and the student's address, hashed (no address in the UID), on this
 * site's host. The same for every invitation of one date to one student, whatever its case.
 */
export function invitationUid(dateId: string, email: string): string {
  const digest = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  return `${dateId}-${digest.slice(0, 16)}@${new URL(config.publicUrl).hostname}`;
}

/**
 * A name as an iCalendar parameter (CN) may carry it: one line, short, no double quote (a
 * parameter value cannot hold one, and a student's name is whatever the buyer typed).
 */
function nameParameter(name: string): string {
  return greetingName(name).replace(/"/g, "'");
}

function location(date: BookedDate): string {
  if (date.format === "online") return "Online";
  return [date.venueName, date.venueAddress].filter(Boolean).join(", ");
}

function description(courseTitle: string, date: BookedDate): string {
  return [
    courseTitle,
    ...(date.schedule ? ["", date.schedule] : []),
    ...(date.format === "online" && date.joiningDetails
      ? ["", "How to join:", date.joiningDetails]
      : []),
    "",
    `Questions? Write to ${config.mailReplyTo}.`,
  ].join("\n");
}

/** What every event of a date says: when, where, what, and the date's sequence. */
function eventOf(date: InvitationDate, courseTitle: string) {
  return {
    sequence: date.sequence,
    start: new Date(date.startsAt),
    end: new Date(date.endsAt),
    summary: courseTitle,
    location: location(date),
    description: description(courseTitle, date),
  };
}

/**
 * One student's invitation to a date (METHOD:REQUEST: add or update the event) or its
 * cancellation (METHOD:CANCEL, STATUS:CANCELLED), as iCalendar text for the outbox's `calendar`.
 * The organiser is the training team's mailbox; the student is the one attendee, asked for no
 * reply. An online date's joining details are in the description: it goes to booked students
 * only.
 */
export function invitationFor(
  date: InvitationDate,
  courseTitle: string,
  student: InvitedStudent,
  options: { method: InvitationMethod },
): string {
  const cancel = options.method === "CANCEL";
  const calendar = ical({
    prodId: { company: config.seller.legalName, product: "Course dates", language: "EN" },
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    ...eventOf(date, courseTitle),
    id: invitationUid(date.id, student.email),
    organizer: { name: nameParameter(config.seller.legalName), email: config.mailReplyTo },
    attendees: [
      {
        email: student.email.trim(),
        name: nameParameter(fullName(student)),
        role: ICalAttendeeRole.REQ,
        status: cancel ? null : ICalAttendeeStatus.NEEDSACTION,
        rsvp: false,
      },
    ],
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/**
 * A date as a calendar file to download ('Add to calendar' on the booker's page, decision 0037):
 * METHOD:PUBLISH, no attendees, its UID the order's and the date's, so a second download replaces
 * the event instead of adding one.
 */
export function calendarFileFor(
  date: InvitationDate,
  courseTitle: string,
  orderId: string,
): string {
  const calendar = ical({
    prodId: { company: config.seller.legalName, product: "Course dates", language: "EN" },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    ...eventOf(date, courseTitle),
    id: `${date.id}-${orderId}@${new URL(config.publicUrl).hostname}`,
    status: ICalEventStatus.CONFIRMED,
  });
  return calendar.toString();
}

/**
 * The orders whose students have a place on their date: live (holdsPlaces) and sold — an invoice
 * request, invoiced or paid; not a card checkout still open (its students get their invitation
 * when it is paid) — and neither held as suspected spam nor anonymised.
 */
const bookedOnDate = sql`${holdsPlaces} and (${orders.status} in ('invoiced', 'paid') or ${orders.paymentMethod} = 'invoice') and ${isNull(orders.spamReason)} and ${isNull(orders.anonymisedAt)}`;

/** A student with a place on a date, and the order that booked it. */
export interface DateAttendee extends InvitedStudent {
  orderId: string;
}

/**
 * Everyone with a place on a date (inside the caller's transaction): each booked order's students
 * (the buyer, when they booked for themselves), oldest order first, each address once whatever
 * its case — so nobody gets a letter twice for booking twice.
 */
export async function dateAttendees(
  tx: Pick<Transaction, "select">,
  dateId: string,
): Promise<DateAttendee[]> {
  const booked = await tx
    .select({
      id: orders.id,
      isBuyerStudent: orders.isBuyerStudent,
      firstName: orders.buyerFirstName,
      lastName: orders.buyerLastName,
      email: orders.buyerEmail,
    })
    .from(orders)
    .where(and(eq(orders.courseDateId, dateId), bookedOnDate))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  const named = booked.filter((o) => !o.isBuyerStudent).map((o) => o.id);
  const students = named.length
    ? await tx
        .select({
          orderId: orderStudents.orderId,
          firstName: orderStudents.firstName,
          lastName: orderStudents.lastName,
          email: orderStudents.email,
        })
        .from(orderStudents)
        .where(inArray(orderStudents.orderId, named))
        .orderBy(asc(orderStudents.position))
    : [];
  const seen = new Set<string>();
  const attendees: DateAttendee[] = [];
  for (const order of booked) {
    const people = order.isBuyerStudent
      ? [{ orderId: order.id, ...order }]
      : students.filter((s) => s.orderId === order.id);
    for (const p of people) {
      const key = p.email.trim().toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      attendees.push({
        orderId: order.id,
        firstName: p.firstName,
        lastName: p.lastName,
        email: p.email.trim(),
      });
    }
  }
  return attendees;
}

/** A date with its course's title, as its letters and invitations name it (null: no such date). */
export async function dateWithCourseTitle(
  tx: Pick<Transaction, "select">,
  dateId: string,
): Promise<{ date: DateRow; courseTitle: string } | null> {
  const [row] = await tx
    .select({ date: courseDates, courseTitle: courses.title })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(eq(courseDates.id, dateId));
  return row ?? null;
}

/** One attendee's letter with its invitation, ready for the outbox. */
export function attendeeEmail(
  kind: string,
  courseTitle: string,
  date: InvitationDate,
  attendee: DateAttendee,
  render: (letter: DateLetter) => { subject: string; html: string; text: string },
  method: InvitationMethod,
): OutgoingEmail {
  return {
    kind,
    to: attendee.email,
    replyTo: config.mailReplyTo,
    orderId: attendee.orderId,
    ...render({ courseTitle, date, student: attendee, orderId: attendee.orderId }),
    calendar: invitationFor(date, courseTitle, attendee, { method }),
  };
}

/**
 * After staff changed a date (times, venue, joining details) or cancelled it: an updated
 * invitation — or the cancellation — for everyone with a place on it, read inside the caller's
 * transaction. The caller raises the date's `sequence` first (so calendars take the new event
 * over the old), queues what this returns in the same transaction, and, for a cancellation, calls
 * this before the date's orders are moved or cancelled: afterwards nobody is booked on it.
 */
export async function dateChangedEmails(
  tx: Transaction,
  dateId: string,
  options: { cancelled: boolean },
): Promise<OutgoingEmail[]> {
  const found = await dateWithCourseTitle(tx, dateId);
  if (!found) return [];
  const { date, courseTitle } = found;
  return (await dateAttendees(tx, dateId)).map((attendee) =>
    options.cancelled
      ? attendeeEmail(
          "course_date_cancelled",
          courseTitle,
          date,
          attendee,
          renderDateCancelled,
          "CANCEL",
        )
      : attendeeEmail(
          "course_date_updated",
          courseTitle,
          date,
          attendee,
          renderDateUpdated,
          "REQUEST",
        ),
  );
}
