/**
 * Orders as the pages show them (checkout outcome, admin Payments screen). The rules live in
 * server/orders/; this file only names and formats. Safe on both sides.
 */

import { z } from "zod/mini";
import { listQuery, parseSearch } from "./admin-list.ts";
import type { SpamReason } from "./suspected-spam.ts";

export const ORDER_STATUSES = ["pending", "invoiced", "paid", "failed", "canceled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_METHODS = ["stripe", "invoice"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  invoiced: "Invoiced",
  paid: "Paid",
  failed: "Failed",
  canceled: "Canceled",
};

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  stripe: "Card Payment",
  invoice: "Manual Invoice",
};

/** What an admin may do to an order, named by the status it leads to. */
export const ADMIN_ACTION_LABELS: Partial<Record<OrderStatus, string>> = {
  invoiced: "Mark Invoiced",
  paid: "Mark Paid",
  canceled: "Cancel",
};

/** The short reference customers quote: 'NW-' and the first eight characters of the id. */
export function orderReference(orderId: string): string {
  return `NW-${orderId.replace(/-/g, "").slice(0, 8).toUpperCase()}`;
}

export interface AdminOrderStudent {
  firstName: string;
  lastName: string;
  email: string;
}

export interface AdminOrder {
  id: string;
  reference: string;
  status: OrderStatus;
  paymentMethod: PaymentMethod;
  buyerFirstName: string;
  buyerLastName: string;
  buyerEmail: string;
  buyerPhone: string | null;
  buyerCompany: string | null;
  courseTitle: string;
  unitPriceCents: number;
  quantity: number;
  totalAmountCents: number;
  currency: string;
  isBuyerStudent: boolean;
  /** Set while held as suspected spam (no e-mails sent yet). */
  spamReason: SpamReason | null;
  createdAt: string;
  students: AdminOrderStudent[];
  /** The statuses an admin may move this order to now (empty for paid, failed, canceled). */
  actions: OrderStatus[];
}

export interface OrderStats {
  total: number;
  pending: number;
  invoiced: number;
  paid: number;
  failed: number;
  canceled: number;
  /** Sum of the totals of paid orders, in pence. */
  revenueCents: number;
}

export interface OrderFilters {
  search: string;
  status: OrderStatus | null;
  method: PaymentMethod | null;
  page: number;
}

export const ORDERS_PAGE_SIZE = 25;

/** Reads the Payments screen's URL (?q=&status=&method=&page=); unknown values mean 'All'. */
export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  const status = params.get("status");
  const method = params.get("method");
  const page = Number(params.get("page"));
  return {
    search: parseSearch(params.get("q")),
    status: (ORDER_STATUSES as readonly string[]).includes(status ?? "")
      ? (status as OrderStatus)
      : null,
    method: (PAYMENT_METHODS as readonly string[]).includes(method ?? "")
      ? (method as PaymentMethod)
      : null,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The URL query for filters (defaults left out, so the plain URL is the canonical view). */
export function orderFiltersQuery(filters: Partial<OrderFilters>): string {
  const { search, status, method, page } = filters;
  return listQuery({ q: search, status, method, page });
}

/** The payments screen's 'Mark Invoiced' / 'Mark Paid' / 'Cancel' post. */
export const orderStatusFormSchema = z.object({
  intent: z.literal("status"),
  orderId: z.uuid(),
  status: z.enum(ORDER_STATUSES),
});

/** The payments screen's 'Release' of an order held as suspected spam. */
export const orderReleaseFormSchema = z.object({
  intent: z.literal("release"),
  orderId: z.uuid(),
});
