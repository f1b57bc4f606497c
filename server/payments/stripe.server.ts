import { formatVatRate } from "#app/lib/orders/vat.ts";
import { and, eq, isNull, sql } from "drizzle-orm";
import Stripe from "stripe";
import type { PaymentVerification } from "#app/lib/checkout.ts";
import { hitRateLimit } from "../abuse.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { log } from "../log.server.ts";
import {
  attachCheckoutSession,
  findOrderByCheckoutSession,
  findOrderWithCourse,
} from "../orders/create.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import {
  recordPaymentAfterCancellation,
  transitionOrder,
  type TransitionResult,
} from "../orders/state-machine.server.ts";

export type { PaymentVerification };

/**
 * Card payments through Stripe Checkout (decision 0005; docs/rules.md, Payments and refunds):
 * starting a Checkout Session for an order, verifying the session a buyer returns with, and the
 * signed webhook. Card data never reaches this server. All status changes go through
 * `transitionOrder`, so the webhook and the success page may race and exactly one wins. The
 * webhook's refund events are read by stripe-webhook.server.ts and recorded by
 * refund-records.server.ts; refunds are made by refunds.server.ts with this module's client.
 */

/** How long a buyer has to pay before Stripe expires the session (Stripe allows 30 min – 24 h). */
export const CHECKOUT_SESSION_LIFETIME_S = 60 * 60;

let client: Stripe | undefined;

export function isCardPaymentEnabled(): boolean {
  return Boolean(config.stripe.secretKey);
}

/** The Stripe API client (the real SDK; in tests pointed at the fake Stripe). */
export function stripe(): Stripe {
  const secretKey = config.stripe.secretKey;
  if (!secretKey) throw new Error("Card payments are not configured (STRIPE_SECRET_KEY).");
  if (!client) {
    const base = config.stripe.apiBase;
    if (base) {
      log.warn(
        { host: base.host, port: base.port },
        "Stripe API calls go to STRIPE_API_BASE (tests only)",
      );
    }
    client = new Stripe(secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: "NightWatch site" },
      // Tests point the real SDK at a fake Stripe on loopback (STRIPE_API_BASE).
      ...(base ? { host: base.host, port: base.port, protocol: base.protocol } : {}),
    });
  }
  return client;
}

/* ------------------------------------------------------------------------------------------ */
/* Starting a payment                                                                           */

/**
 * What Stripe charges: the course line as stored, and when VAT is added on top of the price, a
 * VAT line with the order's VAT, so the card is charged exactly the order's total.
 */
function checkoutLineItems(order: OrderRow): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const currency = order.currency.toLowerCase();
  const items: Stripe.Checkout.SessionCreateParams.LineItem[] = [
    {
      price_data: {
        currency,
        unit_amount: order.unitPriceCents,
        product_data: { name: order.courseTitleSnapshot },
      },
      quantity: order.quantity,
    },
  ];
  if (!order.pricesIncludeVat && order.vatAmountCents > 0) {
    items.push({
      price_data: {
        currency,
        unit_amount: order.vatAmountCents,
        product_data: { name: `VAT at ${formatVatRate(order.vatRateBasisPoints)}` },
      },
      quantity: 1,
    });
  }
  return items;
}

/** The Checkout Session parameters for an order (exported so tests can compare). */
export function checkoutSessionParams(
  order: OrderRow,
  courseSlug: string,
): Stripe.Checkout.SessionCreateParams {
  const coursePath = `${config.publicUrl}/courses/${encodeURIComponent(courseSlug)}`;
  return {
    mode: "payment",
    line_items: checkoutLineItems(order),
    customer_email: order.buyerEmail,
    client_reference_id: order.id,
    metadata: { order_id: order.id, course_slug: courseSlug },
    payment_intent_data: { metadata: { order_id: order.id } },
    // Stripe replaces {CHECKOUT_SESSION_ID} itself; it must stay literal here.
    success_url: `${coursePath}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${coursePath}/canceled`,
    // From the order's creation, so a retried request carries identical parameters.
    expires_at: Math.floor(order.createdAt.getTime() / 1000) + CHECKOUT_SESSION_LIFETIME_S,
  };
}

export type StartCheckoutResult = { ok: true; url: string; sessionId: string } | { ok: false };

/**
 * Creates the Checkout Session of a pending card order (idempotency key = the order, so a retry
 * never makes a second session) and stores its id on the order. On failure the order is marked
 * failed, so it does not linger as pending, and the buyer sees 'Payment Error'.
 */
export async function startCheckout(
  order: OrderRow,
  courseSlug: string,
): Promise<StartCheckoutResult> {
  try {
    const session = await stripe().checkout.sessions.create(
      checkoutSessionParams(order, courseSlug),
      {
        idempotencyKey: `nightwatch-order-${order.id}`,
      },
    );
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
    await attachCheckoutSession(order.id, session.id);
    log.info({ orderId: order.id, sessionId: session.id }, "checkout session created");
    return { ok: true, url: session.url, sessionId: session.id };
  } catch (error) {
    log.error({ err: error, orderId: order.id }, "could not create a Stripe Checkout Session");
    await transitionOrder(order.id, "failed", { source: "checkout" }).catch((e: unknown) =>
      log.error({ err: e, orderId: order.id }, "could not mark the order failed"),
    );
    return { ok: false };
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Matching a session to its order                                                              */

export type SessionLike = Pick<
  Stripe.Checkout.Session,
  | "id"
  | "client_reference_id"
  | "amount_total"
  | "currency"
  | "payment_status"
  | "status"
  | "payment_intent"
>;

type Match =
  | { ok: true; order: OrderRow & { courseSlug: string | null } }
  | { ok: false; reason: "no_order" | "mismatch" };

/** What a Stripe Checkout Session id looks like. */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/** Whether `value` can be a Checkout Session id (anything else must not reach Stripe or SQL). */
export function isCheckoutSessionId(value: unknown): value is string {
  return typeof value === "string" && SESSION_ID.test(value);
}

/**
 * The order a session pays for: by client_reference_id (our order id), else by the stored
 * session id; and only if the session is the order's own and charges exactly its total in GBP.
 */
export async function orderForSession(session: SessionLike): Promise<Match> {
  // Only a Checkout Session id can name an order (and anything else must not reach SQL).
  if (!isCheckoutSessionId(session.id)) {
    return { ok: false, reason: "no_order" };
  }
  let order = session.client_reference_id
    ? await findOrderWithCourse(session.client_reference_id)
    : null;
  if (!order) {
    const bySession = await findOrderByCheckoutSession(session.id);
    order = bySession ? await findOrderWithCourse(bySession.id) : null;
  }
  if (!order) return { ok: false, reason: "no_order" };
  if (order.paymentMethod !== "stripe") return { ok: false, reason: "mismatch" };
  if (order.stripeCheckoutSessionId && order.stripeCheckoutSessionId !== session.id) {
    return { ok: false, reason: "mismatch" };
  }
  if (
    session.amount_total !== order.totalAmountCents ||
    (session.currency ?? "").toUpperCase() !== order.currency
  ) {
    return { ok: false, reason: "mismatch" };
  }
  // The id was not stored if the process stopped between creating the session and saving it.
  if (!order.stripeCheckoutSessionId) await attachCheckoutSession(order.id, session.id);
  return { ok: true, order };
}

const PAYMENT_INTENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/;

/**
 * Stores the PaymentIntent of the order's paid session (what refunds are made against), before
 * the order is moved to paid: so a paid card order always has it. Set once; a different one
 * later is logged and not stored (an order has one session, and a session one payment).
 */
export async function rememberPaymentIntent(
  orderId: string,
  session: Pick<SessionLike, "id" | "payment_intent">,
): Promise<void> {
  const value = session.payment_intent;
  const paymentIntent = typeof value === "string" ? value : (value?.id ?? null);
  if (!paymentIntent || !PAYMENT_INTENT_ID.test(paymentIntent)) {
    log.warn({ orderId, sessionId: session.id }, "a paid Checkout Session without a PaymentIntent");
    return;
  }
  const stored = await db()
    .update(orders)
    .set({ stripePaymentIntentId: paymentIntent, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), isNull(orders.stripePaymentIntentId)))
    .returning({ id: orders.id });
  if (stored.length > 0) return;
  const [current] = await db()
    .select({ paymentIntent: orders.stripePaymentIntentId })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (current && current.paymentIntent !== paymentIntent) {
    log.error(
      { orderId, sessionId: session.id, stored: current.paymentIntent, paymentIntent },
      "an order paid by a second PaymentIntent: the first is kept for refunds",
    );
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The success page (verify-payment)                                                            */

/** How often one Checkout Session may be looked up at Stripe by the success page. */
const VERIFICATIONS_PER_MINUTE = 6;

/**
 * Verifies the session a buyer returns with from Stripe: it must be one of our orders' sessions,
 * of the course at `courseSlug`, and be paid; then the order is moved to paid (idempotently).
 * Stripe is asked only while the order is not yet settled here. Never throws: failures are
 * logged and returned.
 */
export async function verifyCheckoutReturn(
  courseSlug: string,
  sessionId: string,
): Promise<PaymentVerification> {
  if (!isCheckoutSessionId(sessionId)) return { kind: "not_found" };
  // The database first: a session no order of ours names costs no call to Stripe, and a payment
  // already recorded (by an earlier visit or the webhook) is answered from here.
  const known = await findOrderByCheckoutSession(sessionId);
  const placed = known ? await findOrderWithCourse(known.id) : null;
  if (!placed || placed.courseSlug !== courseSlug) return { kind: "not_found" };
  if (placed.status === "paid") {
    return { kind: "paid", orderId: placed.id, buyerEmail: placed.buyerEmail };
  }
  if (placed.paidAfterCancellationAt) {
    return { kind: "conflict", orderId: placed.id, status: placed.status };
  }
  // Still open: Stripe is asked, a few times a minute per session at most.
  const limit = await hitRateLimit(`verify:${sessionId}`, "", VERIFICATIONS_PER_MINUTE);
  if (!limit.allowed) return { kind: "processing", orderId: placed.id };
  if (!isCardPaymentEnabled()) {
    log.error({ sessionId }, "payment verification impossible: STRIPE_SECRET_KEY is not set");
    return { kind: "error" };
  }
  try {
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe().checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        log.warn({ sessionId }, "payment verification: no such Checkout Session");
        return { kind: "not_found" };
      }
      throw error;
    }
    const match = await orderForSession(session);
    if (!match.ok || match.order.courseSlug !== courseSlug) {
      log.warn(
        { sessionId, courseSlug, reason: match.ok ? "other_course" : match.reason },
        "payment verification: the session is not an order of this course",
      );
      return { kind: "not_found" };
    }
    const { order } = match;
    if (session.payment_status === "paid") {
      await rememberPaymentIntent(order.id, session);
      const result = await transitionOrder(order.id, "paid", { source: "success_page" });
      if (result.kind === "unchanged" && result.order.status === "canceled") {
        // Paid after it was cancelled: recorded for staff to refund, whoever reports it first.
        await recordPaymentAfterCancellation(order.id);
      }
      return paidOutcome(result, order);
    }
    if (session.status === "complete") return { kind: "processing", orderId: order.id };
    log.info({ sessionId, status: session.status }, "payment verification: session not paid");
    return { kind: "not_paid" };
  } catch (error) {
    log.error({ err: error, sessionId }, "payment verification failed");
    return { kind: "error" };
  }
}

/**
 * Closes a Checkout Session so its buyer can no longer pay on it (before its order is cancelled):
 * `closed` when Stripe expired it now, or it had expired or never existed; `paid` when it was
 * completed first (the payment stands, and Stripe's webhook records it); `error` when Stripe
 * could not say (the order must then stay as it is). Stripe settles the race between a payment
 * and the expiry: exactly one of them wins.
 */
export async function closeCheckoutSession(
  sessionId: string,
): Promise<"closed" | "paid" | "error"> {
  try {
    await stripe().checkout.sessions.expire(sessionId);
    return "closed";
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
      return "closed";
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      // Not open any more: it expired, or it was completed first. Ask which.
      try {
        const session = await stripe().checkout.sessions.retrieve(sessionId);
        if (session.status === "expired") return "closed";
        if (session.status === "complete") return "paid";
      } catch (retrieveError) {
        log.error({ err: retrieveError, sessionId }, "could not read a Checkout Session");
        return "error";
      }
    }
    log.error({ err: error, sessionId }, "could not expire a Checkout Session");
    return "error";
  }
}

function paidOutcome(result: TransitionResult, order: OrderRow): PaymentVerification {
  const current =
    result.kind === "transitioned" || result.kind === "unchanged" ? result.order : null;
  if (current?.status === "paid") {
    return { kind: "paid", orderId: order.id, buyerEmail: order.buyerEmail };
  }
  const status = current?.status ?? order.status;
  log.error(
    { orderId: order.id, status },
    "a paid Checkout Session belongs to an order that can no longer be paid: refund or reinstate it",
  );
  return { kind: "conflict", orderId: order.id, status };
}
