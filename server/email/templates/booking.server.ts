import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
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

/**
 * The booker's page's letters (decision 0037): the signed links to one's bookings ('find my
 * booking', or sent by staff), and a change of student told to the booker, to whoever held the
 * place and, before the booking is paid, to the new student (once paid, the new student gets
 * the joining details instead: order.server.ts).
 */

export interface LinkedBooking {
  reference: string;
  courseTitle: string;
  /** The booked date, if any. */
  startsAt: Date | null;
  endsAt: Date | null;
  url: string;
}

function letter(subject: string, greeting: string, paragraphs: string[], rows: Row[] = []) {
  const table = rows.length
    ? `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>`
    : "";
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(greeting))},</p>` +
      paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
      table +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(greeting)},`,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(rows.length ? [rowsText(rows), ""] : []),
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject: headerText(subject), html, text };
}

/** The links to someone's bookings, one per order, newest first. */
export function renderBookingLinks(firstName: string, bookings: LinkedBooking[]): RenderedEmail {
  const subject = bookings.length === 1 ? "Your NightWatch booking" : "Your NightWatch bookings";
  const intro =
    "Here is the link to each booking made with this address. Each link opens that booking's own page: its date, students, invoices and receipts, where you can also change a student's name. Keep the links to yourself: anyone with a link can see that booking.";
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(firstName))},</p><p>${escapeHtml(intro)}</p><ul>` +
      bookings
        .map(
          (b) =>
            `<li style="margin-bottom:8px"><a href="${escapeHtml(b.url)}">${escapeHtml(b.courseTitle)}</a> (${escapeHtml(b.reference)}${b.startsAt && b.endsAt ? `, ${escapeHtml(formatDateRange(b.startsAt, b.endsAt))}` : ""})</li>`,
        )
        .join("") +
      `</ul><p>If you did not ask for this e-mail, you can ignore it: nothing has changed.</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    `Dear ${greetingName(firstName)},`,
    "",
    intro,
    "",
    ...bookings.flatMap((b) => [
      `${b.courseTitle} (${b.reference}${b.startsAt && b.endsAt ? `, ${formatDateRange(b.startsAt, b.endsAt)}` : ""})`,
      b.url,
      "",
    ]),
    "If you did not ask for this e-mail, you can ignore it: nothing has changed.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject: headerText(subject), html, text };
}

/** Someone holding a place. */
export interface Person {
  firstName: string;
  lastName: string;
  email: string;
}

const nameOf = (p: Person) => greetingName(`${p.firstName} ${p.lastName}`.trim());

export interface StudentChange {
  reference: string;
  courseTitle: string;
  place: number;
  /** Who held the place (null: nobody was named yet). */
  from: Person | null;
  to: Person;
  booker: { firstName: string; name: string; organisation: string | null };
  date: { startsAt: Date; endsAt: Date } | null;
  bookingUrl: string;
  /** Made by staff (at the booker's request) rather than on the booking page. */
  byStaff?: boolean;
}

/** Who booked, as a student reads it: 'Ada Lovelace (Analytical Engines Ltd)'. */
function bookedBy(change: StudentChange): string {
  const { name, organisation } = change.booker;
  return organisation ? `${name} (${organisation})` : name;
}

function changeRows(change: StudentChange): Row[] {
  return [
    ["Order reference", change.reference],
    ["Course", change.courseTitle],
    ["Date", change.date ? formatDateRange(change.date.startsAt, change.date.endsAt) : null],
    ["Place", String(change.place)],
    ["Was", change.from ? `${nameOf(change.from)} <${change.from.email}>` : "Not named yet"],
    ["Now", `${nameOf(change.to)} <${change.to.email}>`],
  ];
}

/** To the booker: the change they made on their page. */
export function renderStudentChangedToBooker(change: StudentChange): RenderedEmail {
  return letter(
    `Student changed: ${change.courseTitle} (${change.reference})`,
    change.booker.firstName,
    [
      `${change.byStaff ? "As you asked us" : "As asked on your booking page"}, place ${change.place} is now held by ${nameOf(change.to)}. We have sent them what they need, and told anyone who held the place before. Your invoice and the price do not change.`,
      `Your booking: ${change.bookingUrl}`,
      "If you did not make this change, reply to this e-mail at once.",
    ],
    changeRows(change),
  );
}

/** To whoever held the place: it has passed to someone else. */
export function renderPlacePassedOn(change: StudentChange & { from: Person }): RenderedEmail {
  const by = bookedBy(change);
  return letter(
    `Your place on ${change.courseTitle} has passed to a colleague`,
    change.from.firstName,
    [
      `${by}, who booked your place on ${change.courseTitle}, has given it to ${nameOf(change.to)}. You no longer hold a place on this booking${change.date ? ", and the calendar invitation we sent you is withdrawn" : ""}.`,
      "If this is a mistake, please speak to the person who booked, or reply to this e-mail.",
    ],
    [
      ["Order reference", change.reference],
      ["Course", change.courseTitle],
      ["Date", change.date ? formatDateRange(change.date.startsAt, change.date.endsAt) : null],
    ],
  );
}

/** To the new student of a booking not paid yet: joining details follow the payment. */
export function renderPlaceGivenBeforePayment(change: StudentChange): RenderedEmail {
  const by = bookedBy(change);
  return letter(
    `A place on ${change.courseTitle} has been booked for you`,
    change.to.firstName,
    [
      `${by} has booked a place for you on ${change.courseTitle}. Your joining instructions will follow by e-mail once the booking is confirmed.`,
    ],
    [
      ["Order reference", change.reference],
      ["Course", change.courseTitle],
      ["Date", change.date ? formatDateRange(change.date.startsAt, change.date.endsAt) : null],
    ],
  );
}

/** A booker's request to move places (decision 0038), as its three letters name it. */
export interface MoveRequestLetter {
  order: {
    id: string;
    buyerFirstName: string;
    buyerLastName: string;
    courseTitleSnapshot: string;
    quantity: number;
  };
  from: { startsAt: Date; endsAt: Date };
  to: { startsAt: Date; endsAt: Date };
  places: number[];
  bookingUrl: string;
  /** Staff's order page (the alert only). */
  orderUrl: string;
}

function moveRows(request: MoveRequestLetter): Row[] {
  return [
    ["Order reference", orderReference(request.order.id)],
    ["Course", request.order.courseTitleSnapshot],
    [
      "Places",
      request.places.length === request.order.quantity
        ? `All (${request.order.quantity})`
        : request.places.join(", "),
    ],
    ["From", formatDateRange(request.from.startsAt, request.from.endsAt)],
    ["To", formatDateRange(request.to.startsAt, request.to.endsAt)],
  ];
}

/** To the booker: their request is with us. */
export function renderMoveRequested(request: MoveRequestLetter): RenderedEmail {
  return letter(
    `We have your request to move places (${orderReference(request.order.id)})`,
    request.order.buyerFirstName,
    [
      `Thank you: we have your request to move places of your booking for ${request.order.courseTitleSnapshot} to another date. Our team will look at it, usually within one working day, and e-mail you either way. Until then your booking stays as it is.`,
      `Your booking's own page: ${request.bookingUrl}`,
    ],
    moveRows(request),
  );
}

/** To staff: a booker asks to move places; approve or decline on the order page. */
export function renderMoveRequestAlert(request: MoveRequestLetter): RenderedEmail {
  const name = `${request.order.buyerFirstName} ${request.order.buyerLastName}`.trim();
  return letter(
    `Move requested: ${orderReference(request.order.id)}, ${request.order.courseTitleSnapshot}`,
    "team",
    [
      `${name} asks to move places of their booking to another date. Approve or decline it on the order page: ${request.orderUrl}`,
    ],
    moveRows(request),
  );
}

/** To the booker: staff could not move the places. */
export function renderMoveDeclined(request: MoveRequestLetter): RenderedEmail {
  return letter(
    `Your request to move places (${orderReference(request.order.id)})`,
    request.order.buyerFirstName,
    [
      `We are sorry: we could not move places of your booking for ${request.order.courseTitleSnapshot} as you asked, so it stays as it was. Reply to this e-mail and we will find another way.`,
      `Your booking's own page: ${request.bookingUrl}`,
    ],
    moveRows(request),
  );
}
