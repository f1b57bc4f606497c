import { asc, eq } from "drizzle-orm";
import type { ChangesClosed } from "#app/lib/orders/booking.ts";
import { workingDaysBefore } from "../calendar/working-days.server.ts";
import { config } from "../config.server.ts";
import type { Database, Transaction } from "../db/client.server.ts";
import { type courseDates, orderStudents } from "../db/schema.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * What the booker may do with their order, and who holds its places (decisions 0037, 0038): the
 * rules the booker's page, changes of student and moves of places all read, kept apart so none of
 * them imports another.
 */

type DateRow = typeof courseDates.$inferSelect;
type Executor = Database | Transaction;

export type Holder = { firstName: string; lastName: string; email: string };

/** Whether the order's booker may see its page at all. */
export function hasBookerPage(order: OrderRow): boolean {
  return order.anonymisedAt === null && order.spamReason === null;
}

/** Whether the order still holds its places (as the dates' place counts say: holdsPlaces). */
export function holdsItsPlaces(order: OrderRow): boolean {
  return (
    ["pending", "invoiced", "paid"].includes(order.status) &&
    order.refundedAmountCents < order.totalAmountCents
  );
}

/**
 * Until when the booker may change names: for a date, the end of the working day
 * BOOKING_CHANGES_CUTOFF_WORKING_DAYS before it starts (docs/rules.md, Bookings); for an
 * on-demand course, for as long as the order holds its places (each place until its access
 * details are sent).
 */
export function changeWindow(
  order: OrderRow,
  date: DateRow | null,
  now: Date,
): { open: true; until: Date | null } | { open: false; reason: ChangesClosed } {
  if (!holdsItsPlaces(order)) return { open: false, reason: "not_held" };
  if (!date) return { open: true, until: null };
  if (date.state === "cancelled") return { open: false, reason: "date_cancelled" };
  const until = workingDaysBefore(date.startsAt, config.bookingChangesCutoffWorkingDays);
  return now < until ? { open: true, until } : { open: false, reason: "cut_off" };
}

/** Who holds each place (1 to quantity): the buyer attending themself, or the stored student. */
export async function holdersOf(executor: Executor, order: OrderRow): Promise<Map<number, Holder>> {
  const holders = new Map<number, Holder>();
  if (order.isBuyerStudent) {
    holders.set(1, {
      firstName: order.buyerFirstName,
      lastName: order.buyerLastName,
      email: order.buyerEmail,
    });
    return holders;
  }
  const rows = await executor
    .select()
    .from(orderStudents)
    .where(eq(orderStudents.orderId, order.id))
    .orderBy(asc(orderStudents.position));
  // A place is the stored position + 1, as on the register.
  for (const row of rows) holders.set(row.position + 1, row);
  return holders;
}
