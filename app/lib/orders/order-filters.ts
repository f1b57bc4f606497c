/**
 * The Payments screen's filters, as its URL carries them (?q=&status=&method=&dates=&from=&to=
 * &page=): the statuses as shown plus "Overdue", the payment method, a range of London days on
 * the date placed, invoiced or paid, and the page; and when an invoice is overdue (the UK day
 * after the day it is due). Safe on both sides.
 */

import { listQuery, oneOf, parseSearch } from "../admin/list.ts";
import { londonDate, parseCalendarDate } from "../admin/time.ts";
import {
  ORDER_LIST_STATUSES,
  ORDER_LIST_STATUS_LABELS,
  PAYMENT_METHODS,
  type PaymentMethod,
} from "./orders.ts";

/**
 * The Payments screen's status filter: the statuses as shown, and "Overdue" — invoiced orders
 * whose invoice in force was due before today (UK day).
 */
export const ORDER_STATUS_FILTERS = [...ORDER_LIST_STATUSES, "overdue"] as const;
export type OrderStatusFilter = (typeof ORDER_STATUS_FILTERS)[number];

export const ORDER_STATUS_FILTER_LABELS: Record<OrderStatusFilter, string> = {
  ...ORDER_LIST_STATUS_LABELS,
  overdue: "Overdue",
};

/** UK days from the due date's day to `now`'s: 0 on the day it is due, negative before. */
export function daysOverdue(dueDate: string, now: Date = new Date()): number {
  const day = (instant: Date) => {
    const [y, m, d] = londonDate(instant).split("-").map(Number) as [number, number, number];
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((day(now) - day(new Date(dueDate))) / (24 * 60 * 60 * 1000));
}

/** An invoice is overdue from the UK day after the day it is due. */
export function isPastDue(dueDate: string, now: Date = new Date()): boolean {
  return daysOverdue(dueDate, now) > 0;
}

/** Which of an order's dates the Payments date range applies to. */
export const ORDER_DATE_FIELDS = ["created", "invoiced", "paid"] as const;
export type OrderDateField = (typeof ORDER_DATE_FIELDS)[number];

export const ORDER_DATE_FIELD_LABELS: Record<OrderDateField, string> = {
  created: "Placed",
  invoiced: "Invoiced",
  paid: "Paid",
};

export interface OrderFilters {
  search: string;
  status: OrderStatusFilter | null;
  method: PaymentMethod | null;
  /** The range's date (placed by default) and its London days, both included ('' for none). */
  dates: OrderDateField;
  from: string;
  to: string;
  page: number;
}

export const ORDERS_PAGE_SIZE = 25;

/** No filter at all: every order (the Payments screen's plain URL, less its page). */
export const ALL_ORDERS: Omit<OrderFilters, "page"> = {
  search: "",
  status: null,
  method: null,
  dates: "created",
  from: "",
  to: "",
};

/**
 * Reads the Payments screen's URL (?q=&status=&method=&dates=&from=&to=&page=); unknown values
 * mean 'All', dates that are not real dates no bound.
 */
export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  const status = params.get("status");
  const method = params.get("method");
  const dates = oneOf(ORDER_DATE_FIELDS, params.get("dates"));
  const from = parseCalendarDate(params.get("from"));
  const to = parseCalendarDate(params.get("to"));
  const page = Number(params.get("page"));
  return {
    search: parseSearch(params.get("q")),
    status: (ORDER_STATUS_FILTERS as readonly string[]).includes(status ?? "")
      ? (status as OrderStatusFilter)
      : null,
    method: (PAYMENT_METHODS as readonly string[]).includes(method ?? "")
      ? (method as PaymentMethod)
      : null,
    dates: dates === "all" ? "created" : dates,
    // An end before the start is read as the start's day.
    from,
    to: from && to && to < from ? from : to,
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The URL query for filters (defaults left out, so the plain URL is the canonical view). */
export function orderFiltersQuery(filters: Partial<OrderFilters>): string {
  const { search, status, method, from, to, page } = filters;
  // The date a range applies to matters only with a range.
  const dates = (from || to) && filters.dates !== "created" ? filters.dates : undefined;
  return listQuery({ q: search, status, method, dates, from, to, page });
}
