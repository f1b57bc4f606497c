import { eq, sql } from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import type { AuditActor } from "../audit.server.ts";
import { dateAttendees, type DateAttendee } from "../catalogue/date-invitations.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { orderPayments, orderStudents, orders, type courseDates } from "../db/schema.ts";
import { recordOrderEvent } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * Where a move's places go (decision 0038; moves.server.ts decides and records the move): an
 * order's money for a number of places at a price, on its own VAT terms; the places that split
 * off into an order of their own, with their students renumbered; the moving students who leave
 * the old date (each gets its calendar cancellation); and the money received that moves with the
 * places (decision 0046).
 */

type DateRow = typeof courseDates.$inferSelect;

/**
 * What a paid order had received, in its ledger (decision 0046): a card order's checkout payment
 * is written there first (its PaymentIntent as the reference, so a refund made in Stripe's
 * dashboard is still matched), since the order is settled as an invoice from now on. The caller
 * makes the order paid by invoice in the same transaction.
 */
export async function cardPaymentIntoLedger(
  tx: Transaction,
  order: OrderRow,
  actor: AuditActor,
  now: Date,
): Promise<number> {
  if (order.paymentMethod !== "stripe" || order.totalAmountCents <= 0) {
    return order.receivedAmountCents;
  }
  const receivedOn = londonDate(order.paidAt ?? now);
  await tx.insert(orderPayments).values({
    orderId: order.id,
    amountCents: order.totalAmountCents,
    receivedOn,
    method: "card",
    reference: order.stripePaymentIntentId,
    actor: "system",
  });
  await recordOrderEvent(tx, order.id, "payment_received", actor.email, {
    amountCents: order.totalAmountCents,
    receivedOn,
    method: "card",
    reference: order.stripePaymentIntentId,
    reason: "The card payment at checkout, now counted against an invoice",
  });
  return order.totalAmountCents;
}

/**
 * Money that moves with places split off (decision 0046): out of `from` and into `to`, as a pair
 * of ledger rows dated today, each order's received amount changed to match, on both timelines.
 */
export async function moveMoneyWithPlaces(
  tx: Transaction,
  from: OrderRow,
  to: OrderRow,
  amountCents: number,
  actor: AuditActor,
  now: Date,
): Promise<void> {
  const movedOn = londonDate(now);
  const rows = [
    { order: from, cents: -amountCents, reference: `To ${orderReference(to.id)}` },
    { order: to, cents: amountCents, reference: `From ${orderReference(from.id)}` },
  ];
  for (const { order, cents, reference } of rows) {
    await tx.insert(orderPayments).values({
      orderId: order.id,
      amountCents: cents,
      receivedOn: movedOn,
      method: "transfer",
      reference,
      actor: actor.email,
    });
    await tx
      .update(orders)
      .set({ receivedAmountCents: sql`${orders.receivedAmountCents} + ${cents}`, updatedAt: now })
      .where(eq(orders.id, order.id));
    await recordOrderEvent(tx, order.id, "payment_moved", actor.email, {
      amountCents: cents,
      receivedOn: movedOn,
      method: "transfer",
      reference,
    });
  }
}

/** An order's money for `quantity` places at `unitPriceCents`, on its own VAT terms. */
export function amountsFor(order: OrderRow, unitPriceCents: number, quantity: number) {
  const amounts = lineAmounts(unitPriceCents * quantity, {
    rateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
  });
  return {
    unitPriceCents,
    quantity,
    netAmountCents: amounts.netCents,
    vatAmountCents: amounts.vatCents,
    totalAmountCents: amounts.totalCents,
  };
}

/** The moving places' students booked on the old date (each gets that date's cancellation). */
export async function leavingAttendees(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
): Promise<DateAttendee[]> {
  const onDate = (await dateAttendees(tx, order.courseDateId!)).filter(
    (a) => a.orderId === order.id,
  );
  if (moving.length === order.quantity || order.isBuyerStudent) return onDate;
  const students = await tx
    .select({ position: orderStudents.position, email: orderStudents.email })
    .from(orderStudents)
    .where(eq(orderStudents.orderId, order.id));
  const emails = new Set(
    students
      .filter((s) => moving.includes(s.position + 1))
      .map((s) => s.email.trim().toLowerCase()),
  );
  const staying = new Set(
    students
      .filter((s) => !moving.includes(s.position + 1))
      .map((s) => s.email.trim().toLowerCase()),
  );
  // Someone holding a place that moves and one that stays keeps the old date in their calendar.
  return onDate.filter((a) => {
    const key = a.email.trim().toLowerCase();
    return emails.has(key) && !staying.has(key);
  });
}

/**
 * Some of an order's places split off into a new order on `to`: the same buyer, billing details,
 * payment method and status (unless `own` says otherwise), the moved places' students (numbered
 * from 1 again), their price on the new date, nothing received yet (money that moves with them
 * is moved after: moveMoneyWithPlaces). The order keeps the other places at its own price.
 */
export async function splitOff(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
  to: DateRow,
  unit: number,
  now: Date,
  own: Pick<Partial<typeof orders.$inferInsert>, "status" | "paymentMethod" | "paidAt"> = {},
): Promise<OrderRow> {
  const staying = order.quantity - moving.length;
  await tx
    .update(orders)
    .set({ ...amountsFor(order, order.unitPriceCents, staying), updatedAt: now })
    .where(eq(orders.id, order.id));
  const {
    id: _id,
    createdAt: _created,
    updatedAt: _updated,
    stripeCheckoutSessionId: _session,
    stripePaymentIntentId: _intent,
    paidAt: _paidAt,
    paidAfterCancellationAt: _late,
    refundedAmountCents: _refunded,
    ...kept
  } = order;
  const [created] = await tx
    .insert(orders)
    .values({
      ...kept,
      courseDateId: to.id,
      ...amountsFor(order, unit, moving.length),
      receivedAmountCents: 0,
      ...own,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordOrderEvent(tx, created!.id, "created", "system", {
    method: order.paymentMethod,
    splitFrom: order.id,
  });
  const students = await tx.select().from(orderStudents).where(eq(orderStudents.orderId, order.id));
  if (students.length > 0) {
    await tx.delete(orderStudents).where(eq(orderStudents.orderId, order.id));
    const renumber = (rows: typeof students, orderId: string, places: number[]) =>
      rows
        .filter((s) => places.includes(s.position + 1))
        .map((s) => ({
          orderId,
          position: places.indexOf(s.position + 1),
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
        }));
    const stayingPlaces = Array.from({ length: order.quantity }, (_, i) => i + 1).filter(
      (p) => !moving.includes(p),
    );
    const rows = [
      ...renumber(students, order.id, stayingPlaces),
      ...renumber(students, created!.id, moving),
    ];
    if (rows.length > 0) await tx.insert(orderStudents).values(rows);
  }
  return created!;
}
