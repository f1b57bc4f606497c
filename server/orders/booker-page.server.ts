import { and, asc, eq, isNull } from "drizzle-orm";
import { dateWhere } from "#app/lib/catalogue/course-dates.ts";
import { bookingPath, type BookerPage, type BookerPlace } from "#app/lib/orders/booking.ts";
import {
  orderReference,
  PAYMENT_METHOD_LABELS,
  type OrderDocumentKind,
} from "#app/lib/orders/orders.ts";
import { hitRateLimit } from "../abuse.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { calendarFileFor } from "../catalogue/date-invitations.server.ts";
import { db } from "../db/client.server.ts";
import { accessDetails, certificates, orderEvents, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { currentInvoice, documentsOfOrder } from "../invoices/documents.server.ts";
import { cardPaymentOffered, invoiceCardReturn } from "../payments/invoice-card.server.ts";
import { balanceOf } from "./payments.server.ts";
import { bookingLinkExpiry, bookingToken, readBookingToken } from "./booking-links.server.ts";
import { bookerMoveOf } from "./move-requests.server.ts";
import { changeWindow, hasBookerPage, holdersOf, holdsItsPlaces } from "./booking-rules.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * The booker's page (decision 0037): one order, reached by its signed link, as its booker sees it
 * — the date and how to get there, who holds each place, the order's documents and certificates —
 * and until when its names can still change. Held (suspected spam) and anonymised orders have no
 * page. Changing a student: student-changes.server.ts.
 */

function statusOf(order: OrderRow): string {
  if (order.status === "paid") {
    if (order.refundedAmountCents >= order.totalAmountCents) return "Refunded";
    return order.refundedAmountCents > 0 ? "Paid, partly refunded" : "Paid";
  }
  if (order.status === "invoiced") return "Invoiced, awaiting payment";
  if (order.status === "pending") {
    return order.paymentMethod === "invoice" ? "Received: invoice to follow" : "Awaiting payment";
  }
  return order.status === "failed" ? "Payment failed" : "Cancelled";
}

/** The page of an order, or null when it has none. */
export async function bookerPage(
  orderId: string,
  now: Date = new Date(),
): Promise<BookerPage | null> {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order && hasBookerPage(order) ? bookerPageOf(order, now) : null;
}

/** The page of an order that has one (as `bookingAccess` answered it). */
export async function bookerPageOf(
  order: OrderRow,
  now: Date = new Date(),
  cardPayment: BookerPage["cardPayment"] = null,
): Promise<BookerPage> {
  const [date, holders, documents, issued, access] = await Promise.all([
    bookedDateOf(db(), order.courseDateId),
    holdersOf(db(), order),
    documentsOfOrder(order.id),
    db()
      .select({
        number: certificates.number,
        position: certificates.position,
        issuedAt: certificates.issuedAt,
      })
      .from(certificates)
      .where(and(eq(certificates.orderId, order.id), isNull(certificates.revokedAt))),
    db()
      .select({ position: accessDetails.position, sentAt: accessDetails.sentAt })
      .from(accessDetails)
      .where(eq(accessDetails.orderId, order.id)),
  ]);
  const window = changeWindow(order, date, now);
  const move = await bookerMoveOf(order, date, now);
  const movedOut = await movedOutOf(order, now);
  const held = holdsItsPlaces(order);
  const payByCard = await payByCardOf(order);
  const places: BookerPlace[] = Array.from({ length: order.quantity }, (_, i) => {
    const holder = holders.get(i + 1);
    const certificate = issued.find((c) => c.position === i + 1);
    const sent = access.find((a) => a.position === i + 1);
    return {
      position: i + 1,
      name: holder ? `${holder.firstName} ${holder.lastName}`.trim() : null,
      email: holder?.email ?? null,
      certificate: certificate
        ? { number: certificate.number, issuedAt: certificate.issuedAt.toISOString() }
        : null,
      accessSentAt: sent?.sentAt.toISOString() ?? null,
    };
  });
  return {
    reference: orderReference(order.id),
    courseTitle: order.courseTitleSnapshot,
    status: statusOf(order),
    paymentMethod: PAYMENT_METHOD_LABELS[order.paymentMethod],
    bookedAt: order.createdAt.toISOString(),
    buyer: {
      name: `${order.buyerFirstName} ${order.buyerLastName}`.trim(),
      email: order.buyerEmail,
      organisation: order.billingOrganisation ?? order.buyerCompany,
    },
    quantity: order.quantity,
    totalCents: order.totalAmountCents,
    refundedCents: order.refundedAmountCents,
    currency: order.currency,
    poNumber: order.poNumber,
    date: date
      ? {
          startsAt: date.startsAt.toISOString(),
          endsAt: date.endsAt.toISOString(),
          format: date.format,
          schedule: date.schedule,
          where: dateWhere(date),
          // How to join is for bookings that hold their places, as in the joining details.
          joiningDetails: date.format === "online" && held ? date.joiningDetails : null,
          cancelled: date.state === "cancelled",
        }
      : null,
    places,
    documents: documents.map((d) => ({
      id: d.id,
      kind: d.kind as OrderDocumentKind,
      number: d.number,
      issuedAt: d.issuedAt.toISOString(),
    })),
    changes: window.open
      ? { open: true, until: window.until?.toISOString() ?? null }
      : { open: false, reason: window.reason },
    calendar: held && date !== null && date.state === "scheduled",
    move,
    movedOut,
    payByCard,
    cardPayment,
  };
}

/**
 * The page on the booker's return from paying by card: the payment read from Stripe and recorded
 * (once, whoever reports it first), then the order as it is now.
 */
export async function bookerPageAfterCard(
  order: OrderRow,
  cardSession: string | null,
): Promise<BookerPage> {
  if (!cardSession) return bookerPageOf(order);
  const returned = await invoiceCardReturn(order, cardSession);
  const [now] = await db().select().from(orders).where(eq(orders.id, order.id));
  return bookerPageOf(now ?? order, new Date(), returned);
}

/** "Pay by card": what the unpaid invoice still asks for, when card payments are on. */
async function payByCardOf(order: OrderRow): Promise<BookerPage["payByCard"]> {
  if (!cardPaymentOffered(order)) return null;
  const invoice = await currentInvoice(db(), order.id);
  if (!invoice || invoice.kind !== "invoice") return null;
  return { owedCents: balanceOf(order), invoiceNumber: invoice.number };
}

/** The bookings some of this order's places were moved into (its 'places_moved' events). */
async function movedOutOf(order: OrderRow, now: Date): Promise<BookerPage["movedOut"]> {
  const events = await db()
    .select({ detail: orderEvents.detail })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "places_moved")))
    .orderBy(asc(orderEvents.createdAt));
  const moved: BookerPage["movedOut"] = [];
  for (const { detail } of events) {
    const toOrderId = detail?.toOrderId;
    const [into] =
      typeof toOrderId === "string" && isUuid(toOrderId)
        ? await db()
            .select({ id: orders.id, quantity: orders.quantity, dateId: orders.courseDateId })
            .from(orders)
            .where(eq(orders.id, toOrderId))
        : [];
    if (!into) continue;
    const date = await bookedDateOf(db(), into.dateId);
    moved.push({
      places: into.quantity,
      reference: orderReference(into.id),
      url: bookingPath(bookingToken(into.id, bookingLinkExpiry(date?.endsAt ?? null, now))),
    });
  }
  return moved;
}

/** The most views of booking pages and their files one client may make a minute. */
const PAGE_VIEWS_PER_MINUTE = 60;

export type BookingAccess =
  { ok: true; order: OrderRow } | { ok: false; status: 404 | 410 | 429; retryAfter?: number };

/**
 * Whether a request for a booking's page or files may go on: within the client's rate limit, by a
 * link this server made that has not expired, to an order that has a page. A refusal never says
 * whether an order exists.
 */
export async function bookingAccess(
  token: string | undefined,
  client: string,
): Promise<BookingAccess> {
  const limit = await hitRateLimit("booking-page", client, PAGE_VIEWS_PER_MINUTE);
  if (!limit.allowed) return { ok: false, status: 429, retryAfter: limit.retryAfter };
  const link = readBookingToken(token);
  if (!link.ok) return { ok: false, status: link.reason === "expired" ? 410 : 404 };
  const [order] = await db().select().from(orders).where(eq(orders.id, link.orderId));
  if (!order || !hasBookerPage(order)) return { ok: false, status: 404 };
  return { ok: true, order };
}

/** A refused request for a booking's file, as plain text (an expired link is not found either). */
export function bookingFileRefusal(refused: { status: number; retryAfter?: number }): Response {
  const limited = refused.status === 429;
  return new Response(limited ? "Too many requests" : "Not found", {
    status: limited ? 429 : 404,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "private, no-store",
      ...(refused.retryAfter ? { "Retry-After": String(refused.retryAfter) } : {}),
    },
  });
}

/** The booked date as a calendar file, or null when the booking holds no scheduled date. */
export async function bookingCalendar(order: OrderRow): Promise<string | null> {
  const date = await bookedDateOf(db(), order.courseDateId);
  if (!date || !holdsItsPlaces(order) || date.state !== "scheduled") return null;
  return calendarFileFor(date, order.courseTitleSnapshot, order.id);
}
