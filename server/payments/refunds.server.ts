import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import Stripe from "stripe";
import { parseForm } from "#app/lib/forms.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import {
  REFUND_FORM_FIELDS,
  REFUND_MESSAGES,
  REFUND_REASONS,
  refundFormSchema,
  refundSuccessMessage,
  type RefundAnswerExtra,
  type RefundReason,
} from "#app/lib/orders/refunds.ts";
import type { AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { failure, invalid, success } from "../forms/form-post.server.ts";
import { log } from "../log.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import { countsAsRefunded, recordRefund } from "./refund-records.server.ts";
import { isCardPaymentEnabled, stripe } from "./stripe.server.ts";
import { offerFreedPlacesAfter } from "../catalogue/waiting-list-offers.server.ts";

/**
 * Refunds of card payments from the admin (decision 0016): full or partial, with Stripe's reason
 * and a note of our own. The amount is checked here against the order as stored (never what the
 * browser says is left); Stripe makes the refund; then one transaction records it
 * (refund-records.server.ts): the refund row, the order's refunded amount, a credit note, the
 * timeline and the buyer's e-mail with the credit note attached. If Stripe refuses or cannot be
 * reached, nothing changes here.
 */

export interface RefundRequest {
  /** Whole pence, more than 0 and at most what is left to refund. */
  amountCents: number;
  reason: RefundReason;
  /** The admin's note, kept with the refund (not sent to the buyer). */
  note?: string | null;
  /**
   * The refund form's nonce: with the order and the request's values it makes Stripe's
   * idempotency key, so a double-click (or a retry after no answer) refunds once, while two
   * deliberate refunds of the same amount (two forms, two nonces) both go through.
   */
  nonce: string;
}

export type RefundRefusal =
  "not_found" | "not_refundable" | "invalid" | "too_large" | "stripe_error" | "not_recorded";

export type RefundOutcome =
  | ({ ok: true; alreadyRecorded: boolean; message: string } & RefundAnswerExtra)
  | { ok: false; reason: RefundRefusal; message: string };

export const REFUND_REFUSALS = {
  notFound: "Order not found",
  notCard: "Only an order paid by card can be refunded here",
  notPaid: "Only a paid order can be refunded",
  notConfigured: "Card payments are not configured (STRIPE_SECRET_KEY), so nothing can be refunded",
  noPayment:
    "This order's card payment is not known to the site yet, so it cannot be refunded here. Refund it in the Stripe dashboard: the refund is then recorded on the order.",
  fullyRefunded: "This order has already been refunded in full",
  unreachable:
    "Stripe did not answer, so nothing has been recorded. Please try again: sending the same refund again never refunds twice.",
  notRecorded: (refundId: string) =>
    `Stripe made the refund (${refundId}) but it could not be recorded here yet. Please try again: it will not be refunded twice.`,
} as const;

/** What is left to refund on an order, in pence. */
export function refundableCents(order: Pick<OrderRow, "totalAmountCents" | "refundedAmountCents">) {
  return Math.max(0, order.totalAmountCents - order.refundedAmountCents);
}

/** Why an order cannot be refunded from the admin, or null when it can. */
export function refundRefusal(order: OrderRow): string | null {
  if (order.paymentMethod !== "stripe") return REFUND_REFUSALS.notCard;
  // A payment that arrived after the order was cancelled is owed back as much as a paid order's.
  if (order.status !== "paid" && !order.paidAfterCancellationAt) return REFUND_REFUSALS.notPaid;
  if (refundableCents(order) <= 0) return REFUND_REFUSALS.fullyRefunded;
  return null;
}

/**
 * The order's PaymentIntent. Orders paid before it was stored have their Checkout Session: the
 * session says which PaymentIntent paid it, and it is stored now.
 */
async function paymentIntentOf(order: OrderRow): Promise<string | null> {
  if (order.stripePaymentIntentId) return order.stripePaymentIntentId;
  if (!order.stripeCheckoutSessionId) return null;
  const session = await stripe().checkout.sessions.retrieve(order.stripeCheckoutSessionId);
  const value = session.payment_intent;
  const paymentIntent = typeof value === "string" ? value : (value?.id ?? null);
  if (
    session.payment_status !== "paid" ||
    session.client_reference_id !== order.id ||
    !paymentIntent
  ) {
    return null;
  }
  await db()
    .update(orders)
    .set({ stripePaymentIntentId: paymentIntent, updatedAt: sql`now()` })
    .where(and(eq(orders.id, order.id), isNull(orders.stripePaymentIntentId)));
  return paymentIntent;
}

/**
 * Stripe's idempotency key of a refund request: the order, the form's nonce and what is asked.
 * The same form sent twice (a double-click, a retry) → the same key → Stripe answers with the
 * first refund. A corrected amount, reason or note → another key, so Stripe never refuses the
 * correction as a reused key.
 */
export function refundIdempotencyKey(
  orderId: string,
  request: Pick<RefundRequest, "amountCents" | "reason" | "note" | "nonce">,
): string {
  const asked = createHash("sha256")
    .update(JSON.stringify([request.amountCents, request.reason, request.note ?? ""]))
    .digest("hex")
    .slice(0, 16);
  return `nightwatch-refund-${orderId}-${request.nonce}-${asked}`;
}

/** An admin's message for what Stripe said. */
function stripeErrorMessage(error: unknown): string {
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return `Stripe refused the refund: ${error.message}`;
  }
  if (error instanceof Stripe.errors.StripeCardError) {
    return `Stripe refused the refund: ${error.message}`;
  }
  return REFUND_REFUSALS.unreachable;
}

/**
 * Refunds `amountCents` of a paid card order through Stripe, then records it (once, whether this
 * or Stripe's webhook gets there first). Never throws: a refusal says why, for the admin.
 */
export async function refundOrder(
  orderId: string,
  request: RefundRequest,
  admin: AuditActor,
): Promise<RefundOutcome> {
  if (!isUuid(orderId))
    return { ok: false, reason: "not_found", message: REFUND_REFUSALS.notFound };
  if (
    !Number.isSafeInteger(request.amountCents) ||
    request.amountCents <= 0 ||
    !(REFUND_REASONS as readonly string[]).includes(request.reason) ||
    !/^[A-Za-z0-9_-]{16,64}$/.test(request.nonce)
  ) {
    return { ok: false, reason: "invalid", message: REFUND_MESSAGES.amountInvalid };
  }
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order) return { ok: false, reason: "not_found", message: REFUND_REFUSALS.notFound };
  const refusal = refundRefusal(order);
  if (refusal) return { ok: false, reason: "not_refundable", message: refusal };
  const left = refundableCents(order);
  if (request.amountCents > left) {
    return { ok: false, reason: "too_large", message: REFUND_MESSAGES.amountTooLarge(left) };
  }
  if (!isCardPaymentEnabled()) {
    return { ok: false, reason: "not_refundable", message: REFUND_REFUSALS.notConfigured };
  }

  const note = request.note?.trim() || null;
  let refund: Stripe.Refund;
  try {
    const paymentIntent = await paymentIntentOf(order);
    if (!paymentIntent) {
      return { ok: false, reason: "not_refundable", message: REFUND_REFUSALS.noPayment };
    }
    refund = await stripe().refunds.create(
      {
        payment_intent: paymentIntent,
        amount: request.amountCents,
        reason: request.reason,
        metadata: {
          order_id: order.id,
          order_reference: orderReference(order.id),
          requested_by: admin.email,
          ...(note ? { note } : {}),
        },
      },
      { idempotencyKey: refundIdempotencyKey(order.id, { ...request, note }) },
    );
  } catch (error) {
    log.error(
      { err: error, orderId, amountCents: request.amountCents, admin: admin.email },
      "Stripe refund failed: nothing recorded",
    );
    return { ok: false, reason: "stripe_error", message: stripeErrorMessage(error) };
  }

  let recorded;
  try {
    recorded = await db().transaction((tx) =>
      recordRefund(tx, order.id, {
        stripeRefundId: refund.id,
        amountCents: refund.amount,
        status: refund.status ?? "pending",
        reason: refund.reason ?? request.reason,
        note,
        failureReason: refund.failure_reason ?? null,
        actor: admin.email,
        admin,
      }),
    );
  } catch (error) {
    // Stripe's refund.created webhook records it; so does sending the same form again.
    log.error(
      { err: error, orderId, refundId: refund.id },
      "a Stripe refund was made but could not be recorded",
    );
    return { ok: false, reason: "not_recorded", message: REFUND_REFUSALS.notRecorded(refund.id) };
  }
  if (!recorded) return { ok: false, reason: "not_found", message: REFUND_REFUSALS.notFound };
  if (recorded.created) nudgeOutbox();
  // A refund in full gives the order's places back: the date's waiting list is offered them.
  if (recorded.order.refundedAmountCents >= recorded.order.totalAmountCents) {
    await offerFreedPlacesAfter(recorded.order.courseDateId);
  }
  if (!countsAsRefunded(recorded.refund.status)) {
    return {
      ok: false,
      reason: "stripe_error",
      message: `Stripe could not make the refund (${recorded.refund.status}): nothing was refunded`,
    };
  }
  log.info(
    { orderId, refundId: refund.id, amountCents: refund.amount, admin: admin.email },
    recorded.created ? "order refunded" : "order refund already recorded",
  );
  const extra: RefundAnswerExtra = {
    refundId: recorded.refund.stripeRefundId ?? refund.id,
    amountCents: recorded.refund.amountCents,
    refundedAmountCents: recorded.order.refundedAmountCents,
    creditNoteNumber: recorded.creditNoteNumber,
  };
  return {
    ok: true,
    alreadyRecorded: !recorded.created,
    message: refundSuccessMessage(extra),
    ...extra,
  };
}

const FAILURE_STATUS: Record<RefundRefusal, number> = {
  not_found: 404,
  not_refundable: 409,
  invalid: 400,
  too_large: 400,
  stripe_error: 502,
  not_recorded: 503,
};

/**
 * The order page's `intent=refund` in one line: reads the posted refund form with its schema,
 * refunds, and answers in the admin screens' way — `success("refund", message, extra)` with the
 * refund's id, amount, the order's refunded total and the credit note's number, or a failure
 * with the message (and the amount's field message when it is too large). Call it inside
 * `adminFormAction`, after `requireAdmin`:
 *
 *   refund: (form) => refundFromForm(form, admin),
 */
export async function refundFromForm(form: FormData, admin: AuditActor) {
  const parsed = parseForm(form, refundFormSchema);
  if (!parsed.ok) {
    const unreadable = parsed.fieldErrors.form ?? parsed.fieldErrors.orderId;
    const nonce = parsed.fieldErrors.nonce ?? parsed.fieldErrors.intent;
    return invalid(
      "refund",
      form,
      REFUND_FORM_FIELDS,
      parsed.fieldErrors,
      unreadable || nonce ? REFUND_MESSAGES.formUnreadable : undefined,
    );
  }
  const { orderId, ...request } = parsed.value;
  const outcome = await refundOrder(orderId, request, admin);
  if (outcome.ok) {
    const { ok: _ok, message, alreadyRecorded: _again, ...extra } = outcome;
    return success<RefundAnswerExtra>("refund", message, extra);
  }
  return failure(FAILURE_STATUS[outcome.reason], {
    form: "refund",
    formData: form,
    names: REFUND_FORM_FIELDS,
    fieldErrors: outcome.reason === "too_large" ? { amount: outcome.message } : {},
    message: outcome.message,
  });
}
