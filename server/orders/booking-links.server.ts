import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { PAY_BY_CARD_ANCHOR, bookingPath } from "#app/lib/orders/booking.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { confirmationAllowed } from "../abuse.server.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { readSignedToken, signedToken } from "../signed-links.server.ts";
import { courseDates, orders } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderBookingLinks } from "../email/templates/booking.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * The booker's signed links (decision 0037): `<order id>.<expiry>.<HMAC-SHA256 of both>`, the
 * expiry in whole seconds, base 36. No account and nothing stored: only this server can make one,
 * a changed character makes it worthless, and it names one order only. A link lasts 90 days past
 * the later of its sending and the end of the booked date, so the one in the confirmation still
 * opens on the day; a new one can always be had by e-mail ('find my booking', or staff's 'Send
 * booking link').
 */

type DateRow = typeof courseDates.$inferSelect;

/** The outbox kind of the links e-mail (counted by the per-recipient limit). */
export const BOOKING_LINKS_KIND = "booking_links";

const LINK_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The key's purpose: the same since the first links, so links already sent keep working. */
const PURPOSE = "booking-link";

/** When a link sent at `now` for an order (of a date ending at `endsAt`, if any) stops working. */
export function bookingLinkExpiry(endsAt: Date | null, now: Date = new Date()): Date {
  const from = Math.max(now.getTime(), endsAt?.getTime() ?? 0);
  return new Date(from + LINK_DAYS * DAY_MS);
}

export function bookingToken(orderId: string, expiresAt: Date): string {
  return signedToken(PURPOSE, orderId, expiresAt);
}

/** The page's absolute address, for an e-mail. */
export function bookingUrl(orderId: string, endsAt: Date | null, now: Date = new Date()): string {
  return `${config.publicUrl}${bookingPath(bookingToken(orderId, bookingLinkExpiry(endsAt, now)))}`;
}

/**
 * Where an invoice is paid by card (decision 0042): the booker's page, at its "Pay by card"
 * section. Printed on the invoice, so it lasts as any link sent at its issue does.
 */
export function payByCardUrl(orderId: string, issuedAt: Date): string {
  return `${bookingUrl(orderId, null, issuedAt)}#${PAY_BY_CARD_ANCHOR}`;
}

export type BookingLink =
  | { ok: true; orderId: string; expiresAt: Date }
  /** `expired`: made here, but too old (worth saying so); `invalid`: not made here at all. */
  | { ok: false; reason: "invalid" | "expired" };

/** What a token given back says, checked before anything is read. */
export function readBookingToken(token: unknown, now: Date = new Date()): BookingLink {
  const link = readSignedToken(PURPOSE, token, now);
  return link.ok ? { ok: true, orderId: link.id, expiresAt: link.expiresAt } : link;
}

/** A booking as the links e-mail lists it. */
function linkedBookings(rows: { order: OrderRow; date: DateRow | null }[], now: Date) {
  return rows.map(({ order, date }) => ({
    reference: orderReference(order.id),
    courseTitle: order.courseTitleSnapshot,
    startsAt: date?.startsAt ?? null,
    endsAt: date?.endsAt ?? null,
    url: bookingUrl(order.id, date?.endsAt ?? null, now),
  }));
}

/** The most bookings one links e-mail lists (newest first). */
const MOST_LINKS = 20;

export type LinksOutcome = { ok: true; sent: number } | { ok: false; reason: "limited" };

/**
 * 'Find my booking': e-mails the address a link to each booking made with it (its page never
 * shows them: only the mailbox's owner gets in). Bookings held as suspected spam or anonymised
 * have no page. An address that booked nothing gets nothing, and the visitor is told the same
 * either way, so the form reveals no one's bookings. The per-recipient hourly limit counts these
 * e-mails like the other confirmations.
 */
export async function sendBookingLinks(
  email: string,
  now: Date = new Date(),
): Promise<LinksOutcome> {
  const address = email.trim().toLowerCase();
  return db().transaction(async (tx) => {
    if (!(await confirmationAllowed(tx, address))) return { ok: false, reason: "limited" };
    const rows = await tx
      .select({ order: orders, date: courseDates })
      .from(orders)
      .leftJoin(courseDates, eq(courseDates.id, orders.courseDateId))
      .where(
        and(
          sql`lower(trim(${orders.buyerEmail})) = ${address}`,
          isNull(orders.anonymisedAt),
          isNull(orders.spamReason),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(MOST_LINKS);
    if (rows.length === 0) return { ok: true, sent: 0 };
    const first = rows[0]!.order;
    await queueEmails(tx, [
      {
        kind: BOOKING_LINKS_KIND,
        to: first.buyerEmail,
        replyTo: config.mailReplyTo,
        orderId: rows.length === 1 ? first.id : null,
        ...renderBookingLinks(first.buyerFirstName, linkedBookings(rows, now)),
      },
    ]);
    return { ok: true, sent: rows.length };
  });
}

/**
 * Staff's 'Send booking link' on the order page: a fresh link to the order's booker, on the
 * order's timeline and in the audit log. Refused for an order with no page (held or anonymised).
 */
export async function sendBookingLink(
  admin: AuditActor,
  orderId: string,
  now: Date = new Date(),
): Promise<{ ok: true; to: string } | { ok: false; message: string }> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .select({ order: orders, date: courseDates })
      .from(orders)
      .leftJoin(courseDates, eq(courseDates.id, orders.courseDateId))
      .where(eq(orders.id, orderId));
    if (!row) return { ok: false, message: "Order not found" };
    const { order } = row;
    if (order.anonymisedAt)
      return { ok: false, message: "This order was anonymised: it has no booking page" };
    if (order.spamReason) {
      return { ok: false, message: "Release this order first: it is held as suspected spam" };
    }
    await queueEmails(tx, [
      {
        kind: BOOKING_LINKS_KIND,
        to: order.buyerEmail,
        replyTo: config.mailReplyTo,
        orderId: order.id,
        ...renderBookingLinks(order.buyerFirstName, linkedBookings([row], now)),
      },
    ]);
    await recordOrderEvent(tx, order.id, "booking_link_sent", admin.email);
    await recordAudit(tx, admin, {
      action: "order.booking_link",
      subjectType: "order",
      subjectId: order.id,
      summary: `${orderReference(order.id)}: booking link sent to the booker`,
    });
    return { ok: true, to: order.buyerEmail };
  });
}
