import { formatPence } from "#app/lib/format.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";
import { formatDocumentDate } from "./pdf-text.server.ts";
import type { DocumentSnapshot } from "./snapshot.server.ts";

/**
 * What a document PDF says of its money (pdf.server.ts draws it): the totals under its table
 * and, on an invoice, how to pay. An invoice issued after money arrived (decision 0046) also
 * states what was received and the balance due, or that it is paid in full.
 */

/** A row of the totals: its label, its amount, and whether it is a total (ruled, in bold). */
export type TotalsRow = [label: string, value: string, strong: boolean];

/** A titled part of the closing: paragraphs, then label and value rows (those with a value). */
export interface Section {
  title: string;
  paragraphs: string[];
  rows: [string, string | undefined][];
  /** The booker's page, where the balance may be paid by card. */
  cardUrl?: string | null;
}

/** What the order had received when its invoice was issued; 0 on any other document. */
export function receivedCents(s: DocumentSnapshot): number {
  return s.kind === "invoice" ? (s.payment?.receivedCents ?? 0) : 0;
}

/** Net, VAT and the total; then what was received and the balance due, if anything was. */
export function totalsRows(s: DocumentSnapshot): TotalsRow[] {
  const rates = [...new Set(s.lines.map((l) => l.vatRateBasisPoints))];
  const received = receivedCents(s);
  const totalLabel =
    s.kind === "credit_note"
      ? "Total credited"
      : s.kind === "receipt"
        ? "Total paid"
        : received > 0
          ? "Total"
          : "Total due";
  const rows: TotalsRow[] = s.vatRegistered
    ? [
        ["Total excl. VAT (net)", formatPence(s.netCents), false],
        [
          rates.length === 1 ? `VAT at ${formatVatRate(rates[0]!)}` : "VAT",
          formatPence(s.vatCents),
          false,
        ],
        [`${totalLabel} (${s.currency})`, formatPence(s.totalCents), true],
      ]
    : [[`${totalLabel} (${s.currency})`, formatPence(s.totalCents), true]];
  if (received > 0) {
    rows.push(["Received", formatPence(received), false]);
    rows.push([
      `Balance due (${s.currency})`,
      formatPence(Math.max(0, s.totalCents - received)),
      true,
    ]);
  }
  return rows;
}

/** An invoice's closing section: paid in full by what was received, else how to pay the rest. */
export function invoicePayment(s: DocumentSnapshot): Section | null {
  if (s.kind !== "invoice") return null;
  const received = receivedCents(s);
  if (received >= s.totalCents && s.totalCents > 0) {
    // Issued for money already received (places that took their payment with them).
    return {
      title: "Payment received",
      paragraphs: [
        `We have received ${formatPence(received)}: this invoice is paid in full and nothing more is due.`,
      ],
      rows: [],
    };
  }
  const payment = s.payment;
  const reference = payment?.reference ?? s.orderReference;
  // Re-invoiced after money arrived (decision 0046): what was received, and the rest asked.
  const asked = received > 0 ? s.totalCents - received : s.totalCents;
  const what =
    received > 0
      ? `We have received ${formatPence(received)} of this total. Please pay the balance of ${formatPence(asked)}`
      : `Please pay ${formatPence(asked)}`;
  const due = s.dueDate
    ? `${what} by ${formatDocumentDate(s.dueDate)}${payment ? ` (${payment.termsDays} days from the date of issue)` : ""}.`
    : `${what}.`;
  const bank = payment?.bank;
  return {
    title: "How to pay",
    paragraphs: [
      bank
        ? `${due} Pay by bank transfer to the account below.`
        : `${due} ${payment?.instructions ?? "Contact us for our bank details."}`,
      `Please use your order reference ${reference} as the payment reference.`,
    ],
    rows: bank
      ? [
          ["Account name", bank.accountName],
          ["Sort code", bank.sortCode],
          ["Account number", bank.accountNumber],
          ["IBAN", bank.iban],
          ["Payment reference", reference],
        ]
      : [["Payment reference", reference]],
    cardUrl: payment?.cardUrl,
  };
}
