import { formatDateRange, formatUkDay } from "#app/lib/catalogue/course-dates.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import {
  escapeHtml,
  greetingName,
  headerText,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
  SIGN_OFF_HTML,
  SIGN_OFF_TEXT,
} from "./layout.server.ts";
import { fullName, type BookedDate } from "./order.server.ts";

/**
 * How a booked student's letters about their course date read (decision 0033): the reminder
 * before it starts, and the updated invitation or cancellation when staff change the date. Each
 * carries the calendar invitation (invite.ics). The student's address is nobody's verified one,
 * so their name is cut to a greeting's length; everything typed is escaped in the HTML. Who
 * receives them, and when: server/catalogue/date-invitations.server.ts and
 * server/catalogue/date-reminders.server.ts.
 */

/** One student's place on a date, as these letters name it. */
export interface DateLetter {
  courseTitle: string;
  date: BookedDate;
  student: { firstName: string; lastName: string };
  orderId: string;
}

function whereText(date: BookedDate): string {
  return date.format === "online"
    ? "Live online"
    : [date.venueName, date.venueAddress].filter(Boolean).join(", ");
}

/** When, where and how to join (joining details: booked students only). */
function placeRows(letter: DateLetter): Row[] {
  const { date } = letter;
  return [
    ["Course", letter.courseTitle],
    ["Date", formatDateRange(date.startsAt, date.endsAt)],
    ["Schedule", date.schedule],
    ["Where", whereText(date)],
    ["How to join", date.format === "online" ? date.joiningDetails : null],
    ["Student", greetingName(fullName(letter.student))],
    ["Order reference", orderReference(letter.orderId)],
  ];
}

function instructions(date: BookedDate): string {
  return date.format === "online"
    ? "Join with the details above a few minutes before the start. Please keep them to yourself: they are for booked students only."
    : "Please arrive 15 minutes before the start and bring photo ID. Lunch and refreshments are provided on full days.";
}

function letter(
  subject: string,
  firstName: string,
  paragraphs: string[],
  rows: Row[],
  closing: string[],
): RenderedEmail {
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(firstName))},</p>` +
      paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
      (rows.length
        ? `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>`
        : "") +
      closing.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(firstName)},`,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(rows.length ? [rowsText(rows), ""] : []),
    ...closing.flatMap((p) => [p, ""]),
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

const CALENDAR_NOTE =
  "The invitation attached (invite.ics) puts the course in your calendar, or updates it there.";
const QUESTIONS = "Questions? Reply to this e-mail and quote your order reference.";

/** A few days before the start: when, where, how to join, and what to bring. */
export function renderDateReminder(place: DateLetter): RenderedEmail {
  const subject = headerText(
    `Reminder: ${place.courseTitle} on ${formatUkDay(new Date(place.date.startsAt))}`,
  );
  return letter(
    subject,
    place.student.firstName,
    [`A reminder that your place on ${place.courseTitle} is coming up soon.`],
    placeRows(place),
    [instructions(place.date), CALENDAR_NOTE, QUESTIONS],
  );
}

/** Staff changed the date (times, venue, joining details): the new details and invitation. */
export function renderDateUpdated(place: DateLetter): RenderedEmail {
  const subject = headerText(
    `Updated: ${place.courseTitle} on ${formatUkDay(new Date(place.date.startsAt))}`,
  );
  return letter(
    subject,
    place.student.firstName,
    [
      `The details of your place on ${place.courseTitle} have changed. Please read them again below: they replace what we sent before.`,
    ],
    placeRows(place),
    [instructions(place.date), CALENDAR_NOTE, QUESTIONS],
  );
}

/** Staff cancelled the date: the cancellation takes it out of the student's calendar. */
export function renderDateCancelled(place: DateLetter): RenderedEmail {
  const subject = headerText(
    `Cancelled: ${place.courseTitle} on ${formatUkDay(new Date(place.date.startsAt))}`,
  );
  return letter(
    subject,
    place.student.firstName,
    [
      `We are sorry: the date of ${place.courseTitle} you had a place on, ${formatDateRange(place.date.startsAt, place.date.endsAt)}, has been cancelled.`,
      "Whoever booked your place will hear from us about the booking itself.",
    ],
    [
      ["Course", place.courseTitle],
      ["Order reference", orderReference(place.orderId)],
    ],
    ["The cancellation attached (invite.ics) takes the course out of your calendar.", QUESTIONS],
  );
}

/**
 * Staff moved the student's place to another date (decision 0038): the new date with its joining
 * details and invitation. The old date's cancellation follows in `renderPlaceLeftDate`.
 */
export function renderPlaceMoved(place: DateLetter & { was: BookedDate }): RenderedEmail {
  const subject = headerText(
    `Moved: ${place.courseTitle}, now on ${formatUkDay(new Date(place.date.startsAt))}`,
  );
  return letter(
    subject,
    place.student.firstName,
    [
      `Your place on ${place.courseTitle} has moved from ${formatDateRange(place.was.startsAt, place.was.endsAt)} to the date below. These details replace what we sent before.`,
    ],
    placeRows(place),
    [instructions(place.date), CALENDAR_NOTE, QUESTIONS],
  );
}

/** The date a moved place left: the cancellation takes it out of the student's calendar. */
export function renderPlaceLeftDate(place: DateLetter): RenderedEmail {
  const subject = headerText(
    `Not this date: ${place.courseTitle} on ${formatUkDay(new Date(place.date.startsAt))}`,
  );
  return letter(
    subject,
    place.student.firstName,
    [
      `Your place on ${place.courseTitle} is no longer on ${formatDateRange(place.date.startsAt, place.date.endsAt)}: it has moved to another date, whose details and invitation we have sent separately.`,
    ],
    [
      ["Course", place.courseTitle],
      ["Order reference", orderReference(place.orderId)],
    ],
    ["The cancellation attached (invite.ics) takes the old date out of your calendar.", QUESTIONS],
  );
}
