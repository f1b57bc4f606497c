import { and, asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, orderEvents, orderRefunds } from "#server/db/schema.ts";
import { startCheckout } from "#server/payments/stripe.server.ts";
import { deliver } from "#tests/support/card-payments.ts";
import { documents } from "#tests/support/invoices.ts";
import type { FakeStripe } from "#tests/support/fake-stripe.ts";
import { insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";

/**
 * Refunds of card payments in server tests: a paid card order, and what a refund leaves on it
 * (refund rows, credit notes, timeline entries, e-mails).
 */

/** A card order for one place at £120, paid through the fake Checkout and its webhook. */
export async function paidCardOrder(
  fake: FakeStripe,
  course?: Awaited<ReturnType<typeof insertCourse>>,
) {
  const c = course ?? (await insertCourse({ price: "120.00" }));
  const created = await placeOrder(c.id, "stripe");
  if (!created.ok) throw new Error("order not created");
  const started = await startCheckout(created.order, c.slug);
  if (!started.ok) throw new Error("checkout not started");
  const session = fake.pay(started.sessionId);
  expect(await deliver(fake.event("checkout.session.completed", session))).toMatchObject({
    status: 200,
  });
  const order = await orderRow(created.order.id);
  expect(order.status).toBe("paid");
  return { order, session, paymentIntent: session.payment_intent! };
}

export async function refundsOf(orderId: string) {
  return db()
    .select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.createdAt));
}

/** An order's credit notes, by number. */
export async function creditNotesOf(orderId: string) {
  return (await documents(orderId)).filter((document) => document.kind === "credit_note");
}

export async function eventsOf(orderId: string, kind: string) {
  return db()
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, kind)))
    .orderBy(asc(orderEvents.createdAt));
}

export async function mailsOf(orderId: string, kind: string) {
  return db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind)));
}

/** What a refund leaves on the order, for comparing before and after something that must not change it. */
export async function snapshot(orderId: string) {
  return {
    order: await orderRow(orderId),
    refunds: await refundsOf(orderId),
    creditNotes: (await creditNotesOf(orderId)).map((d) => d.number),
    events: (await eventsOf(orderId, "refunded")).length,
    mails: (await mailsOf(orderId, "order_refund")).length,
  };
}

/** The house rule: on a card order, the credit notes add up to what was refunded. */
export async function expectCreditNotesToMatchRefunds(orderId: string) {
  const order = await orderRow(orderId);
  const notes = await creditNotesOf(orderId);
  expect(notes.reduce((sum, n) => sum + n.totalAmountCents, 0)).toBe(order.refundedAmountCents);
  const counted = (await refundsOf(orderId)).filter((r) => r.status === "succeeded");
  expect(counted.reduce((sum, r) => sum + r.amountCents, 0)).toBe(order.refundedAmountCents);
}

/** An action's answer as the page reads it: its status and data. */
export function answer(result: unknown) {
  const d = result as { data: Record<string, unknown>; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
}

/**
 * The fake Stripe of a refunds test file: closed after the file; its requests and refunds
 * forgotten before each test, and its refund failures and webhook target reset after. Gives
 * `paidCardOrder` paid through this fake.
 */
export function useFakeStripeForRefunds(fake: FakeStripe) {
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.refunds.clear();
  });
  afterEach(() => {
    fake.failRefunds(null);
    fake.deliverWebhooksTo(null);
  });
  return {
    paidCardOrder: (course?: Parameters<typeof paidCardOrder>[1]) => paidCardOrder(fake, course),
  };
}

let nonces = 0;
/** A fresh form nonce, as each opening of the refund dialog makes one. */
export const nonce = () => `test-nonce-${String(++nonces).padStart(8, "0")}`;
