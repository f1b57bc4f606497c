import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { PAID_AT_STRIPE_MESSAGE } from "#app/lib/orders/orders.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, orderDocuments, orders } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { owedBackOnCancelledOrders } from "#server/orders/dashboard.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { refundOrder } from "#server/payments/refunds.server.ts";
import { verifyCheckoutReturn } from "#server/payments/stripe.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { cardOrder, deliver } from "#tests/support/card-payments.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { nonce } from "#tests/support/refunds.ts";

/**
 * Cancelling a pending card order closes its Checkout Session at Stripe first (the fake Stripe
 * API on loopback), so its buyer can no longer pay for a cancelled order. If the buyer paid first,
 * or Stripe cannot be reached, the order is left as it was and the admin is told why.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
afterAll(() => fake.close());
useFreshDatabase();

const expiries = (sessionId: string) =>
  fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${sessionId}/expire`);

describe("cancelling a card order", () => {
  it("expires its Checkout Session at Stripe, then cancels: the page can no longer take payment", async () => {
    const { order, sessionId } = await cardOrder(1);
    const result = await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    expect(result).toMatchObject({ ok: true, order: { status: "canceled" } });
    expect(expiries(sessionId)).toHaveLength(1);
    expect(fake.sessions.get(sessionId)).toMatchObject({ status: "expired", url: null });
    // Stripe's page refuses payment now: paying leaves the session unpaid.
    expect(fake.pay(sessionId)).toMatchObject({ status: "expired", payment_status: "unpaid" });
    // Stripe's checkout.session.expired webhook for it changes nothing.
    await deliver(fake.event("checkout.session.expired", fake.sessions.get(sessionId)!));
    expect((await orderRow(order.id)).status).toBe("canceled");
  });

  it("is refused when the buyer paid first: the order stays, the payment is recorded by the webhook", async () => {
    const { order, sessionId } = await cardOrder(1);
    fake.pay(sessionId);
    const result = await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    expect(result).toEqual({ ok: false, reason: "paid_at_stripe" });
    expect((await orderRow(order.id)).status).toBe("pending");
    await deliver(fake.event("checkout.session.completed", fake.sessions.get(sessionId)!));
    expect((await orderRow(order.id)).status).toBe("paid");
    expect(PAID_AT_STRIPE_MESSAGE).toMatch(/has just paid/);
  });

  it("is refused, changing nothing, when Stripe cannot be reached", async () => {
    const { order, sessionId } = await cardOrder(1);
    fake.failNextCreate(400);
    const result = await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    expect(result).toEqual({ ok: false, reason: "stripe_unreachable" });
    expect((await orderRow(order.id)).status).toBe("pending");
    expect(fake.sessions.get(sessionId)!.status).toBe("open");
    // Once Stripe answers again, the cancellation goes through.
    expect(await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).toMatchObject({ ok: true });
  });

  it("an invoice order is cancelled without asking Stripe", async () => {
    const before = fake.requests.length;
    const created = await placeOrder((await insertCourse({ slug: "inv" })).id, "invoice");
    if (!created.ok) throw new Error("order not created");
    expect(await changeOrderStatusByAdmin(created.order.id, "canceled", ADMIN)).toMatchObject({
      ok: true,
    });
    expect(fake.requests.length).toBe(before);
  });
});

/** The order's queued e-mails of one kind. */
const mailsOf = (orderId: string, kind: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind)));

describe("a payment that still lands on a cancelled order", () => {
  it("is recorded, shown, alerted once, and refunded in one action with a credit note and e-mail", async () => {
    const { order, sessionId } = await cardOrder(2);
    // The race: the order is cancelled while its buyer is on Stripe's page, and pays.
    await db().update(orders).set({ status: "canceled" }).where(eq(orders.id, order.id));
    const paid = fake.pay(sessionId);
    expect(paid).toMatchObject({ payment_status: "paid" });
    const event = fake.event("checkout.session.completed", fake.sessions.get(sessionId)!);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    // A replay of the same event records nothing more.
    expect(await deliver(event)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });

    const row = await orderRow(order.id);
    expect(row.status).toBe("canceled");
    expect(row.paidAfterCancellationAt).toBeInstanceOf(Date);
    expect(row.stripePaymentIntentId).toBe(paid.payment_intent);

    const page = (await orderPage(order.id))!;
    expect(page.paidAfterCancellationAt).not.toBeNull();
    expect(page.refundable).toBe(true);
    expect(page.timeline.map((e) => e.title)).toContain("Paid after cancellation");
    expect(await owedBackOnCancelledOrders()).toEqual([
      expect.objectContaining({ id: order.id, owedCents: row.totalAmountCents }),
    ]);
    expect(await mailsOf(order.id, "paid_after_cancellation_alert")).toHaveLength(1);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "order.paid_after_cancellation"));
    expect(audit).toMatchObject({ subjectId: order.id, actorId: null });

    const refund = await refundOrder(
      order.id,
      { amountCents: row.totalAmountCents, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    expect(refund).toMatchObject({ ok: true });
    const refunded = await orderRow(order.id);
    expect(refunded).toMatchObject({
      status: "canceled",
      refundedAmountCents: row.totalAmountCents,
    });
    const documents = await db()
      .select({ kind: orderDocuments.kind })
      .from(orderDocuments)
      .where(eq(orderDocuments.orderId, order.id));
    expect(documents.map((d) => d.kind).sort()).toEqual(["credit_note", "receipt"]);
    expect(await mailsOf(order.id, "order_refund")).toHaveLength(1);
    expect(await owedBackOnCancelledOrders()).toEqual([]);
  });

  it("the buyer's return to the success page records it too, once, before any webhook", async () => {
    const { course, order, sessionId } = await cardOrder(1);
    await db().update(orders).set({ status: "canceled" }).where(eq(orders.id, order.id));
    fake.pay(sessionId);
    expect(await verifyCheckoutReturn(course.slug, sessionId)).toMatchObject({
      kind: "conflict",
      status: "canceled",
    });
    expect((await orderRow(order.id)).paidAfterCancellationAt).toBeInstanceOf(Date);
    // The webhook that follows adds nothing: one alert.
    await deliver(fake.event("checkout.session.completed", fake.sessions.get(sessionId)!));
    expect(await mailsOf(order.id, "paid_after_cancellation_alert")).toHaveLength(1);
  });

  it("a cancelled order nobody paid cannot be refunded", async () => {
    const { order } = await cardOrder(1);
    expect(await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).toMatchObject({ ok: true });
    const refund = await refundOrder(
      order.id,
      { amountCents: 100, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    expect(refund).toMatchObject({ ok: false, reason: "not_refundable" });
    expect((await orderPage(order.id))!.refundable).toBe(false);
  });
});
