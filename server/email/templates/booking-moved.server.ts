import { dateWhere, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { formatPence } from "#app/lib/format.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import type { courseDates, orders } from "../../db/schema.ts";
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
 * To the buyer when their booking moves to another date: because staff cancelled its date
 * (decision 0033), or because staff moved some or all of its places (decision 0038, with what
 * that did to the money). The old and the new date, and where. Students get their updated
 * joining instructions separately.
 */

type Order = Pick<
  typeof orders.$inferSelect,
  "id" | "buyerFirstName" | "courseTitleSnapshot" | "quantity"
>;
type DateRow = Pick<
  typeof courseDates.$inferSelect,
  "startsAt" | "endsAt" | "format" | "venueName" | "venueAddress"
>;

/** The body both letters share: the news, the old and the new date, then the sign-off. */
function movedLetter(
  order: Order,
  from: DateRow,
  to: DateRow,
  paragraphs: string[],
  extraRows: Row[] = [],
): RenderedEmail {
  const subject = headerText(
    `Your booking has moved: ${order.courseTitleSnapshot} (${orderReference(order.id)})`,
  );
  const rows: Row[] = [
    ["Order reference", orderReference(order.id)],
    ["Course", order.courseTitleSnapshot],
    ["Places", String(order.quantity)],
    ["Was", formatDateRange(from.startsAt, from.endsAt)],
    ["Now", formatDateRange(to.startsAt, to.endsAt)],
    ["Where", dateWhere(to)],
    ...extraRows,
  ];
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("") +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(order.buyerFirstName)},`,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    rowsText(rows),
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

export function renderBookingMoved(order: Order, from: DateRow, to: DateRow): RenderedEmail {
  return movedLetter(order, from, to, [
    `We have had to cancel the date you booked for ${order.courseTitleSnapshot}, and have moved your booking to the next date with room. Nothing else about your booking changes. If the new date does not suit you, reply to this e-mail: we will offer another date or a full refund.`,
  ]);
}

/** What a move did to the money, as the buyer's letter says it. */
export type MoveMoney =
  | { kind: "none" }
  | { kind: "reissued"; invoice: string; creditNote: string }
  /** A paid order moved to a dearer date: re-invoiced, the difference owed (decision 0046). */
  | { kind: "owed"; invoice: string; creditNote: string; credited: string; owedCents: number }
  /** Places split off: their own invoice, counting what was paid for them (decision 0046). */
  | { kind: "invoiced"; invoice: string; paidCents?: number; owedCents?: number }
  | { kind: "repriced"; totalCents: number }
  | { kind: "card_refund"; cents: number }
  | { kind: "bank_refund"; cents: number; creditNote: string };

/**
 * To the buyer when staff move some or all of an order's places to another date (decision 0038):
 * `order` is the order on the new date (a new order when only some places moved, with `from` the
 * order they left), and what it means for the money.
 */
export function renderOrderMoved(
  order: Order,
  from: DateRow,
  to: DateRow,
  move: { splitFrom: string | null; money: MoveMoney; bookingUrl: string },
): RenderedEmail {
  const { money } = move;
  const what = move.splitFrom
    ? `As agreed, we have moved ${order.quantity} ${order.quantity === 1 ? "place" : "places"} of your booking ${orderReference(move.splitFrom)} for ${order.courseTitleSnapshot} to another date. They now form their own booking, ${orderReference(order.id)}; the rest of ${orderReference(move.splitFrom)} stays as it was.`
    : `As agreed, we have moved your booking for ${order.courseTitleSnapshot} to another date.`;
  const paragraphs = [
    what,
    "Each student has their updated joining instructions and calendar invitation.",
  ];
  const rows: Row[] = [];
  switch (money.kind) {
    case "reissued":
      paragraphs.push(
        `The price of the new date differs, so invoice ${money.invoice} replaces your earlier invoice, which credit note ${money.creditNote} cancels. Both follow in separate e-mails.`,
      );
      break;
    case "owed":
      rows.push(["Owed now", formatPence(money.owedCents)]);
      paragraphs.push(
        `The new date costs more than you paid. Invoice ${money.invoice} for the new total replaces ${money.credited}, which credit note ${money.creditNote} cancels; it counts what you have paid, and ${formatPence(money.owedCents)} is owed. Both follow in separate e-mails, with how to pay.`,
      );
      break;
    case "invoiced":
      if (money.paidCents) {
        if (money.owedCents) rows.push(["Owed now", formatPence(money.owedCents)]);
        paragraphs.push(
          `What you paid for these places, ${formatPence(money.paidCents)}, moves with them: invoice ${money.invoice} for them counts it${money.owedCents ? `, and ${formatPence(money.owedCents)} is owed for the new date's price` : ", so nothing more is due"}. It follows in a separate e-mail, with the corrected invoice for the places that stay.`,
        );
      } else {
        paragraphs.push(`Invoice ${money.invoice} for these places follows in a separate e-mail.`);
      }
      break;
    case "repriced":
      rows.push(["New total", formatPence(money.totalCents)]);
      paragraphs.push("The price of the new date differs: your invoice will show the new total.");
      break;
    case "card_refund":
      paragraphs.push(
        `The new date costs less: we are refunding ${formatPence(money.cents)} to your card, with a credit note.`,
      );
      break;
    case "bank_refund":
      paragraphs.push(
        `The new date costs less: credit note ${money.creditNote} for ${formatPence(money.cents)} is attached, and we will refund it by bank transfer.`,
      );
      break;
    case "none":
      paragraphs.push("Nothing else about your booking changes.");
  }
  paragraphs.push(`Your booking's own page has everything about it: ${move.bookingUrl}`);
  return movedLetter(order, from, to, paragraphs, rows);
}
