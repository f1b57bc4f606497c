import { sql } from "drizzle-orm";
import Stripe from "stripe";
import { db } from "#server/db/client.server.ts";
import { stripeEvents } from "#server/db/schema.ts";
import { startCheckout } from "#server/payments/stripe.server.ts";
import { handleStripeWebhook } from "#server/payments/stripe-webhook.server.ts";
import { TEST_STRIPE_KEYS } from "#tests/support/fake-stripe.ts";
import { insertCourse, placeOrder, students } from "#tests/support/orders.ts";

/**
 * Card payments for server tests, against the fake Stripe API: an order with its Checkout
 * session, and Stripe's webhooks — an event signed as Stripe signs it (with the site's test
 * webhook secret unless another is given) and handed to the site's webhook handler.
 */

/** A card order for `quantity` students of the course, its Checkout session started. */
export async function cardOrder(quantity = 3) {
  const course = await insertCourse();
  const started = await startedCardOrder(course, {
    studentMode: "others",
    quantity,
    students: students(quantity),
  });
  return { course, ...started };
}

/**
 * A card order of `course` (the buyer's own place unless `values` says otherwise), its Checkout
 * session started.
 */
export async function startedCardOrder(
  course: { id: string; slug: string },
  values?: Parameters<typeof placeOrder>[2],
) {
  const created = await placeOrder(course.id, "stripe", values);
  if (!created.ok) throw new Error("order not created");
  const started = await startCheckout(created.order, course.slug);
  if (!started.ok) throw new Error("checkout not started");
  return { order: created.order, sessionId: started.sessionId };
}

export function signed(
  event: Record<string, unknown>,
  secret: string = TEST_STRIPE_KEYS.webhookSecret,
) {
  const payload = JSON.stringify(event);
  return {
    body: new TextEncoder().encode(payload),
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}

export async function deliver(event: Record<string, unknown>) {
  const { body, signature } = signed(event);
  return handleStripeWebhook(body, signature);
}

/** How many Stripe events the site has recorded. */
export async function eventCount() {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(stripeEvents);
  return Number(row!.n);
}
