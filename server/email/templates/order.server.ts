import {
  formatDateRange,
  formatUkDateTime,
  fullRefundDeadline,
} from "#app/lib/catalogue/course-dates.ts";
import { formatPence } from "#app/lib/format.ts";
import type { courseDates } from "../../db/schema.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";
import { orderReference, PAYMENT_METHOD_LABELS } from "#app/lib/orders/orders.ts";
import {
  escapeHtml,
  greetingName,
  HELD_CONFIRMATION_NOTE,
  headerText,
  heldNoticeHtml,
  heldSubject,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
  SIGN_OFF_HTML,
  SIGN_OFF_TEXT,
} from "./layout.server.ts";
import {
  type OrderBooking,
  type OrderRow,
  type OrderStudent,
} from "../../orders/records.server.ts";

/**
 * How an order's e-mails read (decision 0005): the invoice request's alert to the admin
 * mailboxes and confirmation to the buyer, and the joining details to each student, with the
 * rows and opening they share with the document letters (order-documents.server.ts).
 * Everything a visitor typed is escaped in the HTML. Mails to the buyer and students go to
 * addresses nobody has verified, so what was typed is echoed short: names are cut to a
 * greeting's length (staff's alert keeps them whole). Who receives which, and when:
 * server/orders/emails.server.ts.
 */
export type OrderEmailData = OrderBooking &
  Pick<OrderRow, "id" | "createdAt"> &
  /** The order's VAT (absent or 0: no VAT charged, nothing said about it). */
  Partial<Pick<OrderRow, "vatAmountCents" | "vatRateBasisPoints" | "pricesIncludeVat">> & {
    /** The attendees: the buyer when they are the student, else the named colleagues. */
    students: OrderStudent[];
    /** The dated places booked (absent: an on-demand course). */
    date?: BookedDate | null;
    /** The booker's page (decision 0037), by its signed link: in the buyer's letters. */
    bookingUrl?: string | null;
  };

/** A booked date as the order's letters name it (joining details: to booked people only). */
export type BookedDate = Pick<
  typeof courseDates.$inferSelect,
  | "startsAt"
  | "endsAt"
  | "format"
  | "schedule"
  | "venueName"
  | "venueAddress"
  | "venueTown"
  | "joiningDetails"
>;

/** When and where, and until when a cancellation is refunded in full (the terms). */
export function dateRows(date: BookedDate | null | undefined): Row[] {
  if (!date) return [];
  return [
    ["Date", formatDateRange(date.startsAt, date.endsAt)],
    ["Schedule", date.schedule],
    [
      "Where",
      date.format === "online"
        ? "Live online (joining details are sent to each student)"
        : [date.venueName, date.venueAddress].filter(Boolean).join(", "),
    ],
    ["Full refund if cancelled before", formatUkDateTime(fullRefundDeadline(date))],
  ];
}

export const fullName = (p: { firstName: string; lastName: string }) =>
  `${p.firstName} ${p.lastName}`;

/** Who receives it: staff (names whole) or the buyer/students (names cut short). */
export type Audience = "staff" | "visitor";

export const nameFor = (p: { firstName: string; lastName: string }, audience: Audience) =>
  audience === "staff" ? fullName(p) : greetingName(fullName(p));

export function studentLines(order: OrderEmailData, audience: Audience): string[] {
  return order.students.map((s, i) => `${i + 1}. ${nameFor(s, audience)} <${s.email}>`);
}

export function studentsHtml(order: OrderEmailData, audience: Audience): string {
  return `<ol style="margin:4px 0 16px;padding-left:20px">${order.students
    .map((s) => `<li>${escapeHtml(nameFor(s, audience))} &lt;${escapeHtml(s.email)}&gt;</li>`)
    .join("")}</ol>`;
}

/** The price per place, and with VAT charged, whether it includes VAT and the VAT itself. */
export function vatRows(order: OrderEmailData): Row[] {
  const vat = order.vatAmountCents ?? 0;
  if (vat <= 0) return [["Price per place", formatPence(order.unitPriceCents)]];
  const rate = formatVatRate(order.vatRateBasisPoints ?? 0);
  return [
    [
      `Price per place (${order.pricesIncludeVat ? "incl." : "excl."} VAT)`,
      formatPence(order.unitPriceCents),
    ],
    [order.pricesIncludeVat ? `Of which VAT (${rate})` : `VAT (${rate})`, formatPence(vat)],
  ];
}

export function orderRows(order: OrderEmailData): Row[] {
  return [
    ["Order reference", orderReference(order.id)],
    ["Course", order.courseTitle],
    ...dateRows(order.date),
    ["Places", String(order.quantity)],
    ...vatRows(order),
    ["Total", formatPence(order.totalAmountCents)],
    ["Payment method", PAYMENT_METHOD_LABELS[order.paymentMethod]],
  ];
}

export function buyerRows(order: OrderEmailData): Row[] {
  return [
    ["Name", `${order.buyerFirstName} ${order.buyerLastName}`],
    ["Email", order.buyerEmail],
    ["Company", order.buyerCompany],
    ["Phone", order.buyerPhone],
    ["Attending", order.isBuyerStudent ? "The buyer" : `${order.quantity} named student(s)`],
  ];
}

/**
 * How each letter to the buyer opens: the greeting, the news (`html` already escaped), the
 * order's details and who attends. The text ends with a blank line, ready for what follows.
 */
const BOOKING_PAGE_TEXT =
  "Your booking's own page shows its details, invoices and receipts, and lets you change a student's name:";

export function buyerLetterOpening(
  order: OrderEmailData,
  news: { html: string; text: string },
  rows: Row[],
): { html: string; text: string[] } {
  return {
    html:
      `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      `<p>${news.html}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Students</h2>${studentsHtml(order, "visitor")}` +
      (order.bookingUrl
        ? `<p>${escapeHtml(BOOKING_PAGE_TEXT)} <a href="${escapeHtml(order.bookingUrl)}">Open your booking</a></p>`
        : ""),
    text: [
      `Dear ${greetingName(order.buyerFirstName)},`,
      "",
      news.text,
      "",
      rowsText(rows),
      "",
      "Students:",
      ...studentLines(order, "visitor"),
      "",
      ...(order.bookingUrl ? [BOOKING_PAGE_TEXT, order.bookingUrl, ""] : []),
    ],
  };
}

/**
 * To the admin mailboxes: a booking to invoice. Reply-To is the buyer. `held`: the buyer's
 * confirmation was held (per-recipient limit), and the alert says so.
 */
export function renderInvoiceRequestAlert(
  order: OrderEmailData,
  adminUrl: string,
  options: { held?: boolean } = {},
): RenderedEmail {
  const plainSubject = headerText(
    `Invoice requested (${orderReference(order.id)}): ${order.courseTitle} × ${order.quantity} – ${formatPence(order.totalAmountCents)}`,
  );
  const subject = options.held ? heldSubject(plainSubject) : plainSubject;
  const rows = [...orderRows(order), ...buyerRows(order)];
  const html = layout(
    subject,
    (options.held ? heldNoticeHtml(HELD_CONFIRMATION_NOTE) : "") +
      `<h1 style="font-size:20px;margin:0 0 16px">A booking is waiting for an invoice</h1>` +
      `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Students</h2>${studentsHtml(order, "staff")}` +
      `<p>Send the invoice within 24 hours, then mark the order invoiced in <a href="${escapeHtml(adminUrl)}">Payments</a>.</p>`,
  );
  const text = [
    ...(options.held ? [`HELD. ${HELD_CONFIRMATION_NOTE}`, ""] : []),
    "A booking is waiting for an invoice",
    "",
    rowsText(rows),
    "",
    "Students:",
    ...studentLines(order, "staff"),
    "",
    `Send the invoice within 24 hours, then mark the order invoiced: ${adminUrl}`,
  ].join("\n");
  return { subject, html, text };
}

/** To the buyer: the booking was received and an invoice follows within 24 hours. */
export function renderInvoiceRequestConfirmation(order: OrderEmailData): RenderedEmail {
  const subject = headerText(
    `Booking received: ${order.courseTitle} (${orderReference(order.id)})`,
  );
  const rows = orderRows(order);
  const next = [
    "Your booking request will be reviewed by our team.",
    "You'll receive an invoice by e-mail within 24 hours.",
    "Course access will be provided once payment is received.",
    "Joining instructions will be sent to each student.",
  ];
  const news =
    "Thank you for booking with NightWatch. We have received your booking and will send you an invoice shortly.";
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const html = layout(
    subject,
    opening.html +
      `<h2 style="font-size:16px">What happens next</h2><ol>${next.map((s) => `<li>${escapeHtml(s)}</li>`).join("")}</ol>` +
      `<p>Please quote your order reference in any correspondence.</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    ...opening.text,
    "What happens next:",
    ...next.map((s, i) => `${i + 1}. ${s}`),
    "",
    "Please quote your order reference in any correspondence.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

/** To one student (their own address) once the order is paid. */
export function renderJoiningDetails(
  order: OrderEmailData,
  student: { firstName: string; lastName: string; email: string },
  courseUrl: string | null,
): RenderedEmail {
  const subject = headerText(`You're booked on ${order.courseTitle} – joining details`);
  const bookedBy = order.isBuyerStudent
    ? "Your place is confirmed."
    : `${greetingName(`${order.buyerFirstName} ${order.buyerLastName}`)}${order.buyerCompany ? ` (${greetingName(order.buyerCompany)})` : ""} has booked a place for you.`;
  const date = order.date ?? null;
  const rows: Row[] = [
    ["Course", order.courseTitle],
    ...(date
      ? ([
          ["Date", formatDateRange(date.startsAt, date.endsAt)],
          ["Schedule", date.schedule],
          [
            "Where",
            date.format === "online"
              ? "Live online"
              : [date.venueName, date.venueAddress].filter(Boolean).join(", "),
          ],
          ["How to join", date.format === "online" ? date.joiningDetails : null],
        ] satisfies Row[])
      : []),
    ["Student", greetingName(fullName(student))],
    ["Order reference", orderReference(order.id)],
    ["Course page", courseUrl],
  ];
  const enrolled = date
    ? `You have a place on ${date.format === "online" ? "the live online session" : "the classroom course"}`
    : "You are enrolled on the online course";
  const instructions = date
    ? date.format === "online"
      ? "Join with the details above a few minutes before the start. Please keep them to yourself: they are for booked students only."
      : "Please arrive 15 minutes before the start and bring photo ID. Lunch and refreshments are provided on full days."
    : "Our training team will e-mail your personal course access details to this address within 24 hours. Please add this address to your contacts and check your spam folder if nothing arrives.";
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(student.firstName))},</p>` +
      `<p>${escapeHtml(bookedBy)} ${escapeHtml(enrolled)} <strong>${escapeHtml(order.courseTitle)}</strong>.</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Joining instructions</h2>` +
      `<p>${escapeHtml(instructions)}</p>` +
      `<p>Questions? Reply to this e-mail and quote your order reference.</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    `Dear ${greetingName(student.firstName)},`,
    "",
    `${bookedBy} ${enrolled} ${order.courseTitle}.`,
    "",
    rowsText(rows),
    "",
    "Joining instructions:",
    instructions,
    "",
    "Questions? Reply to this e-mail and quote your order reference.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}
