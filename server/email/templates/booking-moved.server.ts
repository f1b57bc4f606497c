import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
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
 * To the buyer when staff cancel a date and move its bookings to another (decision 0033): the old
 * and the new date, where, and that nothing else changes. Students get their updated joining
 * instructions separately.
 */

type Order = Pick<
  typeof orders.$inferSelect,
  "id" | "buyerFirstName" | "courseTitleSnapshot" | "quantity"
>;
type DateRow = Pick<
  typeof courseDates.$inferSelect,
  "startsAt" | "endsAt" | "format" | "venueName" | "venueAddress"
>;

function where(date: DateRow): string {
  return date.format === "online"
    ? "Live online"
    : [date.venueName, date.venueAddress].filter(Boolean).join(", ");
}

export function renderBookingMoved(order: Order, from: DateRow, to: DateRow): RenderedEmail {
  const subject = headerText(
    `Your booking has moved: ${order.courseTitleSnapshot} (${orderReference(order.id)})`,
  );
  const news = `We have had to cancel the date you booked for ${order.courseTitleSnapshot}, and have moved your booking to the next date with room. Nothing else about your booking changes. If the new date does not suit you, reply to this e-mail: we will offer another date or a full refund.`;
  const rows: Row[] = [
    ["Order reference", orderReference(order.id)],
    ["Course", order.courseTitleSnapshot],
    ["Places", String(order.quantity)],
    ["Was", formatDateRange(from.startsAt, from.endsAt)],
    ["Now", formatDateRange(to.startsAt, to.endsAt)],
    ["Where", where(to)],
  ];
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(order.buyerFirstName))},</p>` +
      `<p>${escapeHtml(news)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(order.buyerFirstName)},`,
    "",
    news,
    "",
    rowsText(rows),
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}
