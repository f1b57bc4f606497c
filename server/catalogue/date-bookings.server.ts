import { randomBytes } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { config } from "../config.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { courseDates, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderBookingMoved } from "../email/templates/booking-moved.server.ts";
import { log } from "../log.server.ts";
import { changeOrderStatusByAdmin } from "../orders/admin.server.ts";
import { recordOrderEvent } from "../orders/events.server.ts";
import { refundableCents, refundOrder } from "../payments/refunds.server.ts";
import type { AuditActor } from "../audit.server.ts";
import { holdsPlaces, placesTaken } from "./course-dates.server.ts";

/**
 * What happens to a date's bookings when staff cancel the date (decision 0033): they are moved to
 * another date of the course with room — in the transaction that cancels the date, each buyer told
 * and the move on each order's timeline — or cancelled one by one with the order machinery that
 * already exists: an unsettled order is cancelled (its Stripe session closed, a credit note for an
 * issued invoice, the buyer told), a card payment refunded in full through Stripe; a paid invoice
 * is listed for staff to refund by bank transfer, since no payment of ours can be reversed there.
 */

type DateRow = typeof courseDates.$inferSelect;

export type MoveRefusal = { ok: false; message: string };

/** The live orders of a date, oldest first. */
function liveOrders(tx: Pick<Transaction, "select">, dateId: string) {
  return tx
    .select()
    .from(orders)
    .where(and(eq(orders.courseDateId, dateId), holdsPlaces))
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

/**
 * Inside the transaction that cancels `from` (its row already locked): moves its live orders to
 * `toDateId`, which must be another scheduled date of the same course, still to start, with room
 * for all of them (locked too, so no booking races the move). Nothing moves unless all fit.
 */
export async function moveDateBookings(
  tx: Transaction,
  actor: AuditActor,
  from: DateRow,
  toDateId: string,
): Promise<{ ok: true; orderIds: string[]; to: DateRow } | MoveRefusal> {
  if (!isUuid(toDateId) || toDateId === from.id) {
    return { ok: false, message: "Choose another date to move the bookings to" };
  }
  const [to] = await tx
    .select()
    .from(courseDates)
    .where(
      and(
        eq(courseDates.id, toDateId),
        eq(courseDates.courseId, from.courseId),
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, new Date()),
      ),
    )
    .for("update");
  if (!to) return { ok: false, message: "That date can no longer take bookings: choose another" };
  const moving = await liveOrders(tx, from.id);
  const needed = moving.reduce((sum, o) => sum + o.quantity, 0);
  const free = to.capacity - ((await placesTaken(tx, [to.id])).get(to.id) ?? 0);
  if (needed > free) {
    return {
      ok: false,
      message: `That date has ${Math.max(0, free)} places free; the bookings need ${needed}. Choose another date or raise its places first.`,
    };
  }
  for (const order of moving) {
    await tx
      .update(orders)
      .set({ courseDateId: to.id, updatedAt: new Date() })
      .where(eq(orders.id, order.id));
    await recordOrderEvent(tx, order.id, "moved", actor.email, {
      reason: `${formatDateRange(from.startsAt, from.endsAt)} → ${formatDateRange(to.startsAt, to.endsAt)}`,
      fromDateId: from.id,
      toDateId: to.id,
    });
    await queueEmails(tx, [
      {
        kind: "booking_moved",
        to: order.buyerEmail,
        replyTo: config.mailReplyTo,
        orderId: order.id,
        ...renderBookingMoved(order, from, to),
      },
    ]);
  }
  return { ok: true, orderIds: moving.map((o) => o.id), to };
}

export interface CancelledBookings {
  cancelled: number;
  refunded: number;
  /** Paid by invoice: staff refund these by bank transfer (their references). */
  toRefundByHand: string[];
  /** Orders whose cancellation or refund failed (their references): try them on the order page. */
  failed: string[];
}

/**
 * After the date was cancelled: each live order cancelled, or refunded in full when paid by
 * card; a paid invoice is listed for a refund by hand. Each order on its own (a Stripe refund
 * cannot share a database transaction); what could not be done is listed, never dropped.
 */
export async function cancelDateBookings(
  runner: Pick<Transaction, "select">,
  actor: AuditActor,
  dateId: string,
): Promise<CancelledBookings> {
  const result: CancelledBookings = { cancelled: 0, refunded: 0, toRefundByHand: [], failed: [] };
  for (const order of await liveOrders(runner, dateId)) {
    const reference = orderReference(order.id);
    if (order.status === "paid" && order.paymentMethod === "invoice") {
      result.toRefundByHand.push(reference);
      continue;
    }
    if (order.status === "paid") {
      const refund = await refundOrder(
        order.id,
        {
          amountCents: refundableCents(order),
          reason: "requested_by_customer",
          nonce: randomBytes(16).toString("hex"),
          note: "Course date cancelled",
        },
        actor,
      );
      if (refund.ok) result.refunded += 1;
      else {
        log.error({ orderId: order.id, reason: refund.reason }, "date cancelled: refund failed");
        result.failed.push(reference);
      }
      continue;
    }
    const change = await changeOrderStatusByAdmin(order.id, "canceled", actor, {
      notifyBuyer: true,
      reason: "Course date cancelled",
    });
    if (change.ok) result.cancelled += 1;
    else result.failed.push(reference);
  }
  return result;
}
