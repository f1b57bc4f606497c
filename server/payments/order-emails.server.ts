import { eq } from "drizzle-orm";
import { formatPence } from "#app/lib/format.ts";
import { formatVatRate } from "#app/lib/vat.ts";
import { orderReference, PAYMENT_METHOD_LABELS, type PaymentMethod } from "#app/lib/orders.ts";
import { config } from "../config.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { courses } from "../db/schema.ts";
import type { OutgoingEmail } from "../email/outbox.server.ts";
import type { DocumentRow, DocumentSnapshot } from "../invoices/documents.server.ts";
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
} from "../email/templates.server.ts";
import {
  orderBooking,
  studentsOfOrder,
  type OrderRow,
  type OrderStudent,
} from "../orders/records.server.ts";

/**
 * The e-mails an order sends (issue 5 item 7): on an invoice request, an alert to the admin
 * mailboxes and a confirmation to the buyer; when it is paid, a receipt to the buyer and joining
 * details to each student. Everything a visitor typed is escaped in the HTML. Mails to the buyer
 * and students go to addresses nobody has verified, so what was typed is echoed short: names
 * are cut to a greeting's length (staff's alert keeps them whole). The first half renders each
 * e-mail; the second addresses them for an order, ready for the outbox.
 *
 * Issue 16 adds the documents: 'Mark Invoiced' sends the invoice, a paid card order's receipt
 * carries its VAT receipt, and an admin's cancellation may tell the buyer (with the credit note
 * when an invoice is credited). The PDF itself is attached by the outbox worker (documentId).
 */

export interface OrderEmailData {
  id: string;
  paymentMethod: PaymentMethod;
  buyerFirstName: string;
  buyerLastName: string;
  buyerEmail: string;
  buyerPhone: string | null;
  buyerCompany: string | null;
  courseTitle: string;
  unitPriceCents: number;
  quantity: number;
  totalAmountCents: number;
  /** The order's VAT (absent or 0: no VAT charged, nothing said about it). */
  vatAmountCents?: number;
  vatRateBasisPoints?: number;
  pricesIncludeVat?: boolean;
  isBuyerStudent: boolean;
  createdAt: Date;
  /** The attendees: the buyer when they are the student, else the named colleagues. */
  students: { firstName: string; lastName: string; email: string }[];
}

const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** Who receives it: staff (names whole) or the buyer/students (names cut short). */
type Audience = "staff" | "visitor";

const nameFor = (p: { firstName: string; lastName: string }, audience: Audience) =>
  audience === "staff" ? fullName(p) : greetingName(fullName(p));

function studentLines(order: OrderEmailData, audience: Audience): string[] {
  return order.students.map((s, i) => `${i + 1}. ${nameFor(s, audience)} <${s.email}>`);
}

function studentsHtml(order: OrderEmailData, audience: Audience): string {
  return `<ol style="margin:4px 0 16px;padding-left:20px">${order.students
    .map((s) => `<li>${escapeHtml(nameFor(s, audience))} &lt;${escapeHtml(s.email)}&gt;</li>`)
    .join("")}</ol>`;
}

/** The price per place, and with VAT charged, whether it includes VAT and the VAT itself. */
function vatRows(order: OrderEmailData): Row[] {
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

function orderRows(order: OrderEmailData): Row[] {
  return [
    ["Order reference", orderReference(order.id)],
    ["Course", order.courseTitle],
    ["Places", String(order.quantity)],
    ...vatRows(order),
    ["Total", formatPence(order.totalAmountCents)],
    ["Payment method", PAYMENT_METHOD_LABELS[order.paymentMethod]],
  ];
}

function buyerRows(order: OrderEmailData): Row[] {
  return [
    ["Name", `${order.buyerFirstName} ${order.buyerLastName}`],
    ["Email", order.buyerEmail],
    ["Company", order.buyerCompany],
    ["Phone", order.buyerPhone],
    ["Attending", order.isBuyerStudent ? "The buyer" : `${order.quantity} named student(s)`],
  ];
}

const SIGN_OFF_HTML = "<p>Kind regards,<br>The NightWatch training team</p>";
const SIGN_OFF_TEXT = ["Kind regards,", "The NightWatch training team"];

/**
 * How each letter to the buyer opens: the greeting, the news (`html` already escaped), the
 * order's details and who attends. The text ends with a blank line, ready for what follows.
 */
function buyerLetterOpening(
  order: OrderEmailData,
  news: { html: string; text: string },
  rows: Row[],
): { html: string; text: string[] } {
  return {
    html:
      `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      `<p>${news.html}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Students</h2>${studentsHtml(order, "visitor")}`,
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

/** A document's title inside a sentence: 'VAT invoice', 'invoice', 'receipt'. */
const inSentence = (title: string) => (title.startsWith("VAT") ? title : title.toLowerCase());

/** To the buyer once the order is paid; `receipt`: the VAT receipt attached to it. */
export function renderReceipt(
  order: OrderEmailData,
  paidAt: Date,
  receipt: Pick<DocumentSnapshot, "title" | "number"> | null = null,
): RenderedEmail {
  const subject = headerText(
    `Payment received: ${order.courseTitle} (${orderReference(order.id)})`,
  );
  const paidOn = new Intl.DateTimeFormat("en-GB", {
    dateStyle: "long",
    timeZone: "Europe/London",
  }).format(paidAt);
  const rows: Row[] = [
    ...orderRows(order),
    ["Paid on", paidOn],
    [receipt ? `${receipt.title} number` : "Receipt", receipt?.number],
  ];
  const amount = formatPence(order.totalAmountCents);
  const opening = buyerLetterOpening(
    order,
    {
      html: `Thank you. We have received your payment of <strong>${escapeHtml(amount)}</strong> for ${escapeHtml(order.courseTitle)}.`,
      text: `Thank you. We have received your payment of ${amount} for ${order.courseTitle}.`,
    },
    rows,
  );
  const access =
    "Each student will receive their course access details by e-mail within 24 hours. If nothing arrives, please check the spam folder, then reply to this e-mail.";
  const attached = receipt
    ? `Your ${inSentence(receipt.title)} ${receipt.number} is attached as a PDF.`
    : null;
  const html = layout(
    subject,
    `${opening.html}${attached ? `<p>${escapeHtml(attached)}</p>` : ""}<p>${escapeHtml(access)}</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    ...opening.text,
    ...(attached ? [attached, ""] : []),
    access,
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

const longDate = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "Europe/London" }).format(
    new Date(iso),
  );

/** A document's amounts as rows: net and VAT when VAT is charged, then the total. */
function amountRows(document: DocumentSnapshot, totalLabel: string): Row[] {
  return [
    ["Net", document.vatRegistered ? formatPence(document.netCents) : null],
    ["VAT", document.vatRegistered ? formatPence(document.vatCents) : null],
    [totalLabel, formatPence(document.totalCents)],
  ];
}

/** To the buyer on 'Mark Invoiced': the invoice (attached), when it is due and how to pay. */
export function renderInvoiceIssued(
  order: OrderEmailData,
  invoice: DocumentSnapshot,
): RenderedEmail {
  const reference = orderReference(order.id);
  const subject = headerText(`Your invoice ${invoice.number} for order ${reference}`);
  const rows: Row[] = [
    ["Invoice number", invoice.number],
    ["Date of issue", longDate(invoice.issuedAt)],
    ["Order reference", reference],
    ["Your PO number", invoice.customer.poNumber],
    ["Course", order.courseTitle],
    ["Places", String(order.quantity)],
    ...amountRows(invoice, "Total due"),
    ["Due date", invoice.dueDate ? longDate(invoice.dueDate) : null],
  ];
  const news = `Please find attached our ${inSentence(invoice.title)} ${invoice.number} for your booking of ${order.courseTitle}.`;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const bank = invoice.payment?.bank;
  const bankRows: Row[] = bank
    ? [
        ["Account name", bank.accountName],
        ["Sort code", bank.sortCode],
        ["Account number", bank.accountNumber],
        ["IBAN", bank.iban],
      ]
    : [];
  const pay = bank
    ? "Please pay by bank transfer to:"
    : "Please reply to this e-mail for our bank details.";
  const referenceNote = `Please use your order reference ${reference} as the payment reference.`;
  const access = "Course access will be provided once payment is received.";
  const html = layout(
    subject,
    opening.html +
      `<h2 style="font-size:16px">How to pay</h2><p>${escapeHtml(pay)}</p>` +
      (bankRows.length
        ? `<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">${rowsHtml(bankRows)}</table>`
        : "") +
      `<p><strong>${escapeHtml(referenceNote)}</strong></p><p>${escapeHtml(access)}</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    ...opening.text,
    "How to pay:",
    pay,
    ...(bankRows.length ? [rowsText(bankRows)] : []),
    "",
    referenceNote,
    access,
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

/** To the buyer when an admin cancels the order and chose to tell them; `creditNote` attached. */
export function renderOrderCanceled(
  order: OrderEmailData,
  creditNote: DocumentSnapshot | null,
): RenderedEmail {
  const reference = orderReference(order.id);
  const subject = headerText(`Your order ${reference} has been cancelled`);
  const rows: Row[] = [
    ...orderRows(order),
    ["Credit note", creditNote?.number],
    ["Credits invoice", creditNote?.credits?.number],
    ...(creditNote ? amountRows(creditNote, "Total credited") : []),
  ];
  const news = `Your booking of ${order.courseTitle} (order ${reference}) has been cancelled.`;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const paragraphs = [
    ...(creditNote
      ? [
          `Our credit note ${creditNote.number} for the whole of invoice ${creditNote.credits?.number ?? ""} is attached as a PDF: nothing is due on that invoice.`,
        ]
      : ["Nothing is due for this order."]),
    "If you have already paid for it, or think this is a mistake, please reply to this e-mail quoting your order reference.",
  ];
  const html = layout(
    subject,
    opening.html + paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") + SIGN_OFF_HTML,
  );
  const text = [...opening.text, ...paragraphs.flatMap((p) => [p, ""]), ...SIGN_OFF_TEXT].join(
    "\n",
  );
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
  const rows: Row[] = [
    ["Course", order.courseTitle],
    ["Student", greetingName(fullName(student))],
    ["Order reference", orderReference(order.id)],
    ["Course page", courseUrl],
  ];
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(student.firstName))},</p>` +
      `<p>${escapeHtml(bookedBy)} You are enrolled on the online course <strong>${escapeHtml(order.courseTitle)}</strong>.</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Joining instructions</h2>` +
      `<p>Our training team will e-mail your personal course access details to this address within 24 hours. Please add this address to your contacts and check your spam folder if nothing arrives.</p>` +
      `<p>Questions? Reply to this e-mail and quote your order reference.</p>${SIGN_OFF_HTML}`,
  );
  const text = [
    `Dear ${greetingName(student.firstName)},`,
    "",
    `${bookedBy} You are enrolled on the online course ${order.courseTitle}.`,
    "",
    rowsText(rows),
    "",
    "Joining instructions:",
    "Our training team will e-mail your personal course access details to this address within 24 hours. Please add this address to your contacts and check your spam folder if nothing arrives.",
    "",
    "Questions? Reply to this e-mail and quote your order reference.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

/* ------------------------------------------------------------------------------------------ */
/* Addressed for an order, ready for the outbox                                                 */

function orderEmailData(order: OrderRow, students: OrderStudent[]): OrderEmailData {
  return {
    id: order.id,
    ...orderBooking(order),
    vatAmountCents: order.vatAmountCents,
    vatRateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
    createdAt: order.createdAt,
    students: order.isBuyerStudent
      ? [
          {
            firstName: order.buyerFirstName,
            lastName: order.buyerLastName,
            email: order.buyerEmail,
          },
        ]
      : students,
  };
}

/**
 * One of an order's e-mails, ready for the outbox; replies go to the training team's mailbox
 * unless said otherwise (staff's alert: to the buyer).
 */
function orderEmail(
  order: OrderRow,
  kind: string,
  to: string | string[],
  rendered: RenderedEmail,
  replyTo: string | null = config.mailReplyTo,
): OutgoingEmail {
  return { kind, to, replyTo, orderId: order.id, ...rendered };
}

/** An invoice request's two e-mails: the alert to staff and the confirmation to the buyer. */
export function invoiceRequestEmails(
  order: OrderRow,
  students: OrderStudent[],
  options: { held?: boolean } = {},
): OutgoingEmail[] {
  const data = orderEmailData(order, students);
  const adminUrl = `${config.publicUrl}/admin/payments`;
  return [
    orderEmail(
      order,
      "invoice_request_alert",
      config.adminEmails,
      renderInvoiceRequestAlert(data, adminUrl, options),
      order.buyerEmail,
    ),
    orderEmail(
      order,
      "invoice_request_confirmation",
      order.buyerEmail,
      renderInvoiceRequestConfirmation(data),
    ),
  ];
}

/**
 * The receipt to the buyer and joining details to every student, for an order just paid; read
 * inside the transaction that marks it paid, so the e-mails are queued with the change. A card
 * order's VAT receipt (`receipt`, issued in that transaction) is attached to the buyer's.
 */
export async function paidOrderEmails(
  tx: Transaction,
  order: OrderRow,
  options: { receipt?: DocumentRow | null; paidAt?: Date } = {},
): Promise<OutgoingEmail[]> {
  const students = await studentsOfOrder(tx, order.id);
  const [course] = order.courseId
    ? await tx.select({ slug: courses.slug }).from(courses).where(eq(courses.id, order.courseId))
    : [];
  const courseUrl = course
    ? `${config.publicUrl}/courses/${encodeURIComponent(course.slug)}`
    : null;
  const data = orderEmailData(order, students);
  const receipt = options.receipt ?? null;
  return [
    {
      ...orderEmail(
        order,
        "order_receipt",
        order.buyerEmail,
        renderReceipt(
          data,
          options.paidAt ?? new Date(),
          receipt ? (receipt.snapshot as DocumentSnapshot) : null,
        ),
      ),
      documentId: receipt?.id ?? null,
    },
    ...data.students.map((student) =>
      orderEmail(
        order,
        "course_joining_details",
        student.email,
        renderJoiningDetails(data, student, courseUrl),
      ),
    ),
  ];
}

/** 'Mark Invoiced': the invoice, to the buyer, with the invoice attached. */
export function invoiceIssuedEmail(
  order: OrderRow,
  students: OrderStudent[],
  invoice: DocumentRow,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "invoice_issued",
      order.buyerEmail,
      renderInvoiceIssued(orderEmailData(order, students), invoice.snapshot as DocumentSnapshot),
    ),
    documentId: invoice.id,
  };
}

/** An admin's cancellation, told to the buyer; the credit note attached when one was issued. */
export function orderCanceledEmail(
  order: OrderRow,
  students: OrderStudent[],
  creditNote: DocumentRow | null,
): OutgoingEmail {
  return {
    ...orderEmail(
      order,
      "order_canceled",
      order.buyerEmail,
      renderOrderCanceled(
        orderEmailData(order, students),
        creditNote ? (creditNote.snapshot as DocumentSnapshot) : null,
      ),
    ),
    documentId: creditNote?.id ?? null,
  };
}
