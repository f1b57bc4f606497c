import type Stripe from "stripe";
import { londonDate } from "#app/lib/admin/time.ts";
import { CARD_SESSION_PARAM, PAY_BY_CARD_ANCHOR } from "#app/lib/orders/booking.ts";
import { hitRateLimit } from "../abuse.server.ts";
import { db } from "../db/client.server.ts";
import { isUuid } from "../db/sql.server.ts";
import { currentInvoice } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { balanceOf, recordPayment, type PaymentOutcome } from "../orders/payments.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import { isCardPaymentEnabled, isCheckoutSessionId, stripe } from "./stripe.server.ts";

/**
 * Paying an invoice by card (docs/decisions/0042-payments-as-they-arrive.md): the invoice links
 * to the booker's page, whose "Pay by card" makes a Stripe Checkout Session for what is owed
 * then (never before: a link opened by a mail scanner makes nothing). The payment is recorded as
 * any payment against the invoice, once per session, whether Stripe's webhook or the buyer's
 * return reports it first; the one that clears the balance pays the order.
 */

/** The metadata that tells an invoice's card payment from a card order's checkout. */
export const INVOICE_BALANCE_PURPOSE = "invoice_balance";

/** Ten minutes: one session per order and amount in that time, however often Pay is pressed. */
const SESSION_BUCKET_S = 10 * 60;
/** Stripe wants at least 30 minutes; a session lasts an hour from its bucket's start. */
const SESSION_LIFETIME_S = 70 * 60;

/** What the booker's page offers: the balance of an unpaid invoice, when card payments are on. */
export function cardPaymentOffered(order: OrderRow): boolean {
  return (
    isCardPaymentEnabled() &&
    order.paymentMethod === "invoice" &&
    order.status === "invoiced" &&
    balanceOf(order) > 0
  );
}

export function invoiceCardSessionParams(
  order: OrderRow,
  invoiceNumber: string,
  pageUrl: string,
  now: Date,
): Stripe.Checkout.SessionCreateParams {
  const bucket = Math.floor(now.getTime() / 1000 / SESSION_BUCKET_S) * SESSION_BUCKET_S;
  const metadata = { order_id: order.id, purpose: INVOICE_BALANCE_PURPOSE, invoice: invoiceNumber };
  return {
    mode: "payment",
    line_items: [
      {
        price_data: {
          currency: order.currency.toLowerCase(),
          // What is owed on the invoice, VAT included: the invoice already charged the VAT.
          unit_amount: balanceOf(order),
          product_data: { name: `Invoice ${invoiceNumber}: ${order.courseTitleSnapshot}` },
        },
        quantity: 1,
      },
    ],
    customer_email: order.buyerEmail,
    metadata,
    payment_intent_data: { metadata },
    // Stripe replaces {CHECKOUT_SESSION_ID} itself; it must stay literal here.
    success_url: `${pageUrl}?${CARD_SESSION_PARAM}={CHECKOUT_SESSION_ID}#${PAY_BY_CARD_ANCHOR}`,
    cancel_url: `${pageUrl}#${PAY_BY_CARD_ANCHOR}`,
    expires_at: bucket + SESSION_LIFETIME_S,
  };
}

export type StartOutcome =
  { ok: true; url: string } | { ok: false; reason: "not_owed" | "limited" | "unavailable" };

/**
 * A Checkout Session for what the order owes now, to send the booker to. The same order and
 * amount within ten minutes reuse one session (the idempotency key), so a double press or a
 * reload does not make two; a page that keeps asking is rate limited.
 */
export async function startInvoiceCardPayment(
  order: OrderRow,
  pageUrl: string,
  client: string,
  now: Date = new Date(),
): Promise<StartOutcome> {
  if (!cardPaymentOffered(order)) return { ok: false, reason: "not_owed" };
  if (!(await hitRateLimit("invoice-card", client, 10)).allowed) {
    return { ok: false, reason: "limited" };
  }
  const invoice = await currentInvoice(db(), order.id);
  if (!invoice || invoice.kind !== "invoice") return { ok: false, reason: "not_owed" };
  const params = invoiceCardSessionParams(order, invoice.number, pageUrl, now);
  try {
    const session = await stripe().checkout.sessions.create(params, {
      idempotencyKey: `nightwatch-invoice-${order.id}-${balanceOf(order)}-${params.expires_at}`,
    });
    if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
    log.info({ orderId: order.id, sessionId: session.id }, "invoice card payment started");
    return { ok: true, url: session.url };
  } catch (error) {
    log.error({ err: error, orderId: order.id }, "could not start an invoice's card payment");
    return { ok: false, reason: "unavailable" };
  }
}

type SessionFacts = Pick<
  Stripe.Checkout.Session,
  "id" | "amount_total" | "currency" | "payment_status" | "payment_intent" | "metadata"
>;

/** Whether a Checkout Session (from the webhook or Stripe's answer) pays an invoice's balance. */
export function isInvoiceBalanceSession(session: { metadata?: Stripe.Metadata | null }): boolean {
  return session.metadata?.purpose === INVOICE_BALANCE_PURPOSE;
}

/**
 * Records a paid invoice-balance session as a card payment on its order, once per session.
 * Not paid yet, or not one of ours: nothing. A payment the order can no longer take (cancelled
 * meanwhile) is logged for staff, who refund it in Stripe: the money is there.
 */
export async function recordInvoiceCardPayment(
  session: SessionFacts,
  now: Date = new Date(),
): Promise<PaymentOutcome | null> {
  const orderId = session.metadata?.order_id;
  if (!isInvoiceBalanceSession(session) || !orderId || !isUuid(orderId)) return null;
  if (session.payment_status !== "paid") return null;
  const amount = session.amount_total ?? 0;
  if (amount <= 0 || (session.currency ?? "").toUpperCase() !== "GBP") {
    log.error({ orderId, sessionId: session.id }, "an invoice card payment in another currency");
    return null;
  }
  const intent = session.payment_intent;
  const paymentIntent = typeof intent === "string" ? intent : (intent?.id ?? null);
  const outcome = await recordPayment(
    orderId,
    {
      amountCents: amount,
      receivedOn: londonDate(now),
      method: "card",
      reference: paymentIntent,
      stripeCheckoutSessionId: session.id,
    },
    { actor: "stripe", admin: null },
    now,
  );
  if (!outcome.ok) {
    log.error(
      { orderId, sessionId: session.id, amount, refusal: outcome.message },
      "an invoice was paid by card but the order can no longer take a payment: refund it in Stripe",
    );
  }
  return outcome;
}

/** The buyer's return from Stripe: the session read from Stripe (never from the address). */
export async function invoiceCardReturn(
  order: OrderRow,
  sessionId: string,
): Promise<{ state: "paid" | "pending"; amountCents: number } | null> {
  if (!isCheckoutSessionId(sessionId) || !isCardPaymentEnabled()) return null;
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe().checkout.sessions.retrieve(sessionId);
  } catch (error) {
    log.warn({ err: error, orderId: order.id }, "could not read an invoice card session");
    return null;
  }
  if (!isInvoiceBalanceSession(session) || session.metadata?.order_id !== order.id) return null;
  const amountCents = session.amount_total ?? 0;
  if (session.payment_status !== "paid") return { state: "pending", amountCents };
  const recorded = await recordInvoiceCardPayment(session);
  return recorded?.ok ? { state: "paid", amountCents } : { state: "pending", amountCents };
}
