import { and, eq, isNull, sql } from "drizzle-orm";
import {
  DASHBOARD_ORDER_COUNT,
  type DashboardOrder,
  type MonthRevenue,
} from "#app/lib/admin-dashboard.ts";
import { londonMonth } from "#app/lib/admin-time.ts";
import { orderReference } from "#app/lib/orders.ts";
import { db } from "../db/client.server.ts";
import { orderEvents, orders } from "../db/schema.ts";
import { NEWEST_FIRST } from "./admin.server.ts";

/**
 * What the admin Dashboard shows of orders (issue 18): the latest orders and this month's
 * revenue. Callers have already passed requireAdmin().
 */

/**
 * The latest orders, newest first (the Payments screen's order), whatever their status. Orders
 * held as suspected spam wait on the Payments screen, as held inquiries do on theirs.
 */
export async function latestOrders(limit = DASHBOARD_ORDER_COUNT): Promise<DashboardOrder[]> {
  const rows = await db()
    .select({
      id: orders.id,
      status: orders.status,
      buyerFirstName: orders.buyerFirstName,
      buyerLastName: orders.buyerLastName,
      buyerCompany: orders.buyerCompany,
      billingOrganisation: orders.billingOrganisation,
      courseTitle: orders.courseTitleSnapshot,
      totalAmountCents: orders.totalAmountCents,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(isNull(orders.spamReason))
    .orderBy(...NEWEST_FIRST)
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    reference: orderReference(row.id),
    buyerName: `${row.buyerFirstName} ${row.buyerLastName}`,
    organisation: row.billingOrganisation || row.buyerCompany || null,
    courseTitle: row.courseTitle,
    totalAmountCents: row.totalAmountCents,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * When an order was paid: its first 'paid' event (written by the state machine in the
 * transaction that marked it paid, whether Stripe or an admin did), or, for an order paid before
 * events were recorded, when it was placed — as the refund's receipt dates it
 * (payments/refund-records.server.ts).
 */
const paidAt = sql`coalesce(
  (select min(${orderEvents.createdAt}) from ${orderEvents}
    where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.kind} = 'paid'),
  ${orders.createdAt}
)`;

/**
 * This month's revenue, defined as: the sum, in pence, of `total_amount_cents` (what the buyer
 * paid, VAT included) less `refunded_amount_cents` (everything refunded on that order so far,
 * whenever it was refunded) over the orders that are paid now (status 'paid') in pounds sterling
 * and were paid within the current calendar month in Europe/London — from midnight on the 1st
 * (GMT or BST) up to midnight on the 1st of the next month. Orders held as suspected spam count
 * too once paid: the money is real. Pending, invoiced, failed and canceled orders never count.
 *
 * `now` picks the month (tests pass their own clock).
 */
export async function monthRevenue(now: Date = new Date()): Promise<MonthRevenue> {
  const { start, end } = londonMonth(now);
  const [row] = await db()
    .select({
      // bigint as text: a sum of many totals may exceed 2^31; pence stay exact up to 2^53.
      paid: sql<string>`coalesce(sum(${orders.totalAmountCents}), 0)::text`,
      refunded: sql<string>`coalesce(sum(${orders.refundedAmountCents}), 0)::text`,
      count: sql<number>`count(*)::int`,
    })
    .from(orders)
    .where(
      and(
        eq(orders.status, "paid"),
        eq(orders.currency, "GBP"),
        sql`${paidAt} >= ${start.toISOString()}::timestamptz`,
        sql`${paidAt} < ${end.toISOString()}::timestamptz`,
      ),
    );
  const paidCents = Number(row?.paid ?? 0);
  const refundedCents = Number(row?.refunded ?? 0);
  return {
    monthStart: start.toISOString(),
    paidCents,
    refundedCents,
    netCents: paidCents - refundedCents,
    orderCount: Number(row?.count ?? 0),
  };
}
