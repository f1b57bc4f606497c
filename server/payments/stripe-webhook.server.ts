/**
 * Stripe's signed webhook (POST /api/stripe/webhook), beside the Stripe module: the signature
 * checked on the raw body, the event read and checked for shape, then applied once — Checkout
 * Session events move the order through `transitionOrder`; refund.* events are read here into
 * the facts `recordRefund` (refund-records.server.ts) records.
 */
import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import type { OrderStatus } from "#app/lib/orders/orders.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { orderPayments, orders, stripeEvents } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import type { OrderActor } from "../orders/events.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import { recordPaymentAfterCancellation, transitionOrder } from "../orders/state-machine.server.ts";
import { recordRefund } from "./refund-records.server.ts";
import { isInvoiceBalanceSession, recordInvoiceCardPayment } from "./invoice-card.server.ts";
import { orderForSession, rememberPaymentIntent, type SessionLike } from "./stripe.server.ts";
import { offerFreedPlacesAfter } from "../catalogue/waiting-list-offers.server.ts";

/* ------------------------------------------------------------------------------------------ */
/* Checkout Session events                                                                      */

/**
 * A Checkout Session paying an invoice's balance (decision 0042): its payment is recorded on the
 * order once per session (a replayed event finds it recorded); an expired one changes nothing.
 */
async function invoiceBalanceWebhook(event: Stripe.Event): Promise<WebhookResponse> {
  if (statusForEvent(event) !== "paid") return { status: 200, body: { received: true } };
  try {
    await recordInvoiceCardPayment(event.data.object as Stripe.Checkout.Session);
    return { status: 200, body: { received: true } };
  } catch (error) {
    log.error({ err: error, eventId: event.id }, "could not record an invoice's card payment");
    return { status: 500, body: { received: false, error: "Could not process the event" } };
  }
}

export interface WebhookResponse {
  status: number;
  body: { received: boolean; error?: string; duplicate?: boolean };
}

/** The order status each Checkout Session event leads to (null: no change). */
function isWellFormedEvent(event: unknown): event is Stripe.Event {
  if (typeof event !== "object" || event === null) return false;
  const { id, type, data } = event as { id?: unknown; type?: unknown; data?: unknown };
  if (typeof id !== "string" || typeof type !== "string") return false;
  if (typeof data !== "object" || data === null) return false;
  const object = (data as { object?: unknown }).object;
  return typeof object === "object" && object !== null && !Array.isArray(object);
}

export function statusForEvent(event: {
  type: string;
  data: { object: unknown };
}): OrderStatus | null {
  const session = event.data.object as Partial<SessionLike>;
  switch (event.type) {
    case "checkout.session.completed":
      // A delayed payment method completes the session unpaid; async_payment_* follow.
      return session.payment_status === "paid" || session.payment_status === "no_payment_required"
        ? "paid"
        : null;
    case "checkout.session.async_payment_succeeded":
      return "paid";
    case "checkout.session.async_payment_failed":
      return "failed";
    case "checkout.session.expired":
      return "canceled";
    default:
      return null;
  }
}

/**
 * POST /api/stripe/webhook: verifies the signature on the raw body, then applies the event once.
 * Bad or missing signature → 400 and nothing changes; already applied → 200 (Stripe stops
 * retrying); a failure while applying → 500, nothing recorded, so Stripe's retry can apply it.
 */
export async function handleStripeWebhook(
  rawBody: Uint8Array,
  signature: string | null,
): Promise<WebhookResponse> {
  const secret = config.stripe.webhookSecret;
  if (!secret) {
    log.error("a Stripe webhook arrived but STRIPE_WEBHOOK_SECRET is not set");
    return { status: 503, body: { received: false, error: "Webhooks are not configured" } };
  }
  if (!signature) return { status: 400, body: { received: false, error: "Missing signature" } };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(Buffer.from(rawBody), signature, secret);
  } catch (error) {
    log.warn({ err: error }, "Stripe webhook with an invalid signature refused");
    return { status: 400, body: { received: false, error: "Invalid signature" } };
  }
  // Signed is not the same as well-formed (a signed `null` or an event without data parses).
  if (!isWellFormedEvent(event)) {
    log.warn("signed Stripe webhook without an event id, type or data object refused");
    return { status: 400, body: { received: false, error: "Malformed event" } };
  }
  if (isRefundEvent(event.type)) return refundWebhook(event);
  if (isInvoiceBalanceSession(event.data.object as { metadata?: Stripe.Metadata | null })) {
    return invoiceBalanceWebhook(event);
  }
  const to = statusForEvent(event);
  if (!to) return { status: 200, body: { received: true } };
  const session = event.data.object as SessionLike;
  try {
    const match = await orderForSession(session);
    if (!match.ok) {
      // Retrying cannot help: say received, and leave a trace for staff.
      log.error(
        { eventId: event.id, type: event.type, sessionId: session.id, reason: match.reason },
        "Stripe event for no known order, or one whose amount does not match: ignored",
      );
      return { status: 200, body: { received: true } };
    }
    if (to === "paid") await rememberPaymentIntent(match.order.id, session);
    if (to === "paid" && match.order.status === "canceled") {
      // Paid on a checkout page still open after the order was cancelled: recorded for a refund.
      const late = await recordPaymentAfterCancellation(match.order.id, {
        eventId: event.id,
        eventType: event.type,
      });
      if (late.kind === "duplicate_event") {
        return { status: 200, body: { received: true, duplicate: true } };
      }
      if (late.kind !== "not_cancelled") return { status: 200, body: { received: true } };
    }
    const result = await transitionOrder(match.order.id, to, {
      source: "webhook",
      eventId: event.id,
      eventType: event.type,
    });
    if (result.kind === "duplicate_event") {
      return { status: 200, body: { received: true, duplicate: true } };
    }
    if (result.kind === "unchanged" && to === "paid" && result.order.status === "canceled") {
      // Cancelled between the look-up and the transition: the same record, without the event
      // (the transition has admitted it).
      await recordPaymentAfterCancellation(match.order.id);
    } else if (result.kind === "unchanged" && to === "paid" && result.order.status !== "paid") {
      log.error(
        { orderId: match.order.id, status: result.order.status, eventId: event.id },
        "a paid Checkout Session belongs to an order that can no longer be paid: refund or reinstate it",
      );
    }
    return { status: 200, body: { received: true } };
  } catch (error) {
    log.error(
      { err: error, eventId: event.id, type: event.type },
      "could not apply a Stripe event",
    );
    return { status: 500, body: { received: false, error: "Could not process the event" } };
  }
}

/** refund.created / refund.updated / refund.failed: the refund recorded once on its order. */
async function refundWebhook(event: Stripe.Event): Promise<WebhookResponse> {
  try {
    const result = await applyRefundEvent(event);
    if (result.kind === "duplicate_event") {
      return { status: 200, body: { received: true, duplicate: true } };
    }
    return { status: 200, body: { received: true } };
  } catch (error) {
    log.error(
      { err: error, eventId: event.id, type: event.type },
      "could not apply a Stripe refund event",
    );
    return { status: 500, body: { received: false, error: "Could not process the event" } };
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Refund events                                                                                */

/** The refund events the webhook applies (Stripe: refund.* carry the Refund object itself). */
export const REFUND_EVENT_TYPES = ["refund.created", "refund.updated", "refund.failed"] as const;

export function isRefundEvent(type: string): boolean {
  return (REFUND_EVENT_TYPES as readonly string[]).includes(type);
}

/** What a refund event's object must hold to be applied. */
interface RefundObject {
  id: string;
  amount: number;
  currency: string;
  status: string;
  payment_intent: string | null;
  reason: string | null;
  metadata: Record<string, string>;
  failure_reason: string | null;
}

const REFUND_ID = /^(re|pyr)_[A-Za-z0-9_]{1,250}$/;
const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/;
const STATUSES: readonly string[] = [
  "pending",
  "requires_action",
  "succeeded",
  "failed",
  "canceled",
];

function refundObject(value: unknown): RefundObject | null {
  if (typeof value !== "object" || value === null) return null;
  const o = value as Record<string, unknown>;
  const paymentIntent =
    typeof o.payment_intent === "string"
      ? o.payment_intent
      : typeof o.payment_intent === "object" && o.payment_intent !== null
        ? (o.payment_intent as { id?: unknown }).id
        : null;
  if (typeof o.id !== "string" || !REFUND_ID.test(o.id)) return null;
  if (typeof o.amount !== "number" || !Number.isInteger(o.amount) || o.amount <= 0) return null;
  if (typeof o.status !== "string" || !STATUSES.includes(o.status)) return null;
  const metadata: Record<string, string> = {};
  if (typeof o.metadata === "object" && o.metadata !== null) {
    for (const [key, v] of Object.entries(o.metadata)) if (typeof v === "string") metadata[key] = v;
  }
  return {
    id: o.id,
    amount: o.amount,
    currency: typeof o.currency === "string" ? o.currency : "",
    status: o.status,
    payment_intent:
      typeof paymentIntent === "string" && PAYMENT_INTENT_ID.test(paymentIntent)
        ? paymentIntent
        : null,
    reason: typeof o.reason === "string" ? o.reason : null,
    metadata,
    failure_reason: typeof o.failure_reason === "string" ? o.failure_reason : null,
  };
}

/**
 * The order a refund belongs to: the one our metadata names, else the card order paid by its
 * intent, else the invoice order one of whose card payments it was (an invoice paid by card on
 * the booker's page: the payment's reference is its intent).
 */
async function orderOfRefund(
  refund: RefundObject,
): Promise<{ order: OrderRow; invoicePayment: boolean } | null> {
  const named = refund.metadata.order_id;
  if (named && isUuid(named)) {
    const [order] = await db().select().from(orders).where(eq(orders.id, named));
    if (!order) return null;
    if (!order.stripePaymentIntentId || !refund.payment_intent) {
      return { order, invoicePayment: false };
    }
    if (order.stripePaymentIntentId === refund.payment_intent) {
      return { order, invoicePayment: order.paymentMethod !== "stripe" };
    }
    return null;
  }
  if (!refund.payment_intent) return null;
  const [order] = await db()
    .select()
    .from(orders)
    .where(eq(orders.stripePaymentIntentId, refund.payment_intent));
  // A card order moved to a dearer date is paid by invoice since (decision 0046): its checkout
  // payment is one of its invoice's payments.
  if (order) return { order, invoicePayment: order.paymentMethod !== "stripe" };
  const [paid] = await db()
    .select({ order: orders })
    .from(orderPayments)
    .innerJoin(orders, eq(orders.id, orderPayments.orderId))
    .where(
      and(eq(orderPayments.method, "card"), eq(orderPayments.reference, refund.payment_intent)),
    );
  return paid ? { order: paid.order, invoicePayment: true } : null;
}

/** An admin's address as the site put it in the refund's metadata; anyone else is Stripe. */
function actorOf(refund: RefundObject): OrderActor {
  const by = refund.metadata.requested_by;
  return by && /^[^\s@]{1,64}@[^\s@]{1,255}$/.test(by) ? by : "stripe";
}

export type RefundEventResult =
  | { kind: "applied" }
  | { kind: "duplicate_event" }
  /** Not a refund this site can place: said received (retrying cannot help), and logged. */
  | { kind: "ignored" };

/**
 * Applies a signed refund.* event once: the event id is stored in the transaction that records
 * the refund (or its new status), so a replay or a concurrent delivery changes nothing.
 * Throws when the database fails, so the webhook answers 500 and Stripe retries.
 */
export async function applyRefundEvent(event: {
  id: string;
  type: string;
  data: { object: unknown };
}): Promise<RefundEventResult> {
  const refund = refundObject(event.data.object);
  if (!refund) {
    log.error({ eventId: event.id, type: event.type }, "Stripe refund event without a refund");
    return { kind: "ignored" };
  }
  const found = await orderOfRefund(refund);
  if (!found || (!found.invoicePayment && found.order.paymentMethod !== "stripe")) {
    log.error(
      { eventId: event.id, refundId: refund.id, paymentIntent: refund.payment_intent },
      "Stripe refund for no known card order: not recorded (refund made in Stripe for another payment?)",
    );
    return { kind: "ignored" };
  }
  const order = found.order;
  // A paid invoice's card payment refunded is credited as a refund by bank is. On an invoice
  // still owed, money given back is not a credit of the sale: staff record it by hand.
  if (found.invoicePayment && order.status !== "paid") {
    log.error(
      { eventId: event.id, refundId: refund.id, orderId: order.id, status: order.status },
      "Stripe refund of a card payment on an invoice not yet paid: not recorded, record it by hand",
    );
    return { kind: "ignored" };
  }
  if (refund.currency.toUpperCase() !== order.currency) {
    log.error(
      { eventId: event.id, refundId: refund.id, orderId: order.id, currency: refund.currency },
      "Stripe refund in another currency than its order: not recorded",
    );
    return { kind: "ignored" };
  }
  const result = await db().transaction(async (tx): Promise<RefundEventResult> => {
    const stored = await tx
      .insert(stripeEvents)
      .values({ eventId: event.id, type: event.type, orderId: order.id })
      .onConflictDoNothing()
      .returning({ eventId: stripeEvents.eventId });
    if (stored.length === 0) return { kind: "duplicate_event" };
    await recordRefund(tx, order.id, {
      stripeRefundId: refund.id,
      amountCents: refund.amount,
      status: refund.status,
      reason: refund.reason,
      note: refund.metadata.note?.trim() || null,
      failureReason: refund.failure_reason,
      actor: actorOf(refund),
      // Reported by Stripe: the system's row, whoever asked for the refund.
      admin: null,
    });
    return { kind: "applied" };
  });
  if (result.kind === "applied") {
    log.info(
      { orderId: order.id, refundId: refund.id, status: refund.status, eventId: event.id },
      "Stripe refund event applied",
    );
    nudgeOutbox();
    // A refund in full gives the order's places back (decision 0034); idempotent otherwise.
    await offerFreedPlacesAfter(order.courseDateId);
  }
  return result;
}
