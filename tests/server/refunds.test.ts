import { createServer, type Server } from "node:http";
import { BILLING } from "../support/checkout.ts";
import type { AddressInfo } from "node:net";
import { and, asc, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  courses,
  emailOutbox,
  orderDocuments,
  orderEvents,
  orderRefunds,
  orders,
  stripeEvents,
} from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import {
  REFUND_REFUSALS,
  refundFromForm,
  refundIdempotencyKey,
  refundOrder,
} from "#server/payments/refunds.server.ts";
import {
  handleStripeWebhook,
  startCheckout,
  verifyCheckoutReturn,
} from "#server/payments/stripe.server.ts";
import { REFUND_MESSAGES } from "#app/lib/refunds.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { TEST_STRIPE_KEYS, type FakeRefund } from "#tests/support/fake-stripe.ts";

/**
 * Refunds of card payments (issue 16) against the fake Stripe API on loopback, with the real
 * `stripe` SDK and a real database: the admin's refund, Stripe's refund webhooks (also for
 * refunds made in Stripe's dashboard), and that each refund is recorded once — its amount on the
 * order, one credit note, one timeline entry, one e-mail — whichever path gets there first.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForServerTests({
    PUBLIC_URL: "https://shop.example.co.uk",
    TRUST_PROXY: "loopback",
    ADMIN_EMAILS: "sales@example.co.uk",
  }),
);

afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.refunds.clear();
});
afterEach(() => {
  fake.failRefunds(null);
  fake.deliverWebhooksTo(null);
});

const database = useFreshDatabase();
const ADMIN = { id: "audit-test-admin", email: "admin@example.com" };
let nonces = 0;
/** A fresh form nonce, as each opening of the refund dialog makes one. */
const nonce = () => `test-nonce-${String(++nonces).padStart(8, "0")}`;

const buyer = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "",
  company: "Analytical Engines Ltd",
};

async function course() {
  const [row] = await database()
    .db.insert(courses)
    .values({
      slug: "osint-masterclass",
      title: "OSINT Investigations Masterclass",
      status: "published",
      price: "120.00",
      durationHours: 14,
    })
    .returning();
  return row!;
}

function signed(event: Record<string, unknown>) {
  const payload = JSON.stringify(event);
  return {
    body: new TextEncoder().encode(payload),
    signature: Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: TEST_STRIPE_KEYS.webhookSecret,
    }),
  };
}

async function deliver(event: Record<string, unknown>) {
  const { body, signature } = signed(event);
  return handleStripeWebhook(body, signature);
}

/** A card order for one place at £120, paid through the fake Checkout and its webhook. */
async function paidCardOrder() {
  const c = await course();
  const created = await createOrder({
    courseId: c.id,
    paymentMethod: "stripe",
    values: {
      buyer,
      studentMode: "self",
      billing: BILLING,
      termsAccepted: true,
      quantity: 1,
      students: [],
    },
  });
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

async function orderRow(id: string) {
  const [row] = await database().db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function refundsOf(orderId: string) {
  return database()
    .db.select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.createdAt));
}

async function creditNotesOf(orderId: string) {
  return database()
    .db.select()
    .from(orderDocuments)
    .where(and(eq(orderDocuments.orderId, orderId), eq(orderDocuments.kind, "credit_note")))
    .orderBy(asc(orderDocuments.number));
}

async function eventsOf(orderId: string, kind: string) {
  return database()
    .db.select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, kind)))
    .orderBy(asc(orderEvents.createdAt));
}

async function mailsOf(orderId: string, kind: string) {
  return database()
    .db.select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind)));
}

const refundRequests = () =>
  fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");

/** What a refund leaves on the order, for comparing before and after something that must not change it. */
async function snapshot(orderId: string) {
  return {
    order: await orderRow(orderId),
    refunds: await refundsOf(orderId),
    creditNotes: (await creditNotesOf(orderId)).map((d) => d.number),
    events: (await eventsOf(orderId, "refunded")).length,
    mails: (await mailsOf(orderId, "order_refund")).length,
  };
}

/** The house rule: on a card order, the credit notes add up to what was refunded. */
async function expectCreditNotesToMatchRefunds(orderId: string) {
  const order = await orderRow(orderId);
  const notes = await creditNotesOf(orderId);
  expect(notes.reduce((sum, n) => sum + n.totalAmountCents, 0)).toBe(order.refundedAmountCents);
  const counted = (await refundsOf(orderId)).filter((r) => r.status === "succeeded");
  expect(counted.reduce((sum, r) => sum + r.amountCents, 0)).toBe(order.refundedAmountCents);
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

function answer(result: unknown) {
  const d = result as { data: Record<string, unknown>; init?: { status?: number } };
  return { status: d.init?.status ?? 200, body: d.data };
}

describe("the PaymentIntent of a paid card order", () => {
  it("is stored when the webhook confirms the payment", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    expect(paymentIntent).toMatch(/^pi_/);
    expect(order.stripePaymentIntentId).toBe(paymentIntent);
  });

  it("is stored when the success page confirms it", async () => {
    const c = await course();
    const created = await createOrder({
      courseId: c.id,
      paymentMethod: "stripe",
      values: {
        buyer,
        studentMode: "self",
        billing: BILLING,
        termsAccepted: true,
        quantity: 1,
        students: [],
      },
    });
    if (!created.ok) throw new Error("no order");
    const started = await startCheckout(created.order, c.slug);
    if (!started.ok) throw new Error("no session");
    const session = fake.pay(started.sessionId);
    expect(await verifyCheckoutReturn(c.slug, session.id)).toMatchObject({ kind: "paid" });
    expect((await orderRow(created.order.id)).stripePaymentIntentId).toBe(session.payment_intent);
  });
});

describe("an admin's refund", () => {
  it("full refund: Stripe refunds the PaymentIntent; the order records it with a credit note, an event and the buyer's e-mail", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    const key = nonce();
    const result = await refundOrder(
      order.id,
      { amountCents: 12000, reason: "requested_by_customer", note: "Dates clash", nonce: key },
      ADMIN,
    );
    expect(result).toMatchObject({
      ok: true,
      alreadyRecorded: false,
      amountCents: 12000,
      refundedAmountCents: 12000,
      creditNoteNumber: expect.stringMatching(/^CN-\d{4}-0001$/),
    });

    const [request] = refundRequests();
    expect(request!.headers["idempotency-key"]).toBe(
      refundIdempotencyKey(order.id, {
        amountCents: 12000,
        reason: "requested_by_customer",
        note: "Dates clash",
        nonce: key,
      }),
    );
    expect(request!.params).toMatchObject({
      payment_intent: paymentIntent,
      amount: "12000",
      reason: "requested_by_customer",
      metadata: { order_id: order.id, requested_by: ADMIN.email, note: "Dates clash" },
    });

    const after = await orderRow(order.id);
    expect(after).toMatchObject({ status: "paid", refundedAmountCents: 12000 });
    const [refund, ...more] = await refundsOf(order.id);
    expect(more).toEqual([]);
    expect(refund).toMatchObject({
      stripeRefundId: result.ok ? result.refundId : "",
      amountCents: 12000,
      status: "succeeded",
      actor: ADMIN.email,
      reason: "Requested by the customer: Dates clash",
    });
    const [note] = await creditNotesOf(order.id);
    expect(refund!.creditNoteId).toBe(note!.id);
    expect(note).toMatchObject({ totalAmountCents: 12000, issuedBy: ADMIN.email });
    // Only the reason's label goes on the credit note the buyer receives, not the admin's note.
    expect(note!.reason).toBe("Requested by the customer");
    // The card order had no receipt yet: one is issued so the credit note has a document to credit.
    const [receipt] = await database()
      .db.select()
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, order.id), eq(orderDocuments.kind, "receipt")));
    expect(note!.creditsDocumentId).toBe(receipt!.id);

    const [event] = await eventsOf(order.id, "refunded");
    expect(event).toMatchObject({ actor: ADMIN.email });
    expect(event!.detail).toMatchObject({
      amountCents: 12000,
      reason: "requested_by_customer",
      note: "Dates clash",
      refundId: refund!.stripeRefundId,
      creditNote: note!.number,
    });
    const [mail, ...others] = await mailsOf(order.id, "order_refund");
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ toAddress: "ada@example.com", documentId: note!.id });
    expect(mail!.text).toContain("£120.00");
    expect(mail!.text).toContain(note!.number);
    expect(mail!.text).not.toContain("Dates clash");
    await expectCreditNotesToMatchRefunds(order.id);

    // Nothing is left to refund.
    expect(
      await refundOrder(order.id, { amountCents: 1, reason: "duplicate", nonce: nonce() }, ADMIN),
    ).toEqual({ ok: false, reason: "not_refundable", message: REFUND_REFUSALS.fullyRefunded });
    expect(refundRequests()).toHaveLength(1);
  });

  it("partial, then another partial of the same amount (two forms): both refunded, each with its credit note", async () => {
    const { order } = await paidCardOrder();
    const first = await refundOrder(
      order.id,
      { amountCents: 2550, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    const second = await refundOrder(
      order.id,
      { amountCents: 2550, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    expect(first).toMatchObject({ ok: true, refundedAmountCents: 2550 });
    expect(second).toMatchObject({ ok: true, refundedAmountCents: 5100 });
    expect(first.ok && second.ok && first.refundId !== second.refundId).toBe(true);
    expect(fake.refunds.size).toBe(2);
    expect((await orderRow(order.id)).refundedAmountCents).toBe(5100);
    const notes = await creditNotesOf(order.id);
    expect(notes.map((n) => n.totalAmountCents)).toEqual([2550, 2550]);
    expect(notes.map((n) => n.number)).toEqual([
      expect.stringMatching(/-0001$/),
      expect.stringMatching(/-0002$/),
    ]);
    expect(await eventsOf(order.id, "refunded")).toHaveLength(2);
    expect(await mailsOf(order.id, "order_refund")).toHaveLength(2);
    await expectCreditNotesToMatchRefunds(order.id);

    // The rest, exactly, is still allowed.
    expect(
      await refundOrder(
        order.id,
        { amountCents: 6900, reason: "duplicate", nonce: nonce() },
        ADMIN,
      ),
    ).toMatchObject({ ok: true, refundedAmountCents: 12000 });
    await expectCreditNotesToMatchRefunds(order.id);
  });

  it("more than is left is refused on the server, before Stripe, and nothing changes", async () => {
    const { order } = await paidCardOrder();
    await refundOrder(order.id, { amountCents: 10000, reason: "duplicate", nonce: nonce() }, ADMIN);
    const before = await snapshot(order.id);
    const requests = refundRequests().length;
    expect(
      await refundOrder(
        order.id,
        { amountCents: 2001, reason: "duplicate", nonce: nonce() },
        ADMIN,
      ),
    ).toEqual({
      ok: false,
      reason: "too_large",
      message: REFUND_MESSAGES.amountTooLarge(2000),
    });
    // Through the form: whatever the browser was shown, the server's figure counts.
    const posted = answer(
      await refundFromForm(
        form({
          intent: "refund",
          orderId: order.id,
          amount: "120.00",
          reason: "duplicate",
          nonce: nonce(),
        }),
        ADMIN,
      ),
    );
    expect(posted.status).toBe(400);
    expect(posted.body).toMatchObject({
      ok: false,
      form: "refund",
      fieldErrors: { amount: "You can refund at most £20.00 on this order" },
    });
    // Zero, negative, fractional pence: refused too.
    for (const amountCents of [0, -100, 10.5]) {
      expect(
        await refundOrder(order.id, { amountCents, reason: "duplicate", nonce: nonce() }, ADMIN),
      ).toMatchObject({ ok: false, reason: "invalid" });
    }
    expect(refundRequests()).toHaveLength(requests);
    expect(await snapshot(order.id)).toEqual(before);
  });

  it("an unpaid card order, an invoice order or an unknown order cannot be refunded", async () => {
    const c = await course();
    const pending = await createOrder({
      courseId: c.id,
      paymentMethod: "stripe",
      values: {
        buyer,
        studentMode: "self",
        billing: BILLING,
        termsAccepted: true,
        quantity: 1,
        students: [],
      },
    });
    const invoiced = await createOrder({
      courseId: c.id,
      paymentMethod: "invoice",
      values: {
        buyer,
        studentMode: "self",
        billing: BILLING,
        termsAccepted: true,
        quantity: 1,
        students: [],
      },
    });
    if (!pending.ok || !invoiced.ok) throw new Error("no orders");
    await changeOrderStatusByAdmin(invoiced.order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(invoiced.order.id, "paid", ADMIN);
    const ask = (orderId: string) =>
      refundOrder(orderId, { amountCents: 100, reason: "duplicate", nonce: nonce() }, ADMIN);
    expect(await ask(pending.order.id)).toEqual({
      ok: false,
      reason: "not_refundable",
      message: REFUND_REFUSALS.notPaid,
    });
    expect(await ask(invoiced.order.id)).toEqual({
      ok: false,
      reason: "not_refundable",
      message: REFUND_REFUSALS.notCard,
    });
    expect(await ask("00000000-0000-4000-8000-000000000000")).toMatchObject({
      reason: "not_found",
    });
    expect(await ask("not-a-uuid")).toMatchObject({ reason: "not_found" });
    const viaForm = answer(
      await refundFromForm(
        form({
          intent: "refund",
          orderId: invoiced.order.id,
          amount: "1.00",
          reason: "duplicate",
          nonce: nonce(),
        }),
        ADMIN,
      ),
    );
    expect(viaForm).toMatchObject({
      status: 409,
      body: { ok: false, message: REFUND_REFUSALS.notCard },
    });
    expect(refundRequests()).toHaveLength(0);
    const [count] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orderRefunds);
    expect(Number(count!.n)).toBe(0);
    expect((await orderRow(invoiced.order.id)).refundedAmountCents).toBe(0);
  });

  it("the same form sent twice (double-click: at once, then again) refunds once", async () => {
    const { order } = await paidCardOrder();
    const key = nonce();
    const ask = () =>
      refundOrder(
        order.id,
        { amountCents: 3000, reason: "requested_by_customer", nonce: key },
        ADMIN,
      );
    const [a, b] = await Promise.all([ask(), ask()]);
    const c = await ask();
    for (const result of [a, b, c]) expect(result).toMatchObject({ ok: true, amountCents: 3000 });
    expect(new Set([a, b, c].map((r) => (r.ok ? r.refundId : null))).size).toBe(1);
    expect(fake.refunds.size).toBe(1);
    expect(refundRequests().length).toBe(3);
    expect((await orderRow(order.id)).refundedAmountCents).toBe(3000);
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await creditNotesOf(order.id)).toHaveLength(1);
    expect(await eventsOf(order.id, "refunded")).toHaveLength(1);
    expect(await mailsOf(order.id, "order_refund")).toHaveLength(1);
    await expectCreditNotesToMatchRefunds(order.id);
  });

  it("Stripe down or refusing: nothing is recorded; the same form then goes through once", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    const before = await snapshot(order.id);
    const ask = (key: string) =>
      refundOrder(
        order.id,
        { amountCents: 5000, reason: "requested_by_customer", nonce: key },
        ADMIN,
      );
    const key = nonce();
    fake.failRefunds(503);
    expect(await ask(key)).toEqual({
      ok: false,
      reason: "stripe_error",
      message: REFUND_REFUSALS.unreachable,
    });
    expect(await snapshot(order.id)).toEqual(before);

    // Stripe is back: the same form sent again refunds, once.
    fake.failRefunds(null);
    expect(await ask(key)).toMatchObject({ ok: true, refundedAmountCents: 5000 });
    expect(await ask(key)).toMatchObject({ ok: true, refundedAmountCents: 5000 });
    expect(fake.refunds.size).toBe(1);

    // A refund made in Stripe's dashboard that the site has not heard of yet: Stripe refuses
    // what the site thinks is left, and the site records nothing.
    await fake.refundInDashboard(paymentIntent, { amount: 6000 });
    const middle = await snapshot(order.id);
    const refused = await ask(nonce());
    expect(refused).toMatchObject({ ok: false, reason: "stripe_error" });
    expect(!refused.ok && refused.message).toMatch(/^Stripe refused the refund: /);
    expect(await snapshot(order.id)).toEqual(middle);
  });

  it("the refund form: pounds as typed to pence, field messages, and the answer the page shows", async () => {
    const { order } = await paidCardOrder();
    const base = { intent: "refund", orderId: order.id, reason: "duplicate" };
    const bad = answer(
      await refundFromForm(form({ ...base, amount: "12.505", nonce: nonce() }), ADMIN),
    );
    expect(bad).toMatchObject({
      status: 400,
      body: { ok: false, form: "refund", fieldErrors: { amount: REFUND_MESSAGES.amountInvalid } },
    });
    const noReason = answer(
      await refundFromForm(
        form({ intent: "refund", orderId: order.id, amount: "1", reason: "", nonce: nonce() }),
        ADMIN,
      ),
    );
    expect(noReason.body).toMatchObject({ fieldErrors: { reason: REFUND_MESSAGES.reasonMissing } });
    const noNonce = answer(await refundFromForm(form({ ...base, amount: "1.00" }), ADMIN));
    expect(noNonce.body).toMatchObject({ message: REFUND_MESSAGES.formUnreadable });
    expect(refundRequests()).toHaveLength(0);

    const ok = answer(
      await refundFromForm(
        form({ ...base, amount: "£12.50", note: "Paid twice by mistake", nonce: nonce() }),
        ADMIN,
      ),
    );
    expect(ok).toMatchObject({
      status: 200,
      body: {
        ok: true,
        form: "refund",
        amountCents: 1250,
        refundedAmountCents: 1250,
        creditNoteNumber: expect.stringMatching(/^CN-/),
        message: expect.stringMatching(/^Refunded £12\.50; credit note CN-/),
      },
    });
    expect((await refundsOf(order.id))[0]).toMatchObject({
      reason: "Duplicate payment: Paid twice by mistake",
    });
  });
});

describe("Stripe's refund webhooks", () => {
  it("the webhook of an admin's refund changes nothing more (and a replay neither)", async () => {
    const { order } = await paidCardOrder();
    const result = await refundOrder(
      order.id,
      { amountCents: 4000, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    if (!result.ok) throw new Error(result.message);
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
    const { order } = await paidCardOrder();
    const result = await refundOrder(
      order.id,
      { amountCents: 12000, reason: "requested_by_customer", nonce: nonce() },
      ADMIN,
    );
    if (!result.ok) throw new Error(result.message);
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
