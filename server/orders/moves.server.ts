import { randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import { dateWhere, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { MOVE_MESSAGES, type MovePriceChoice, type MoveTarget } from "#app/lib/orders/moves.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { bookedDateOf, placesLeftIn, placesOf } from "../catalogue/course-dates.server.ts";
import { attendeeEmail, dateAttendees } from "../catalogue/date-invitations.server.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { offerFreedPlacesAfter } from "../catalogue/waiting-list-offers.server.ts";
import { courseDates, courses, moveRequests, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderOrderMoved } from "../email/templates/booking-moved.server.ts";
import { renderPlaceLeftDate, renderPlaceMoved } from "../email/templates/course-date.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { currentInvoice } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { refundOrder } from "../payments/refunds.server.ts";
import { reissueRefusal } from "./billing.server.ts";
import { bookingUrl } from "./booking-links.server.ts";
import { holdsItsPlaces } from "./booking-rules.server.ts";
import {
  amountsFor,
  leavingAttendees,
  moneyAfterMove,
  moneyAfterSplit,
  owingAfterMove,
  splitOffWithMoney,
  type MoveRefund,
  type MovedMoney,
} from "./move-places.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { canTransition } from "./state-machine.server.ts";
import { priceToPence, supplyOf, vatTreatmentFor } from "./pricing.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * Moving some or all of an order's places to another date of its course (decision 0038; the
 * rules: docs/rules.md, Bookings). One transaction under the order's row lock and the new date's
 * row lock, so two moves (or a move and a checkout) can never fill a date past its places. All of
 * an order's places move by changing its date; some of them split off into an order of their own
 * on the new date. A price difference goes through the document machinery, never an edited
 * document: an unsettled invoice is credited and re-issued; a paid order moved to a cheaper date
 * is credited and refunded (by card through Stripe after the commit, else by bank transfer by
 * staff); a paid order moved to a dearer date is re-invoiced and owes the difference, and places
 * split off a paid order take what was paid for them (decision 0046). This module decides what
 * may move and at what price; the money and documents of each: move-places.server.ts.
 */

type DateRow = typeof courseDates.$inferSelect;

export interface MoveRequest {
  toDateId: string;
  /** The places that move (from 1); all of them moves the order itself. */
  places: number[];
  price: MovePriceChoice;
  /** The booker's request this move approves (marked approved in the move's transaction). */
  requestId?: string;
}

export type MoveOutcome =
  | {
      ok: true;
      /** The order now on the new date: the order itself, or the one split from it. */
      orderId: string;
      places: number;
      split: boolean;
      to: DateRow;
      documents: string[];
      refund: MoveRefund | null;
      /** A paid order moved to a dearer date: what it owes now, invoiced again. */
      owedCents?: number;
    }
  | { ok: false; status: 404 | 409; message: string };

type Refused = Extract<MoveOutcome, { ok: false }>;
const refused = (status: 404 | 409, message: string): Refused => ({ ok: false, status, message });

/** Why an order cannot move at all (before any date is chosen), or null. */
export function moveRefusal(order: OrderRow, from: DateRow | null, now: Date): string | null {
  if (order.anonymisedAt || order.spamReason) return MOVE_MESSAGES.heldOrErased;
  if (!order.courseDateId) return MOVE_MESSAGES.onDemand;
  if (!holdsItsPlaces(order)) return MOVE_MESSAGES.notHeld;
  if (order.status === "pending" && order.paymentMethod === "stripe") {
    return MOVE_MESSAGES.checkoutOpen;
  }
  if (!from || from.state !== "scheduled" || from.startsAt <= now) return MOVE_MESSAGES.started;
  return null;
}

/** A place's price on a date: the date's own, else its course's; null when neither has one. */
async function unitPriceOn(tx: Pick<Transaction, "select">, date: DateRow): Promise<number | null> {
  const own = priceToPence(date.price);
  if (own !== null) return own;
  const [course] = await tx
    .select({ price: courses.price })
    .from(courses)
    .where(eq(courses.id, date.courseId));
  return priceToPence(course?.price);
}

/** The other dates of the order's course with room it could move to (the pages' choices). */
export async function moveTargets(
  runner: Pick<Transaction, "select">,
  order: OrderRow,
  now: Date = new Date(),
): Promise<MoveTarget[]> {
  if (!order.courseId || !order.courseDateId) return [];
  const dates = await runner
    .select()
    .from(courseDates)
    .where(
      and(
        eq(courseDates.courseId, order.courseId),
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, now),
      ),
    )
    .orderBy(courseDates.startsAt);
  // Only dates taxed as the order's own is (a move never changes how VAT was decided).
  const from = dates.find((d) => d.id === order.courseDateId) ?? null;
  const billing = { country: order.billingCountry, vatNumber: order.buyerVatNumber };
  const taxedAs = (date: typeof from) => vatTreatmentFor(supplyOf(date), billing);
  const others = dates.filter(
    (d) => d.id !== order.courseDateId && (!from || taxedAs(d) === taxedAs(from)),
  );
  const places = await placesOf(
    runner,
    others.map((d) => d.id),
  );
  const targets: MoveTarget[] = [];
  for (const date of others) {
    const left = placesLeftIn(date.capacity, places.get(date.id));
    if (left === 0) continue;
    targets.push({
      id: date.id,
      startsAt: date.startsAt.toISOString(),
      endsAt: date.endsAt.toISOString(),
      where: dateWhere(date),
      placesLeft: left,
      unitPriceCents: (await unitPriceOn(runner, date)) ?? order.unitPriceCents,
    });
  }
  return targets;
}

export async function moveOrder(
  admin: AuditActor,
  orderId: string,
  request: MoveRequest,
  options: { now?: Date } = {},
): Promise<MoveOutcome> {
  const now = options.now ?? new Date();
  if (!isUuid(orderId)) return refused(404, MOVE_MESSAGES.notFound);
  if (!isUuid(request.toDateId)) return refused(409, MOVE_MESSAGES.targetGone);
  const result = await db().transaction(
    async (tx): Promise<MoveOutcome & { refundFrom?: string; fromDateId?: string }> => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order) return refused(404, MOVE_MESSAGES.notFound);
      const from = await bookedDateOf(tx, order.courseDateId);
      const refusal = moveRefusal(order, from, now);
      if (refusal || !from) return refused(409, refusal ?? MOVE_MESSAGES.started);
      if (request.toDateId === from.id) return refused(409, MOVE_MESSAGES.sameDate);
      const [to] = await tx
        .select()
        .from(courseDates)
        .where(and(eq(courseDates.id, request.toDateId), eq(courseDates.courseId, from.courseId)))
        .for("update");
      if (!to || to.state !== "scheduled" || to.startsAt <= now) {
        return refused(409, MOVE_MESSAGES.targetGone);
      }
      // VAT was decided by what the order supplies: a move that would change it is a new booking.
      const billing = { country: order.billingCountry, vatNumber: order.buyerVatNumber };
      if (vatTreatmentFor(supplyOf(from), billing) !== vatTreatmentFor(supplyOf(to), billing)) {
        return refused(409, MOVE_MESSAGES.vatChanges);
      }
      const moving = [...new Set(request.places)].sort((a, b) => a - b);
      if (moving.length === 0 || moving.some((p) => p < 1 || p > order.quantity)) {
        return refused(409, MOVE_MESSAGES.noSuchPlace);
      }
      const split = moving.length < order.quantity;
      // Read after the date's lock: a checkout or another move waits for this one, then sees it.
      const left = placesLeftIn(to.capacity, (await placesOf(tx, [to.id])).get(to.id));
      if (moving.length > left) return refused(409, MOVE_MESSAGES.noRoom(left, moving.length));

      const datePrice = await unitPriceOn(tx, to);
      const unit =
        request.price === "keep" || datePrice === null ? order.unitPriceCents : datePrice;
      // A paid order moved to a dearer date owes the difference, and places split off a paid
      // order take their money with them (decision 0046): either re-issues its document, so one
      // partly refunded (its credits netted against the sale) is refused.
      const paidDearer = order.status === "paid" && unit > order.unitPriceCents;
      const paidSplit = order.status === "paid" && split;
      if ((paidDearer || paidSplit) && order.refundedAmountCents > 0) {
        return refused(409, MOVE_MESSAGES.paidRefunded);
      }
      if (paidSplit && unit < order.unitPriceCents) {
        return refused(409, MOVE_MESSAGES.paidSplitCheaper);
      }
      const invoice =
        order.status === "invoiced" || paidDearer || paidSplit
          ? await currentInvoice(tx, order.id)
          : null;
      if (
        (paidDearer || paidSplit) &&
        (!invoice || (paidDearer && !split && !canTransition(order, "invoiced", "move")))
      ) {
        return refused(409, MOVE_MESSAGES.invoiceCredited);
      }
      const repricing = split || unit !== order.unitPriceCents;
      // (A paid document is credited only by refunds, refused above for a dearer date.)
      if (
        invoice &&
        repricing &&
        order.status !== "paid" &&
        (await reissueRefusal(tx, order, invoice))
      ) {
        return refused(409, MOVE_MESSAGES.invoiceCredited);
      }

      // The booker's request this approves, if any; any other open request is overtaken by the move.
      const open = await tx
        .select({ id: moveRequests.id })
        .from(moveRequests)
        .where(and(eq(moveRequests.orderId, order.id), eq(moveRequests.state, "requested")));
      if (request.requestId && !open.some((r) => r.id === request.requestId)) {
        return refused(409, MOVE_MESSAGES.decided);
      }
      for (const { id } of open) {
        await tx
          .update(moveRequests)
          .set({
            state: id === request.requestId ? "approved" : "withdrawn",
            decidedAt: now,
            decidedBy: admin.email,
          })
          .where(eq(moveRequests.id, id));
      }

      const reason = `${formatDateRange(from.startsAt, from.endsAt)} → ${formatDateRange(to.startsAt, to.endsAt)}`;
      // Who leaves the old date, read before anything moves: each gets its cancellation.
      const leaving = await leavingAttendees(tx, order, moving);
      const context = { reason, actor: admin, now };
      let movedOrder: OrderRow;
      let moneyMoved: MovedMoney;

      if (!split) {
        const repriced = unit !== order.unitPriceCents && (order.status !== "paid" || paidDearer);
        const owing = paidDearer ? await owingAfterMove(tx, order, unit, admin, now) : {};
        [movedOrder] = (await tx
          .update(orders)
          .set({
            courseDateId: to.id,
            ...(repriced ? amountsFor(order, unit, order.quantity) : {}),
            ...owing,
            updatedAt: now,
          })
          .where(eq(orders.id, order.id))
          .returning()) as [OrderRow];
        await recordOrderEvent(tx, order.id, "moved", admin.email, {
          reason,
          fromDateId: from.id,
          toDateId: to.id,
          ...(repriced ? { unitPriceCents: { from: order.unitPriceCents, to: unit } } : {}),
        });
        moneyMoved = await moneyAfterMove(tx, order, movedOrder, invoice, {
          ...context,
          unit,
          paidDearer,
          repriced,
        });
      } else {
        const splitMoney = await splitOffWithMoney(tx, order, moving, to, {
          ...context,
          unit,
          paid: paidSplit,
        });
        movedOrder = splitMoney.order;
        await recordOrderEvent(tx, order.id, "places_moved", admin.email, {
          reason: `${moving.length === 1 ? "Place" : "Places"} ${moving.join(", ")}: ${reason}, as ${orderReference(movedOrder.id)}`,
          toOrderId: movedOrder.id,
          toDateId: to.id,
        });
        await recordOrderEvent(tx, movedOrder.id, "moved", admin.email, {
          reason: `From ${orderReference(order.id)}: ${reason}`,
          fromOrderId: order.id,
          fromDateId: from.id,
          toDateId: to.id,
        });
        moneyMoved = await moneyAfterSplit(tx, order, splitMoney, invoice, to, {
          ...context,
          unit,
        });
      }
      const { money, documents, mails, refund, refundFrom, creditNoteId, owedCents } = moneyMoved;

      const title = order.courseTitleSnapshot;
      mails.push(
        ...leaving.map((a) =>
          attendeeEmail("place_left_date", title, from, a, renderPlaceLeftDate, "CANCEL"),
        ),
      );
      const arriving = (await dateAttendees(tx, to.id)).filter((a) => a.orderId === movedOrder.id);
      mails.push(
        ...arriving.map((a) =>
          attendeeEmail(
            "place_moved",
            title,
            to,
            a,
            (letter) => renderPlaceMoved({ ...letter, was: from }),
            "REQUEST",
          ),
        ),
      );
      mails.unshift({
        kind: "order_moved",
        to: order.buyerEmail,
        replyTo: config.mailReplyTo,
        orderId: movedOrder.id,
        ...renderOrderMoved(movedOrder, from, to, {
          splitFrom: split ? order.id : null,
          money,
          bookingUrl: bookingUrl(movedOrder.id, to.endsAt, now),
        }),
        // A credit note owed back by bank transfer rides on the letter that explains it.
        documentId: creditNoteId,
      });
      await queueEmails(tx, mails);
      await recordAudit(tx, admin, {
        action: "order.move",
        subjectType: "order",
        subjectId: order.id,
        summary: `${orderReference(order.id)}: ${moving.length} of ${order.quantity} ${order.quantity === 1 ? "place" : "places"} moved`,
        before: { date: from.id, places: moving, unitPriceCents: order.unitPriceCents },
        after: {
          date: to.id,
          order: movedOrder.id,
          unitPriceCents: unit,
          ...(documents.length ? { documents } : {}),
          ...(owedCents !== undefined ? { status: movedOrder.status, owedCents } : {}),
        },
      });
      return {
        ok: true,
        orderId: movedOrder.id,
        places: moving.length,
        split,
        to,
        documents,
        refund,
        refundFrom,
        fromDateId: from.id,
        ...(owedCents !== undefined ? { owedCents } : {}),
      };
    },
  );
  if (!result.ok) return result;
  nudgeOutbox();
  // The places left the old date: the people waiting for it are offered them in turn.
  await offerFreedPlacesAfter(result.fromDateId);
  log.info(
    { orderId, to: result.to.id, places: result.places, split: result.split },
    "order places moved",
  );
  const { refundFrom, fromDateId: _from, ...outcome } = result;
  if (refundFrom && outcome.refund) {
    const made = await refundOrder(
      refundFrom,
      {
        amountCents: outcome.refund.cents,
        reason: "requested_by_customer",
        nonce: randomBytes(16).toString("hex"),
        note: "Moved to a date costing less",
      },
      admin,
    );
    if (!made.ok) {
      log.error({ orderId, reason: made.reason }, "order moved: refund of the difference failed");
      outcome.refund = { ...outcome.refund, failed: true };
    }
  }
  return outcome;
}
