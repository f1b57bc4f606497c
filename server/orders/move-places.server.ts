import { eq } from "drizzle-orm";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import { dateAttendees, type DateAttendee } from "../catalogue/date-invitations.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { orderStudents, orders, type courseDates } from "../db/schema.ts";
import { recordOrderEvent } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * Where a move's places go (decision 0038; moves.server.ts decides and records the move): an
 * order's money for a number of places at a price, on its own VAT terms; the places that split
 * off into an order of their own, with their students renumbered; and the moving students who
 * leave the old date (each gets its calendar cancellation).
 */

type DateRow = typeof courseDates.$inferSelect;

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
 * Some of an unsettled order's places split off into a new order on `to`: the same buyer,
 * billing details and status, the moved places' students (numbered from 1 again), their price on
 * the new date. The order keeps the other places at its own price.
 */
export async function splitOff(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
  to: DateRow,
  unit: number,
  now: Date,
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
