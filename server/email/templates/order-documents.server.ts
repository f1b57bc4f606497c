/**
 * The order letters that carry a document (decision 0015): the receipt (a paid card order's VAT
 * receipt attached), the invoice sent by 'Mark Invoiced' (or corrected and re-issued, with the
 * old one's credit note in a letter of its own), and an admin's cancellation (with the credit
 * note when an invoice is credited). The PDF itself is attached by the outbox worker
 * (documentId); the rows and opening come from order.server.ts.
 */
import { formatPence } from "#app/lib/format.ts";
import { BILLING_CORRECTED } from "#app/lib/orders/billing-form.ts";
import type { DocumentSnapshot } from "../../invoices/snapshot.server.ts";
import {
  escapeHtml,
  headerText,
  layout,
  type RenderedEmail,
  type Row,
  rowsHtml,
  rowsText,
  SIGN_OFF_HTML,
  SIGN_OFF_TEXT,
} from "./layout.server.ts";
import { buyerLetterOpening, type OrderEmailData, orderRows } from "./order.server.ts";
import {
  creditedDocumentName,
  documentTitleInSentence,
  orderReference,
} from "#app/lib/orders/orders.ts";

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
    ? `Your ${documentTitleInSentence(receipt.title)} ${receipt.number} is attached as a PDF.`
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

/** The rows an invoice's letters open with: which invoice, of which order, for what. */
function invoiceRows(order: OrderEmailData, invoice: DocumentSnapshot): Row[] {
  return [
    ["Invoice number", invoice.number],
    ["Date of issue", longDate(invoice.issuedAt)],
    ["Order reference", orderReference(order.id)],
    ["Your PO number", invoice.customer.poNumber],
    ["Course", order.courseTitle],
  ];
}

/** An invoice letter's "How to pay": the bank details it prints, and the payment reference. */
function howToPay(invoice: DocumentSnapshot, reference: string): { html: string; text: string[] } {
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
    : (invoice.payment?.instructions ?? "Please reply to this e-mail for our bank details.");
  const referenceNote = `Please use your order reference ${reference} as the payment reference.`;
  const access = "Course access will be provided once payment is received.";
  const card = invoice.payment?.cardUrl;
  return {
    html:
      `<h2 style="font-size:16px">How to pay</h2><p>${escapeHtml(pay)}</p>` +
      (bankRows.length
        ? `<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">${rowsHtml(bankRows)}</table>`
        : "") +
      `<p><strong>${escapeHtml(referenceNote)}</strong></p>` +
      (card
        ? `<p>Or <a href="${escapeHtml(card)}">pay by card online</a> on your booking's page.</p>`
        : "") +
      `<p>${escapeHtml(access)}</p>`,
    text: [
      "How to pay:",
      pay,
      ...(bankRows.length ? [rowsText(bankRows)] : []),
      "",
      referenceNote,
      ...(card ? [`Or pay by card online on your booking's page: ${card}`] : []),
      access,
    ],
  };
}

/** To the buyer on 'Mark Invoiced': the invoice (attached), when it is due and how to pay. */
export function renderInvoiceIssued(
  order: OrderEmailData,
  invoice: DocumentSnapshot,
): RenderedEmail {
  const reference = orderReference(order.id);
  const subject = headerText(`Your invoice ${invoice.number} for order ${reference}`);
  const received = invoice.payment?.receivedCents ?? 0;
  const paidInFull = received > 0 && received >= invoice.totalCents;
  const rows: Row[] = [
    ...invoiceRows(order, invoice),
    ["Places", String(order.quantity)],
    ...amountRows(invoice, received > 0 ? "Total" : "Total due"),
    // Re-invoiced after money arrived (decision 0046): the balance is what is asked.
    ["Received so far", received > 0 ? formatPence(received) : null],
    [
      "Balance due",
      received > 0 && !paidInFull ? formatPence(invoice.totalCents - received) : null,
    ],
    ["Due date", invoice.dueDate ? longDate(invoice.dueDate) : null],
  ];
  const attached = invoice.replaces
    ? `Please find attached our corrected ${documentTitleInSentence(invoice.title)} ${invoice.number} for your booking of ${order.courseTitle}. It replaces ${creditedDocumentName(invoice.replaces)}, which we have credited in full${paidInFull ? "." : ": please pay this one instead."}`
    : `Please find attached our ${documentTitleInSentence(invoice.title)} ${invoice.number} for your booking of ${order.courseTitle}.`;
  const news = paidInFull
    ? `${attached} It is paid in full with what we have received: nothing more is due.`
    : attached;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const pay = paidInFull ? { html: "", text: [] } : howToPay(invoice, reference);
  const html = layout(subject, opening.html + pay.html + SIGN_OFF_HTML);
  const text = [...opening.text, ...pay.text, "", ...SIGN_OFF_TEXT].join("\n");
  return { subject, html, text };
}

/**
 * To the buyer when an invoice is corrected and re-issued: the credit note for the old one
 * (attached); the corrected invoice follows in its own letter.
 */
export function renderInvoiceCredited(
  order: OrderEmailData,
  creditNote: DocumentSnapshot,
  replacement: Pick<DocumentSnapshot, "number">,
): RenderedEmail {
  const reference = orderReference(order.id);
  const credited = creditNote.credits ? creditedDocumentName(creditNote.credits) : "";
  const subject = headerText(`Credit note ${creditNote.number}: ${credited} replaced`);
  const rows: Row[] = [
    ["Credit note", creditNote.number],
    ["Credits", credited],
    ["Replaced by invoice", replacement.number],
    ["Order reference", reference],
    ...amountRows(creditNote, "Total credited"),
  ];
  // The reason says what changed: billing details corrected, or the booking moved.
  const why =
    creditNote.reason && creditNote.reason !== BILLING_CORRECTED
      ? `We have changed your order ${reference} (${creditNote.reason}).`
      : `We have corrected the billing details of your order ${reference}.`;
  const news = `${why} Our credit note ${creditNote.number}, attached as a PDF, cancels ${credited} in full: nothing is due on it. The corrected invoice ${replacement.number} follows in a separate e-mail.`;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const html = layout(subject, opening.html + SIGN_OFF_HTML);
  const text = [...opening.text, ...SIGN_OFF_TEXT].join("\n");
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
    ["Credits", creditNote?.credits ? creditedDocumentName(creditNote.credits) : null],
    ["Reason", creditNote?.reason],
    ...(creditNote ? amountRows(creditNote, "Total credited") : []),
  ];
  const news = `Your booking of ${order.courseTitle} (order ${reference}) has been cancelled.`;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const paragraphs = [
    ...(creditNote
      ? [
          `Our credit note ${creditNote.number} for the whole of ${creditNote.credits ? creditedDocumentName(creditNote.credits) : "your invoice"} is attached as a PDF: nothing is due on it.`,
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

/**
 * To the buyer of an unpaid invoice on the days after its due date (INVOICE_REMINDER_DAYS): what
 * is owed, since when, and how to pay, the invoice attached again.
 */
export function renderInvoiceReminder(
  order: OrderEmailData,
  invoice: DocumentSnapshot,
  owing: { owedCents: number; daysOverdue: number },
): RenderedEmail {
  const reference = orderReference(order.id);
  const due = invoice.dueDate ? longDate(invoice.dueDate) : null;
  const subject = headerText(
    owing.daysOverdue > 0
      ? `Overdue: invoice ${invoice.number} for order ${reference}`
      : `Reminder: invoice ${invoice.number} for order ${reference} is due today`,
  );
  const rows: Row[] = [
    ...invoiceRows(order, invoice),
    ["Due date", due],
    ["Amount due", formatPence(owing.owedCents)],
  ];
  const news =
    owing.daysOverdue > 0
      ? `Our ${documentTitleInSentence(invoice.title)} ${invoice.number} for your booking of ${order.courseTitle} was due on ${due}, ${owing.daysOverdue} ${owing.daysOverdue === 1 ? "day" : "days"} ago, and we have not yet received payment. A copy is attached.`
      : `A friendly reminder that our ${documentTitleInSentence(invoice.title)} ${invoice.number} for your booking of ${order.courseTitle} is due today. A copy is attached.`;
  const opening = buyerLetterOpening(order, { html: escapeHtml(news), text: news }, rows);
  const pay = howToPay(invoice, reference);
  const settled =
    "If you have already paid, thank you, and please ignore this reminder: payments can take a few days to reach us.";
  const html = layout(
    subject,
    opening.html + pay.html + `<p>${escapeHtml(settled)}</p>` + SIGN_OFF_HTML,
  );
  const text = [...opening.text, ...pay.text, "", settled, "", ...SIGN_OFF_TEXT].join("\n");
  return { subject, html, text };
}
