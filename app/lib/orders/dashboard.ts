/**
 * What the admin Dashboard shows of orders (decision 0024): the latest orders and this month's
 * revenue. The queries live in server/orders/dashboard.server.ts; this file only names and
 * formats, so it is safe on both sides.
 */

import type { OrderListStatus, OrderStatus, Revenue } from "./orders.ts";
import { BUSINESS_TIME_ZONE } from "../admin/time.ts";

/** How many of the latest orders the Dashboard lists. */
export const DASHBOARD_ORDER_COUNT = 5;

/** One of the Dashboard's latest orders. */
export interface DashboardOrder {
  id: string;
  /** 'NW-1A2B3C4D' */
  reference: string;
  buyerName: string;
  /** The billing organisation, else the company typed at checkout; null for neither. */
  organisation: string | null;
  courseTitle: string;
  totalAmountCents: number;
  status: OrderStatus;
  /** As shown: a paid order with refunds reads 'Partly refunded' or 'Refunded'. */
  listStatus: OrderListStatus;
  createdAt: string;
}

/**
 * A cancelled order with money to pay back (the Dashboard's alert): paid all the same after it
 * was cancelled, or cancelled after money had arrived.
 */
export interface DashboardOwedBack {
  id: string;
  reference: string;
  buyerName: string;
  /** What is still owed back, in pence. */
  owedCents: number;
  /** When the money arrived or was recorded (ISO). */
  paidAt: string;
}

/**
 * This month's revenue, in pence (see `monthRevenue` in server/orders/dashboard.server.ts: revenue
 * as Payments defines it, over the orders paid this month).
 */
export interface MonthRevenue extends Revenue {
  /** The first instant of the month in London (ISO), e.g. 2026-11-01T00:00:00.000Z. */
  monthStart: string;
}

/** An empty month: when the figure could not be read (the page shows £0.00 and logs why). */
export function emptyMonthRevenue(monthStart: Date): MonthRevenue {
  return {
    monthStart: monthStart.toISOString(),
    paidCents: 0,
    refundedCents: 0,
    revenueCents: 0,
    revenueExVatCents: 0,
    orderCount: 0,
  };
}

/** 'November 2026': the London calendar month that starts at `monthStart`. */
export function formatLondonMonth(monthStart: Date | string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: BUSINESS_TIME_ZONE,
    month: "long",
    year: "numeric",
  }).format(new Date(monthStart));
}
