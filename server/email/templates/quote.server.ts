/**
 * The e-mails of a quote (decision 0049): the quotation to the customer, its PDF attached and
 * the link where they accept or decline it; and staff's alerts when it is accepted or declined.
 */
import { formatPence } from "#app/lib/format.ts";
import type { QuoteSnapshot } from "../../quotes/snapshot.server.ts";
import {
  escapeHtml,
  formatCalendarDate,
  greetingName,
  headerText,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
} from "./layout.server.ts";

export function renderQuoteSent(quote: QuoteSnapshot): RenderedEmail {
  const subject = headerText(`Quotation ${quote.number} from NightWatch`);
  const rows: Row[] = [
    ["Quotation", quote.number],
    ["For", quote.customer.organisation],
    ["Total", formatPence(quote.totalCents)],
    ["Valid until", formatCalendarDate(quote.validUntil)],
  ];
  const greeting = `Dear ${greetingName(quote.customer.name)},`;
  const intro =
    "Thank you for your enquiry. Please find our quotation attached as a PDF. You can accept it (with your purchase order number) or decline it online:";
  const html = layout(
    subject,
    `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>` +
      `<p><a href="${escapeHtml(quote.acceptUrl)}" style="display:inline-block;padding:10px 16px;background:#0e7490;color:#fff;border-radius:6px;text-decoration:none">View and accept the quotation</a></p>` +
      `<table>${rowsHtml(rows)}</table>` +
      `<p>Once it is accepted we send the invoice. If anything needs changing, reply to this e-mail and we will revise it.</p><p>Kind regards,<br>NightWatch</p>`,
  );
  const text = [
    greeting,
    "",
    intro,
    quote.acceptUrl,
    "",
    rowsText(rows),
    "",
    "Once it is accepted we send the invoice. If anything needs changing, reply to this e-mail and we will revise it.",
    "",
    "Kind regards,",
    "NightWatch",
  ].join("\n");
  return { subject, html, text };
}

export interface QuoteOutcomeData {
  number: string;
  organisation: string;
  contactEmail: string;
  totalCents: number;
  /** Accepted: who, their role, the PO and the order made. */
  accepted?: { name: string; role: string; poNumber: string | null; orderReference: string };
  /** Declined: why, if they said. */
  declined?: { reason: string | null };
  adminUrl: string;
}

/** Staff's alert: a quote was accepted or declined by the customer. */
export function renderQuoteOutcome(data: QuoteOutcomeData): RenderedEmail {
  const verb = data.accepted ? "accepted" : "declined";
  const subject = headerText(`Quote ${data.number} ${verb} by ${data.organisation}`);
  const rows: Row[] = [
    ["Quote", data.number],
    ["Organisation", data.organisation],
    ["Contact", data.contactEmail],
    ["Total", formatPence(data.totalCents)],
    ...(data.accepted
      ? ([
          ["Accepted by", `${data.accepted.name}, ${data.accepted.role}`],
          ["PO number", data.accepted.poNumber ?? "none given"],
          ["Order", data.accepted.orderReference],
        ] as Row[])
      : ([["Reason", data.declined?.reason ?? "none given"]] as Row[])),
  ];
  const html = layout(
    subject,
    `<p>Quote ${escapeHtml(data.number)} was ${verb} online.</p><table>${rowsHtml(rows)}</table><p><a href="${escapeHtml(data.adminUrl)}">Open the quote</a></p>`,
  );
  const text = [
    `Quote ${data.number} was ${verb} online.`,
    "",
    rowsText(rows),
    "",
    data.adminUrl,
  ].join("\n");
  return { subject, html, text };
}
