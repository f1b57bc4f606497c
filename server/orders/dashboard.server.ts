import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import {
  DASHBOARD_ORDER_COUNT,
  type DashboardOwedBack,
  type DashboardOrder,
  type MonthRevenue,
} from "#app/lib/orders/dashboard.ts";
import { londonMonth } from "#app/lib/admin/time.ts";
import { orderListStatus, orderReference } from "#app/lib/orders/orders.ts";
import { db } from "../db/client.server.ts";
import { orderPayments, orders } from "../db/schema.ts";
import { LIST_ORDER } from "./admin.server.ts";
import { bankRefundableCents } from "./payments.server.ts";
import { revenue } from "./revenue.server.ts";

/**
 * What the admin Dashboard shows of orders (decision 0024): the latest orders and this month's
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
      refundedAmountCents: orders.refundedAmountCents,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(isNull(orders.spamReason))
    .orderBy(...LIST_ORDER.newestFirst)
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    reference: orderReference(row.id),
    buyerName: `${row.buyerFirstName} ${row.buyerLastName}`,
    organisation: row.billingOrganisation || row.buyerCompany || null,
    courseTitle: row.courseTitle,
    totalAmountCents: row.totalAmountCents,
    status: row.status,
    listStatus: orderListStatus(row),
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * Money staff owe back on cancelled orders, oldest first: card orders paid all the same (the
 * buyer paid on a checkout page still open) and not yet refunded in full, and invoice orders
 * cancelled after money had arrived (a part payment, then the order or its date cancelled) and
 * not yet paid back — what bankRefundableCents allows to refund.
 */
export async function owedBackOnCancelledOrders(): Promise<DashboardOwedBack[]> {
  // When the money came: the late card payment, else the last payment recorded on the invoice.
  const paidAt = sql<Date>`coalesce(${orders.paidAfterCancellationAt},
    (select max(p.created_at) from ${orderPayments} p where p.order_id = ${orders.id}))`;
  const rows = await db()
    .select({ order: orders, paidAt })
    .from(orders)
    .where(
      or(
        and(
          isNotNull(orders.paidAfterCancellationAt),
          lt(orders.refundedAmountCents, orders.totalAmountCents),
        ),
        and(
          eq(orders.status, "canceled"),
          gt(orders.receivedAmountCents, orders.refundedAmountCents),
        ),
      ),
    )
    .orderBy(asc(paidAt))
    .limit(50);
  return rows.map(({ order, paidAt: at }) => ({
    id: order.id,
    reference: orderReference(order.id),
    buyerName: `${order.buyerFirstName} ${order.buyerLastName}`,
    owedCents: bankRefundableCents(order),
    paidAt: new Date(at).toISOString(),
  }));
}

/**
 * When an order was paid: `paid_at`, set by the transition to paid (orders paid before it existed
 * were dated from their first 'paid' event by migration 0018), or when it was placed for one
 * without — as the refund's receipt dates it (payments/refund-records.server.ts).
 */
const paidAt = sql`coalesce(${orders.paidAt}, ${orders.createdAt})`;

/**
 * This month's revenue: revenue as revenue.server.ts defines it (paid orders, VAT included, less
 * everything refunded on them, whenever refunded), over the orders paid within the current
 * calendar month in Europe/London — from midnight on the 1st (GMT or BST) up to midnight on the
 * 1st of the next month.
 *
 * `now` picks the month (tests pass their own clock).
 */
export async function monthRevenue(now: Date = new Date()): Promise<MonthRevenue> {
  const { start, end } = londonMonth(now);
  const money = await revenue(
    and(
      sql`${paidAt} >= ${start.toISOString()}::timestamptz`,
      sql`${paidAt} < ${end.toISOString()}::timestamptz`,
    ),
  );
  return { monthStart: start.toISOString(), ...money };
}
