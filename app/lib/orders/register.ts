import { listQuery, parsePage } from "../admin/list.ts";
import { londonDate, parseCalendarDate } from "../admin/time.ts";
import type { OrderDocumentKind } from "./orders.ts";

/**
 * The document register (docs/decisions/0039-document-register.md): every invoice, receipt and
 * credit note issued in a range of London dates, their sums, a summary by month, and the files
 * finance takes away. Safe on both sides; the reading is `server/invoices/register.server.ts`.
 */

export const REGISTER_PAGE_SIZE = 50;

export interface RegisterFilters {
  /** London calendar dates, 'yyyy-MM-dd', both included. */
  from: string;
  to: string;
  /** 1-based. */
  page: number;
}

/**
 * The range from the URL (?from=&to=&page=), typed the UK way or as yyyy-MM-dd. Without a start
 * it is the current London month so far; an end before the start is read as the start's day.
 */
export function parseRegisterFilters(
  params: URLSearchParams,
  now: Date = new Date(),
): RegisterFilters {
  const today = londonDate(now);
  const from = parseCalendarDate(params.get("from")) || `${today.slice(0, 8)}01`;
  const to = parseCalendarDate(params.get("to")) || today;
  return { from, to: to < from ? from : to, page: parsePage(params.get("page")) };
}

export function registerFiltersQuery(filters: Partial<RegisterFilters>): string {
  const { from, to, page } = filters;
  return listQuery({ from, to, page });
}

/** The exports of a range, by their path under /admin/documents. */
export const REGISTER_EXPORTS = {
  csv: { path: "/admin/documents/export", label: "Register (CSV)" },
  xero: { path: "/admin/documents/xero", label: "Xero sales import (CSV)" },
  zip: { path: "/admin/documents/pdfs", label: "PDFs (ZIP)" },
} as const;

export function registerExportHref(
  kind: keyof typeof REGISTER_EXPORTS,
  filters: Pick<RegisterFilters, "from" | "to">,
): string {
  return `${REGISTER_EXPORTS[kind].path}${listQuery({ from: filters.from, to: filters.to })}`;
}

/** Where the money of a document stands now: its order's state, read when the register is. */
export type RegisterPaymentState =
  | "paid"
  | "awaiting_payment"
  | "part_paid"
  | "overdue"
  | "part_refunded"
  | "refunded"
  | "credited"
  | "replaced"
  | "credit";

export const REGISTER_PAYMENT_LABELS: Record<RegisterPaymentState, string> = {
  paid: "Paid",
  awaiting_payment: "Awaiting payment",
  part_paid: "Part paid",
  overdue: "Overdue",
  part_refunded: "Part refunded",
  refunded: "Refunded",
  credited: "Credited",
  replaced: "Replaced",
  credit: "Credit",
};

/** One issued document as the register shows it. */
export interface RegisterDocument {
  id: string;
  number: string;
  kind: OrderDocumentKind;
  /** As printed: 'VAT invoice', 'Receipt', 'Credit note'. */
  title: string;
  /** ISO instants. */
  issuedAt: string;
  timeOfSupply: string | null;
  dueDate: string | null;
  customer: string;
  organisation: string | null;
  email: string;
  vatNumber: string | null;
  poNumber: string | null;
  netCents: number;
  vatCents: number;
  totalCents: number;
  /** A credit note's document, or the invoice a corrected one replaces. */
  credits: string | null;
  replaces: string | null;
  orderId: string;
  orderReference: string;
  payment: RegisterPaymentState;
  /** The admin download of its PDF. */
  href: string;
}

export interface Amounts {
  count: number;
  netCents: number;
  vatCents: number;
  totalCents: number;
}

/** Invoices, receipts and credit notes of a period, and what they come to (credits taken off). */
export interface RegisterSums {
  invoices: Amounts;
  receipts: Amounts;
  credits: Amounts;
  /** Invoices and receipts less credit notes. */
  net: Omit<Amounts, "count">;
}

export interface RegisterMonth extends RegisterSums {
  /** 'yyyy-MM', the London month the documents were issued in. */
  month: string;
}

/** The sums of documents of each kind, as the register adds them. */
export function registerSums(byKind: Partial<Record<OrderDocumentKind, Amounts>>): RegisterSums {
  const none: Amounts = { count: 0, netCents: 0, vatCents: 0, totalCents: 0 };
  const invoices = byKind.invoice ?? none;
  const receipts = byKind.receipt ?? none;
  const credits = byKind.credit_note ?? none;
  const net = (key: "netCents" | "vatCents" | "totalCents") =>
    invoices[key] + receipts[key] - credits[key];
  return {
    invoices,
    receipts,
    credits,
    net: { netCents: net("netCents"), vatCents: net("vatCents"), totalCents: net("totalCents") },
  };
}

/** 'November 2026' for '2026-11'. */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Intl.DateTimeFormat("en-GB", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, 15)));
}
