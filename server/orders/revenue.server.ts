import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Revenue } from "#app/lib/orders/orders.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";

/**
 * Revenue, defined once (docs/rules.md, Payments and refunds) for the Payments screen (all
 * time), the Dashboard (this month) and the CSV's refunded column: what buyers paid on the orders
 * that are paid now, VAT included, less everything refunded on them; beside it the same without
 * VAT (each order's net amount less the net share of its refunds, in proportion). Pounds
 * sterling only. Orders held as suspected spam count once paid: the money is real. Pending,
 * invoiced, failed and cancelled orders never count — a payment that arrived after a
 * cancellation is owed back, not earned.
 */

/** The orders whose money counts (`where` narrows them further, e.g. to a month). */
export function revenueCondition(where?: SQL): SQL {
  return and(eq(orders.status, "paid"), eq(orders.currency, "GBP"), where)!;
}

/** One order's revenue without VAT: its net amount less the net share of what was refunded. */
const netAfterRefunds = sql`case when ${orders.totalAmountCents} = 0 then 0 else ${orders.netAmountCents} - round(${orders.netAmountCents}::numeric * ${orders.refundedAmountCents} / ${orders.totalAmountCents}) end`;

/**
 * Revenue's sums as columns of a select over orders, counting only the orders of `only` (a
 * FILTER clause) when given: so a query that reads every order for other figures (the Payments
 * screen's counts) reads revenue in the same pass. Read them back with `toRevenue`.
 */
export function revenueColumns(only?: SQL) {
  const filter = only ? sql` filter (where ${only})` : sql``;
  return {
    // bigint as text: a sum of many totals may exceed 2^31; pence stay exact up to 2^53.
    paid: sql<string>`coalesce(sum(${orders.totalAmountCents})${filter}, 0)::text`,
    refunded: sql<string>`coalesce(sum(${orders.refundedAmountCents})${filter}, 0)::text`,
    exVat: sql<string>`coalesce(sum(${netAfterRefunds})${filter}, 0)::text`,
    count: sql<number>`(count(*)${filter})::int`,
  };
}

/** The revenue of the orders matching `where` (besides revenueCondition's own). */
export async function revenue(where?: SQL): Promise<Revenue> {
  const [row] = await db().select(revenueColumns()).from(orders).where(revenueCondition(where));
  return toRevenue(row);
}

/** A row of `revenueColumns` as the Revenue figures. */
export function toRevenue(
  row: { paid: string; refunded: string; exVat: string; count: number } | undefined,
): Revenue {
  const paidCents = Number(row?.paid ?? 0);
  const refundedCents = Number(row?.refunded ?? 0);
  return {
    paidCents,
    refundedCents,
    revenueCents: paidCents - refundedCents,
    revenueExVatCents: Number(row?.exVat ?? 0),
    orderCount: Number(row?.count ?? 0),
  };
}
