import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderRefunds, stripeEvents } from "#server/db/schema.ts";
import { refundOrder } from "#server/payments/refunds.server.ts";
import { handleStripeWebhook } from "#server/payments/stripe-webhook.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { TEST_STRIPE_KEYS, type FakeRefund } from "#tests/support/fake-stripe.ts";
import { deliver } from "#tests/support/card-payments.ts";
import { ADMIN, orderRow } from "#tests/support/orders.ts";
import {
  creditNotesOf,
  eventsOf,
  expectCreditNotesToMatchRefunds,
  mailsOf,
  nonce,
  refundsOf,
  snapshot,
  useFakeStripeForRefunds,
} from "#tests/support/refunds.ts";

/**
 * Stripe's refund webhooks against the fake Stripe API on loopback, with the real `stripe` SDK
 * and a real database: for an admin's refund (racing the admin's request) and for refunds made or
 * failing in Stripe's dashboard, each refund recorded once, whichever path gets there first.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests({
    ADMIN_EMAILS: "sales@example.co.uk",
  }),
);
const { paidCardOrder } = useFakeStripeForRefunds(fake);

const database = useFreshDatabase();

/** A paid card order, then the admin's refund of `amountCents` of it (that it was made checked). */
async function refundedCardOrder(amountCents: number) {
  const { order } = await paidCardOrder();
  const result = await refundOrder(
    order.id,
    { amountCents, reason: "requested_by_customer", nonce: nonce() },
    ADMIN,
  );
  if (!result.ok) throw new Error(result.message);
  return { order, result };
}

describe("Stripe's refund webhooks", () => {
  it("the webhook of an admin's refund changes nothing more (and a replay neither)", async () => {
    const { order, result } = await refundedCardOrder(4000);
    const before = await snapshot(order.id);
    const refund = fake.refunds.get(result.refundId)!;
    const event = fake.event("refund.created", refund);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(event)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    expect(await deliver(fake.event("refund.updated", refund))).toMatchObject({ status: 200 });
    expect(await snapshot(order.id)).toEqual(before);
  });

  it("the admin's request racing Stripe's webhook: recorded once, by whichever comes first", async () => {
    const { order } = await paidCardOrder();
    // The site's webhook endpoint on loopback, so the fake delivers refund.created as the API answers.
    const site: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void handleStripeWebhook(
          new Uint8Array(Buffer.concat(chunks)),
          String(req.headers["stripe-signature"] ?? ""),
        ).then((r) => {
          res.writeHead(r.status, { "content-type": "application/json" });
          res.end(JSON.stringify(r.body));
        });
      });
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = site.address() as AddressInfo;
      const to = {
        url: `http://127.0.0.1:${port}/api/stripe/webhook`,
        secret: TEST_STRIPE_KEYS.webhookSecret,
      };
      // Twice with Stripe's webhook recorded before the API answers, once as they come.
      for (const [i, refundWebhookFirst] of [true, true, false].entries()) {
        fake.deliverWebhooksTo(to, { refundWebhookFirst });
        const result = await refundOrder(
          order.id,
          { amountCents: 1500, reason: "requested_by_customer", note: `Try ${i}`, nonce: nonce() },
          ADMIN,
        );
        expect(result).toMatchObject({ ok: true, amountCents: 1500 });
        if (refundWebhookFirst) expect(result).toMatchObject({ alreadyRecorded: true });
      }
      // Let the last webhook land.
      await vi.waitFor(async () => {
        const [n] = await database()
          .db.select({ n: sql<number>`count(*)::int` })
          .from(stripeEvents)
          .where(eq(stripeEvents.type, "refund.created"));
        expect(Number(n!.n)).toBe(3);
      });
    } finally {
      await new Promise<void>((resolve) => site.close(() => resolve()));
    }
    const refunds = await refundsOf(order.id);
    expect(refunds).toHaveLength(3);
    // Whichever recorded it, the admin who asked is named, with their note.
    expect(refunds.every((r) => r.actor === ADMIN.email)).toBe(true);
    expect(refunds.map((r) => r.reason).sort()).toEqual([
      "Requested by the customer: Try 0",
      "Requested by the customer: Try 1",
      "Requested by the customer: Try 2",
    ]);
    expect((await orderRow(order.id)).refundedAmountCents).toBe(4500);
    expect(await creditNotesOf(order.id)).toHaveLength(3);
    expect(await eventsOf(order.id, "refunded")).toHaveLength(3);
    expect(await mailsOf(order.id, "order_refund")).toHaveLength(3);
    await expectCreditNotesToMatchRefunds(order.id);
  });

  it("a refund made in Stripe's dashboard is recorded once, by Stripe, with a credit note; replays change nothing", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    const refund = await fake.refundInDashboard(paymentIntent, {
      amount: 3333,
      reason: "fraudulent",
    });
    const event = fake.event("refund.created", refund);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    const [row, ...more] = await refundsOf(order.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      stripeRefundId: refund.id,
      amountCents: 3333,
      status: "succeeded",
      actor: "stripe",
      reason: "Fraudulent payment",
    });
    const [note] = await creditNotesOf(order.id);
    expect(note).toMatchObject({ totalAmountCents: 3333, issuedBy: "stripe" });
    expect((await eventsOf(order.id, "refunded"))[0]).toMatchObject({ actor: "stripe" });
    expect((await mailsOf(order.id, "order_refund"))[0]).toMatchObject({ documentId: note!.id });
    await expectCreditNotesToMatchRefunds(order.id);

    const before = await snapshot(order.id);
    // The same event ten times at once, then in turn; and other events about the same refund.
    const replays = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(replays.every((r) => r.status === 200 && r.body.duplicate)).toBe(true);
    expect(await deliver(event)).toMatchObject({ body: { duplicate: true } });
    expect(await deliver(fake.event("refund.updated", refund))).toMatchObject({ status: 200 });
    expect(await deliver(fake.event("charge.refunded", refund))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect(await snapshot(order.id)).toEqual(before);
    // What the admin may still refund takes it into account.
    expect(
      await refundOrder(
        order.id,
        { amountCents: 8668, reason: "duplicate", nonce: nonce() },
        ADMIN,
      ),
    ).toMatchObject({ ok: false, reason: "too_large" });
  });

  it("a refund that fails later gives its amount back; the credit note stands, staff are told", async () => {
    const { order, result } = await refundedCardOrder(12000);
    const failed = await fake.failRefund(result.refundId);
    const event = fake.event("refund.failed", failed);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(event)).toMatchObject({ body: { duplicate: true } });
    // A late refund.created saying 'succeeded' does not bring it back.
    expect(
      await deliver(fake.event("refund.created", { ...failed, status: "succeeded" })),
    ).toMatchObject({ status: 200 });

    expect((await orderRow(order.id)).refundedAmountCents).toBe(0);
    expect((await refundsOf(order.id))[0]).toMatchObject({ status: "failed" });
    const [failure] = await eventsOf(order.id, "refund_failed");
    expect(failure).toMatchObject({ actor: "stripe" });
    expect(failure!.detail).toMatchObject({
      refundId: result.refundId,
      amountCents: 12000,
      status: "failed",
      failureReason: "expired_or_canceled_card",
      creditNote: result.creditNoteNumber,
    });
    expect(await mailsOf(order.id, "refund_failed_alert")).toMatchObject([
      { toAddress: "sales@example.co.uk" },
    ]);
    expect(await creditNotesOf(order.id)).toHaveLength(1);

    // Refunded again: the money goes back, and the credit note already issued covers it.
    expect(
      await refundOrder(
        order.id,
        { amountCents: 12000, reason: "requested_by_customer", nonce: nonce() },
        ADMIN,
      ),
    ).toMatchObject({ ok: true, refundedAmountCents: 12000, creditNoteNumber: null });
    expect(await creditNotesOf(order.id)).toHaveLength(1);
    await expectCreditNotesToMatchRefunds(order.id);
  });

  it("a dashboard refund first heard of as failed, or for no known order, records no money", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    const refund = await fake.refundInDashboard(paymentIntent, { amount: 500 });
    const failed: FakeRefund = { ...refund, status: "failed" };
    expect(await deliver(fake.event("refund.failed", failed))).toMatchObject({ status: 200 });
    expect(await deliver(fake.event("refund.created", refund))).toMatchObject({ status: 200 });
    expect((await orderRow(order.id)).refundedAmountCents).toBe(0);
    expect(await refundsOf(order.id)).toMatchObject([{ status: "failed", creditNoteId: null }]);
    expect(await creditNotesOf(order.id)).toEqual([]);

    const stranger = { ...refund, id: "re_test_stranger", payment_intent: "pi_test_unknown" };
    expect(await deliver(fake.event("refund.created", stranger))).toEqual({
      status: 200,
      body: { received: true },
    });
    const [count] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orderRefunds);
    expect(Number(count!.n)).toBe(1);
  });
});
