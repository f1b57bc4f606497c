import { and, desc, eq } from "drizzle-orm";
import { dateWhere, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { MOVE_MESSAGES, type MoveRequestView, type MoveTarget } from "#app/lib/orders/moves.ts";
import { orderPageHref, orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { bookedDateOf, placesLeftIn, placesOf } from "../catalogue/course-dates.server.ts";
import { config } from "../config.server.ts";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { courseDates, moveRequests, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import {
  renderMoveDeclined,
  renderMoveRequestAlert,
  renderMoveRequested,
} from "../email/templates/booking.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { bookingUrl } from "./booking-links.server.ts";
import { changeWindow, hasBookerPage } from "./booking-rules.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { moveRefusal, moveTargets, type MoveOutcome, moveOrder } from "./moves.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * A booker asking to move places to another date (decision 0038): on their booking page, until
 * the change window closes, they choose a date with room and the places; staff approve it on the
 * order page in one click (the move itself: moves.server.ts) or decline it. One open request per
 * order — a new one withdraws the last — on the timeline, audited, and e-mailed: the booker's
 * confirmation and staff's alert, then the outcome.
 */

type DateRow = typeof courseDates.$inferSelect;
type RequestRow = typeof moveRequests.$inferSelect;

export type MoveRequestOutcome = { ok: true } | { ok: false; status: 404 | 409; message: string };

function viewOf(request: RequestRow, to: DateRow, order: OrderRow, unitOnDate: number | null) {
  return {
    id: request.id,
    requestedAt: request.requestedAt.toISOString(),
    places: request.places,
    to: {
      startsAt: to.startsAt.toISOString(),
      endsAt: to.endsAt.toISOString(),
      where: dateWhere(to),
    },
    paidDearer: order.status === "paid" && unitOnDate !== null && unitOnDate > order.unitPriceCents,
    keepPrice:
      order.status === "paid" &&
      request.places.length < order.quantity &&
      unitOnDate !== null &&
      unitOnDate < order.unitPriceCents,
  } satisfies MoveRequestView;
}

/** The order's open request with its date, or null. */
export async function openMoveRequest(
  runner: Database | Transaction,
  order: OrderRow,
): Promise<MoveRequestView | null> {
  const [row] = await runner
    .select({ request: moveRequests, to: courseDates })
    .from(moveRequests)
    .innerJoin(courseDates, eq(courseDates.id, moveRequests.toCourseDateId))
    .where(and(eq(moveRequests.orderId, order.id), eq(moveRequests.state, "requested")))
    .orderBy(desc(moveRequests.requestedAt))
    .limit(1);
  if (!row) return null;
  const targets = await moveTargets(runner, order);
  const unit = targets.find((t) => t.id === row.to.id)?.unitPriceCents ?? null;
  return viewOf(row.request, row.to, order, unit);
}

/** What the booker's page offers for moving: the dates with room, and the open request. */
export async function bookerMoveOf(
  order: OrderRow,
  date: DateRow | null,
  now: Date,
): Promise<{ targets: MoveTarget[]; open: MoveRequestView | null } | null> {
  if (!date || !changeWindow(order, date, now).open || moveRefusal(order, date, now)) return null;
  const [targets, open] = await Promise.all([
    moveTargets(db(), order, now),
    openMoveRequest(db(), order),
  ]);
  if (targets.length === 0 && !open) return null;
  return { targets, open };
}

/** The booker asks (by their signed link): checked as a move would be, then kept for staff. */
export async function requestMove(
  orderId: string,
  input: { toDateId: string; places: number[] },
  options: { now?: Date; ipAddress?: string | null } = {},
): Promise<MoveRequestOutcome> {
  const now = options.now ?? new Date();
  if (!isUuid(input.toDateId)) return { ok: false, status: 409, message: MOVE_MESSAGES.targetGone };
  const outcome = await db().transaction(async (tx): Promise<MoveRequestOutcome> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || !hasBookerPage(order)) {
      return { ok: false, status: 404, message: MOVE_MESSAGES.notFound };
    }
    const from = await bookedDateOf(tx, order.courseDateId);
    if (!changeWindow(order, from, now).open) {
      return { ok: false, status: 409, message: MOVE_MESSAGES.requestClosed };
    }
    const refusal = moveRefusal(order, from, now);
    if (refusal || !from)
      return { ok: false, status: 409, message: refusal ?? MOVE_MESSAGES.started };
    const places = [...new Set(input.places)].sort((a, b) => a - b);
    if (places.length === 0 || places.some((p) => p < 1 || p > order.quantity)) {
      return { ok: false, status: 409, message: MOVE_MESSAGES.noSuchPlace };
    }
    const [to] = await tx
      .select()
      .from(courseDates)
      .where(and(eq(courseDates.id, input.toDateId), eq(courseDates.courseId, from.courseId)));
    if (!to || to.id === from.id || to.state !== "scheduled" || to.startsAt <= now) {
      return { ok: false, status: 409, message: MOVE_MESSAGES.targetGone };
    }
    // Room is counted again, under the date's lock, when staff approve.
    const left = placesLeftIn(to.capacity, (await placesOf(tx, [to.id])).get(to.id));
    if (places.length > left) {
      return { ok: false, status: 409, message: MOVE_MESSAGES.noRoomToAsk(left) };
    }
    await tx
      .update(moveRequests)
      .set({ state: "withdrawn", decidedAt: now })
      .where(and(eq(moveRequests.orderId, order.id), eq(moveRequests.state, "requested")));
    const [request] = await tx
      .insert(moveRequests)
      .values({ orderId: order.id, toCourseDateId: to.id, places, requestedAt: now })
      .returning();
    const letter = {
      order,
      from,
      to,
      places,
      bookingUrl: bookingUrl(order.id, from.endsAt, now),
      orderUrl: `${config.publicUrl}${orderPageHref(order.id)}`,
    };
    await recordOrderEvent(tx, order.id, "move_requested", "buyer", {
      reason: `${places.length === 1 ? "Place" : "Places"} ${places.join(", ")} to ${dateWhereAndWhen(to)}`,
      requestId: request!.id,
      toDateId: to.id,
    });
    await recordAudit(tx, null, {
      action: "order.move_request",
      subjectType: "order",
      subjectId: order.id,
      summary: `${orderReference(order.id)}: the booker asked to move ${places.length} ${places.length === 1 ? "place" : "places"}`,
      before: { date: from.id },
      after: { date: to.id, places },
      ipAddress: options.ipAddress ?? null,
    });
    await queueEmails(tx, [
      {
        kind: "move_requested",
        to: order.buyerEmail,
        replyTo: config.mailReplyTo,
        orderId: order.id,
        ...renderMoveRequested(letter),
      },
      {
        kind: "move_request_alert",
        to: config.adminEmails,
        replyTo: order.buyerEmail,
        orderId: order.id,
        ...renderMoveRequestAlert(letter),
      },
    ]);
    return { ok: true };
  });
  if (outcome.ok) nudgeOutbox();
  return outcome;
}

function dateWhereAndWhen(date: DateRow): string {
  return `${formatDateRange(date.startsAt, date.endsAt)} (${dateWhere(date)})`;
}

/**
 * Staff's answer on the order page: 'Approve' makes the move (at the new date's price unless
 * staff keep the agreed one) and marks the request approved in the move's transaction; 'Decline'
 * tells the booker. A request already answered or replaced is refused.
 */
export async function decideMoveRequest(
  admin: AuditActor,
  orderId: string,
  requestId: string,
  decision: { approve: true; price: "date" | "keep" } | { approve: false },
): Promise<MoveOutcome | { ok: true; declined: true }> {
  if (!isUuid(orderId) || !isUuid(requestId)) {
    return { ok: false, status: 404, message: MOVE_MESSAGES.notFound };
  }
  const [request] = await db()
    .select()
    .from(moveRequests)
    .where(and(eq(moveRequests.id, requestId), eq(moveRequests.orderId, orderId)));
  if (!request || request.state !== "requested") {
    return { ok: false, status: 409, message: MOVE_MESSAGES.decided };
  }
  if (decision.approve) {
    return moveOrder(admin, orderId, {
      toDateId: request.toCourseDateId,
      places: request.places,
      price: decision.price,
      requestId: request.id,
    });
  }
  const outcome = await db().transaction(async (tx) => {
    const [declined] = await tx
      .update(moveRequests)
      .set({ state: "declined", decidedAt: new Date(), decidedBy: admin.email })
      .where(and(eq(moveRequests.id, request.id), eq(moveRequests.state, "requested")))
      .returning();
    if (!declined)
      return { ok: false as const, status: 409 as const, message: MOVE_MESSAGES.decided };
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    const from = await bookedDateOf(tx, order!.courseDateId);
    const to = await bookedDateOf(tx, request.toCourseDateId);
    await recordOrderEvent(tx, orderId, "move_declined", admin.email, {
      requestId: request.id,
    });
    await recordAudit(tx, admin, {
      action: "order.move_declined",
      subjectType: "order",
      subjectId: orderId,
      summary: `${orderReference(orderId)}: the booker's request to move places declined`,
      before: { request: request.id },
      after: null,
    });
    if (from && to) {
      await queueEmails(tx, [
        {
          kind: "move_declined",
          to: order!.buyerEmail,
          replyTo: config.mailReplyTo,
          orderId,
          ...renderMoveDeclined({
            order: order!,
            from,
            to,
            places: request.places,
            bookingUrl: bookingUrl(orderId, from.endsAt),
            orderUrl: "",
          }),
        },
      ]);
    }
    return { ok: true as const, declined: true as const };
  });
  if (outcome.ok) nudgeOutbox();
  return outcome;
}
