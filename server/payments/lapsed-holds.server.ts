import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { log } from "../log.server.ts";
import { transitionOrder } from "../orders/state-machine.server.ts";
import { CHECKOUT_SESSION_LIFETIME_S, closeCheckoutSession } from "./stripe.server.ts";

/**
 * A card checkout holds its dated places while its Stripe session is open (decision 0033); Stripe
 * expires the session after CHECKOUT_SESSION_LIFETIME_S and its `checkout.session.expired`
 * webhook fails the order, which gives the places back. Should that webhook never come (an
 * endpoint misconfigured or down for longer than Stripe retries), the housekeeping pass does the
 * same for orders still pending well after their session's end: it closes the session at Stripe
 * first, so a payment Stripe completed is never failed here (it stays pending for the webhook or
 * the success page to record).
 */

/** How long after the session's end a pending card order is taken to have lapsed. */
const GRACE_S = 15 * 60;

/** Fails lapsed card checkouts that hold dated places; returns how many were released. */
export async function releaseLapsedHolds(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - (CHECKOUT_SESSION_LIFETIME_S + GRACE_S) * 1000);
  const lapsed = await db()
    .select({ id: orders.id, sessionId: orders.stripeCheckoutSessionId })
    .from(orders)
    .where(
      and(
        eq(orders.status, "pending"),
        eq(orders.paymentMethod, "stripe"),
        isNotNull(orders.courseDateId),
        lt(orders.createdAt, cutoff),
      ),
    )
    .orderBy(sql`${orders.createdAt}`)
    .limit(500);
  let released = 0;
  for (const order of lapsed) {
    const closed = order.sessionId ? await closeCheckoutSession(order.sessionId) : "closed";
    if (closed !== "closed") continue;
    const result = await transitionOrder(order.id, "failed", { source: "checkout" });
    if (result.kind === "transitioned") released += 1;
  }
  if (released) log.info({ orders: released }, "lapsed card checkouts failed: places released");
  return released;
}
