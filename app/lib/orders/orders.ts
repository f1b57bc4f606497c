/**
 * Orders as the pages show them (checkout outcome, admin Payments screen). The rules live in
 * server/orders/; this file only names and formats. Safe on both sides.
 */

import { z } from "zod/mini";
import type { MoveOptions, MoveRequestView } from "./moves.ts";
import { formatPence } from "../format.ts";
import type { SpamReason } from "../admin/suspected-spam.ts";
import { dropControlChars } from "../text.ts";
import type { AccessDetailsSent } from "./access-details.ts";
import type { ReceivedPayment } from "./payments.ts";

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

/**
 * What the Payments screen, the order page, the Dashboard and the CSV show and filter by: the
 * order's status, except that a paid order with refunds reads as partly or wholly refunded.
 */
export const ORDER_LIST_STATUSES = [
  "pending",
  "invoiced",
  "paid",
  "partly_refunded",
  "refunded",
  "failed",
  "canceled",
] as const;
export type OrderListStatus = (typeof ORDER_LIST_STATUSES)[number];

export const ORDER_LIST_STATUS_LABELS: Record<OrderListStatus, string> = {
  ...ORDER_STATUS_LABELS,
  partly_refunded: "Partly refunded",
  refunded: "Refunded",
};

export function orderListStatus(order: {
  status: OrderStatus;
  totalAmountCents: number;
  refundedAmountCents: number;
}): OrderListStatus {
  if (order.status !== "paid" || order.refundedAmountCents <= 0) return order.status;
  return order.refundedAmountCents >= order.totalAmountCents ? "refunded" : "partly_refunded";
}

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
  /** The place's number from 0 (places without a student are names to follow). */
  position?: number;
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
  /** What has been refunded, in pence. */
  refundedAmountCents: number;
  /** The status as shown: a paid order with refunds reads 'Partly refunded' or 'Refunded'. */
  listStatus: OrderListStatus;
  createdAt: string;
  /** When it was paid (ISO), for finance's paid date. */
  paidAt: string | null;
  students: AdminOrderStudent[];
  /** The statuses an admin may move this order to now (empty for paid, failed, canceled). */
  actions: OrderStatus[];
}

/**
 * Revenue in pence, as server/orders/revenue.server.ts defines it (one definition for Payments,
 * the Dashboard and the CSV).
 */
export interface Revenue {
  /** Totals (VAT included) of the orders counted, before refunds. */
  paidCents: number;
  /** What has been refunded on those orders so far. */
  refundedCents: number;
  /** paidCents − refundedCents: the revenue shown. */
  revenueCents: number;
  /** The same without VAT. */
  revenueExVatCents: number;
  /** How many orders are counted. */
  orderCount: number;
}

/** Revenue's definition in words, with what was refunded and the figure without VAT. */
export function revenueHint(revenue: Revenue): string {
  const refunds =
    revenue.refundedCents > 0
      ? ` (${formatPence(revenue.paidCents)} paid, ${formatPence(revenue.refundedCents)} refunded)`
      : "";
  return `Paid orders, VAT included, less refunds${refunds}; ${formatPence(revenue.revenueExVatCents)} without VAT.`;
}

export interface OrderStats {
  total: number;
  pending: number;
  invoiced: number;
  paid: number;
  failed: number;
  canceled: number;
  /** Paid orders refunded in part or in full. */
  refunded: number;
  /** All paid orders (revenue.server.ts). */
  revenue: Revenue;
}

export const CANCEL_REASON_MAX = 200;
export const CANCEL_REASON_REQUIRED = "Give a reason for cancelling this order.";

/**
 * The 'Mark Invoiced' / 'Mark Paid' / 'Cancel' post (Payments list and order page). A cancel
 * carries the confirmation's reason (required: the credit note prints it) and its "Notify the
 * buyer by e-mail" checkbox: 'on' when ticked, absent (or empty) when not, as a checkbox posts.
 */
export const orderStatusFormSchema = z
  .object({
    intent: z.literal("status"),
    orderId: z.uuid(),
    status: z.enum(ORDER_STATUSES),
    notifyBuyer: z.pipe(
      z.optional(z.string()),
      z.transform((v) => v === "on" || v === "true"),
    ),
    reason: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(CANCEL_REASON_MAX, `Keep the reason under ${CANCEL_REASON_MAX} characters.`),
        ),
    ),
  })
  .check(
    z.superRefine((form, ctx) => {
      if (form.status === "canceled" && !form.reason) {
        ctx.addIssue({ code: "custom", path: ["reason"], message: CANCEL_REASON_REQUIRED });
      }
    }),
  );

/**
 * What an admin is told when the status change was refused because the order had already moved
 * on (another admin, Stripe, another tab): the screen's failure toast, then why, with the
 * status the order really has. The row is reloaded to show it.
 */
export function statusConflictMessage(reference: string, status: OrderStatus): string {
  if (status === "pending") {
    return `Failed to update order status: order ${reference} is still Pending, and that change is not allowed.`;
  }
  return `Failed to update order status: order ${reference} was already marked ${ORDER_STATUS_LABELS[status]} by someone else.`;
}

/** 'Cancel' on a card order whose buyer paid at Stripe before its payment page could be closed. */
export const PAID_AT_STRIPE_MESSAGE =
  "Failed to cancel: the buyer has just paid for this order at Stripe. Reload to see it marked Paid.";

/** 'Cancel' on a card order while Stripe cannot be reached to close its payment page. */
export const STRIPE_UNREACHABLE_MESSAGE =
  "Failed to cancel: Stripe could not be reached to close the order's payment page, so the order is unchanged. Try again in a moment.";

/** The toast after 'Release' of an order held as suspected spam. */
export const ORDER_RELEASED_MESSAGE = "Order released: its e-mails are on their way";

/** The longest internal note on an order page. */
export const ORDER_NOTE_MAX_LENGTH = 2000;
export const ORDER_NOTE_REQUIRED = "Please write a note";
export const ORDER_NOTE_TOO_LONG = `Please keep the note to ${ORDER_NOTE_MAX_LENGTH.toLocaleString("en-GB")} characters or fewer`;

/** The order page's "Add note" post: non-empty once trimmed, at most ORDER_NOTE_MAX_LENGTH. */
export const orderNoteFormSchema = z.object({
  intent: z.literal("note"),
  text: z
    .string({ error: ORDER_NOTE_REQUIRED })
    .check(
      z.overwrite(dropControlChars),
      z.trim(),
      z.minLength(1, ORDER_NOTE_REQUIRED),
      z.maxLength(ORDER_NOTE_MAX_LENGTH, ORDER_NOTE_TOO_LONG),
    ),
});

/** Billing details as the order page shows them (null on orders placed before they were asked). */
export interface OrderBilling {
  organisation: string | null;
  addressLines: string[];
  town: string | null;
  postcode: string | null;
  country: string | null;
  poNumber: string | null;
  vatNumber: string | null;
}

export interface OrderAmounts {
  unitPriceCents: number;
  quantity: number;
  netCents: number;
  vatCents: number;
  vatRateBasisPoints: number;
  pricesIncludeVat: boolean;
  totalCents: number;
  refundedCents: number;
  currency: string;
}

export type OrderDocumentKind = "invoice" | "receipt" | "credit_note";

export const ORDER_DOCUMENT_LABELS: Record<OrderDocumentKind, string> = {
  invoice: "Invoice",
  receipt: "Receipt",
  credit_note: "Credit note",
};

/** A document's title inside a sentence: 'VAT invoice', 'invoice', 'receipt'. */
export function documentTitleInSentence(title: string): string {
  return title.startsWith("VAT") ? title : title.toLowerCase();
}

/**
 * The document a credit note credits, named as a sentence names it: "VAT receipt INV-2026-0003",
 * "invoice INV-2026-0001". The credited document's title is kept in the credit note (its title
 * as issued); credit notes from before it was kept always credited invoices, and say so.
 */
export function creditedDocumentName(credits: { number: string; title?: string }): string {
  return `${documentTitleInSentence(credits.title ?? "Invoice")} ${credits.number}`;
}

export interface OrderDocumentLink {
  id: string;
  kind: OrderDocumentKind;
  number: string;
  issuedAt: string;
  totalCents: number;
  issuedBy: string;
  /** The admin resource route that draws the PDF. */
  href: string;
}

/** One line of an order's timeline: what happened, when, and who did it. */
export interface OrderTimelineEntry {
  /** Stable across reloads: `event:{id}` or `email:{id}:{stage}`. */
  key: string;
  at: string;
  /** created, invoiced, paid, canceled, note, email_queued, email_sent, email_failed, … */
  kind: string;
  title: string;
  /** A note's text, an e-mail's subject and recipient, a document's number, an error. */
  detail: string | null;
  /** An admin's e-mail, 'buyer', 'stripe', 'system'; null for the mail server's doing. */
  actor: string | null;
}

/** The billing details of an order, as stored and as the billing form (billing-form.ts) posts them. */
export interface BillingDetails {
  organisation: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  town: string | null;
  postcode: string | null;
  country: string | null;
  poNumber: string | null;
  vatNumber: string | null;
}

/** Everything the admin order page shows. */
export interface AdminOrderPage {
  order: AdminOrder;
  billing: OrderBilling;
  amounts: OrderAmounts;
  /** A card payment Stripe has confirmed: where a refund would be made against. */
  refundable: boolean;
  /** When a card payment arrived after the order was cancelled (owed back), or null. */
  paidAfterCancellationAt: string | null;
  /**
   * An invoice order's payments as they arrived (null: a card order), what is still owed
   * (negative: overpaid) and whether "Record Payment" is offered.
   */
  payments: {
    received: ReceivedPayment[];
    receivedCents: number;
    balanceCents: number;
    recordable: boolean;
  } | null;
  /** The UK date today ('yyyy-MM-dd'): the payment forms' default date and latest allowed. */
  today: string;
  /** What may still be refunded by bank on a paid order (card or invoice), or null. */
  bankRefundableCents: number | null;
  /**
   * The billing details as stored while they may be corrected: before the invoice is issued
   * (`reissues` null), or by crediting the unpaid invoice `reissues` and issuing a corrected one;
   * else null.
   */
  billingForm: { stored: BillingDetails; reissues: string | null } | null;
  /**
   * Access details of an on-demand course, by place (from 1): null unless they are sent from
   * this page (a paid order without a date).
   */
  access: Record<number, AccessDetailsSent> | null;
  documents: OrderDocumentLink[];
  timeline: OrderTimelineEntry[];
  /** The date the order's places are on (null: on demand), and whether and where they can move. */
  date: { startsAt: string; endsAt: string; where: string; cancelled: boolean } | null;
  move: MoveOptions | null;
  /** The booker's request to move places, waiting for staff to approve or decline it. */
  moveRequest: MoveRequestView | null;
}

/** Where an order's document is downloaded (the admin resource route). */
export function orderDocumentHref(orderId: string, documentId: string): string {
  return `/admin/payments/${orderId}/documents/${documentId}`;
}

/** The admin order page of an order. */
export function orderPageHref(orderId: string): string {
  return `/admin/payments/${orderId}`;
}

/** The payments screen's 'Release' of an order held as suspected spam. */
export const orderReleaseFormSchema = z.object({
  intent: z.literal("release"),
  orderId: z.uuid(),
});
