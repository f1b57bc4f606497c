import Stripe from "stripe";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "#app/lib/checkout.ts";
import { courses, orders } from "#server/db/schema.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { startCheckout, verifyCheckoutReturn } from "#server/payments/stripe.server.ts";
import { handleStripeWebhook } from "#server/payments/stripe-webhook.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { TEST_STRIPE_KEYS, type FakeSession } from "#tests/support/fake-stripe.ts";
import { cardOrder, deliver, eventCount, startedCardOrder } from "#tests/support/card-payments.ts";
import {
  checkoutForm as form,
  insertCourse,
  joiningRecipients,
  orderRow,
  outboxOf as outbox,
} from "#tests/support/orders.ts";

/**
 * Card payments against a fake Stripe API on loopback: Stripe Checkout sessions and the
 * webhook. The real `stripe` SDK is pointed at it through STRIPE_API_BASE, set here before the
 * server modules (and their configuration) are imported.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);

afterAll(() => fake.close());

const WEBHOOK_SECRET = TEST_STRIPE_KEYS.webhookSecret;
const database = useFreshDatabase();

describe("card payments through Stripe Checkout", () => {
  it("creates the session with the order's line item, URLs, expiry and an idempotency key", async () => {
    const { order, sessionId } = await cardOrder(3);
    const request = fake.requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.headers.authorization).toBe("Bearer sk_test_nightwatch");
    expect(request.headers["idempotency-key"]).toBe(`nightwatch-order-${order.id}`);
    expect(request.params).toMatchObject({
      mode: "payment",
      customer_email: "ada@example.com",
      client_reference_id: order.id,
      success_url:
        "https://shop.example.co.uk/courses/osint-masterclass/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "https://shop.example.co.uk/courses/osint-masterclass/canceled",
      line_items: [
        {
          price_data: {
            currency: "gbp",
            unit_amount: "145000",
            product_data: { name: "OSINT Investigations Masterclass" },
          },
          quantity: "3",
        },
      ],
    });
    const expiresAt = Number(request.params.expires_at);
    const now = Date.now() / 1000;
    expect(expiresAt).toBeGreaterThan(now + 30 * 60);
    expect(expiresAt).toBeLessThanOrEqual(now + 24 * 3600);
    expect(fake.sessions.get(sessionId)!.amount_total).toBe(435000);
    expect((await orderRow(order.id)).stripeCheckoutSessionId).toBe(sessionId);
  });

  it("a retried creation with the same key returns the same session (idempotent)", async () => {
    const { order, course, sessionId } = await cardOrder(1);
    const again = await startCheckout(await orderRow(order.id), course.slug);
    expect(again).toMatchObject({ ok: true, sessionId });
    expect(fake.sessions.get(sessionId)).toBeDefined();
  });

  it("a transient Stripe error is retried by the SDK under the same idempotency key", async () => {
    const course = await insertCourse();
    fake.failNextCreate(500);
    const before = fake.requests.length;
    const outcome = await submitCheckout(
      course.slug,
      form({ intent: "card", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }),
      "c",
    );
    expect(outcome.kind).toBe("card");
    const posts = fake.requests.slice(before).filter((r) => r.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers["idempotency-key"]).toBe(posts[1]!.headers["idempotency-key"]);
  });

  it("when Stripe refuses, the buyer gets 'Payment Error' and the order is marked failed", async () => {
    const course = await insertCourse();
    fake.failNextCreate(400);
    const outcome = await submitCheckout(
      course.slug,
      form({ intent: "card", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }),
      "c",
    );
    expect(outcome).toMatchObject({ kind: "problem", message: MESSAGES.paymentError });
    const [row] = await database().db.select().from(orders);
    expect(row!.status).toBe("failed");
  });

  it("the card checkout answers with the session URL", async () => {
    const course = await insertCourse();
    const outcome = await submitCheckout(
      course.slug,
      form({ intent: "card", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }),
      "c",
    );
    expect(outcome.kind).toBe("card");
    if (outcome.kind !== "card") return;
    expect(outcome.url).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
  });

  it("the success page verifies the session, for its own course only", async () => {
    const { order, sessionId } = await cardOrder(2);
    expect(await verifyCheckoutReturn("osint-masterclass", sessionId)).toEqual({
      kind: "not_paid",
    });
    fake.pay(sessionId);
    await insertCourse({ slug: "other-course", title: "Other" });
    expect(await verifyCheckoutReturn("other-course", sessionId)).toEqual({ kind: "not_found" });
    expect((await orderRow(order.id)).status).toBe("pending");
    expect(await verifyCheckoutReturn("osint-masterclass", "cs_test_doesnotexist")).toEqual({
      kind: "not_found",
    });
    expect(await verifyCheckoutReturn("osint-masterclass", "../../etc")).toEqual({
      kind: "not_found",
    });
    expect(await verifyCheckoutReturn("osint-masterclass", sessionId)).toMatchObject({
      kind: "paid",
      orderId: order.id,
    });
    expect((await orderRow(order.id)).status).toBe("paid");
    // Reloading the page changes nothing more, and is answered from the database.
    const asked = fake.requests.length;
    expect(await verifyCheckoutReturn("osint-masterclass", sessionId)).toMatchObject({
      kind: "paid",
    });
    expect(fake.requests.length).toBe(asked);
    const receipts = (await outbox(order.id)).filter((m) => m.kind === "order_receipt");
    expect(receipts).toHaveLength(1);
  });

  it("the success page asks Stripe nothing for a session no order names, and little for one", async () => {
    const before = fake.requests.length;
    for (let i = 0; i < 5; i++) {
      expect(await verifyCheckoutReturn("osint-masterclass", `cs_test_random${i}`)).toEqual({
        kind: "not_found",
      });
    }
    expect(fake.requests.length).toBe(before);
    // An open session: a few look-ups a minute, then 'still processing' without asking.
    const { sessionId } = await cardOrder(1);
    const started = fake.requests.length;
    for (let i = 0; i < 10; i++) await verifyCheckoutReturn("osint-masterclass", sessionId);
    expect(fake.requests.length - started).toBe(6);
  });
});

describe("the webhook", () => {
  it("a forged, foreign or missing signature → 400 and nothing changes", async () => {
    const { order, sessionId } = await cardOrder(1);
    const session = fake.pay(sessionId);
    const event = fake.event("checkout.session.completed", session);
    const payload = JSON.stringify(event);
    const body = new TextEncoder().encode(payload);
    const attempts = [
      null,
      "",
      "t=123,v1=deadbeef",
      Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" }),
      // Signed correctly, but for a different body than the one delivered.
      Stripe.webhooks.generateTestHeaderString({ payload: `${payload} `, secret: WEBHOOK_SECRET }),
    ];
    for (const signature of attempts) {
      const response = await handleStripeWebhook(body, signature);
      expect(response.status).toBe(400);
    }
    // A tampered body under a valid signature of the original.
    const valid = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = new TextEncoder().encode(payload.replace('"paid"', '"paid" '));
    expect((await handleStripeWebhook(tampered, valid)).status).toBe(400);

    expect((await orderRow(order.id)).status).toBe("pending");
    expect(await eventCount()).toBe(0);
    expect(await outbox(order.id)).toEqual([]);
  });

  it("the same event ten times (in turn, then at once) → one transition, one receipt per recipient", async () => {
    const { order, sessionId } = await cardOrder(3);
    const event = fake.event("checkout.session.completed", fake.pay(sessionId));
    const first = await deliver(event);
    expect(first).toEqual({ status: 200, body: { received: true } });
    for (let i = 0; i < 9; i++) {
      expect(await deliver(event)).toEqual({
        status: 200,
        body: { received: true, duplicate: true },
      });
    }
    const again = fake.event("checkout.session.completed", fake.sessions.get(sessionId)!);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => deliver(again)));
    expect(concurrent.every((r) => r.status === 200)).toBe(true);
    expect(concurrent.filter((r) => r.body.duplicate)).toHaveLength(9);

    expect((await orderRow(order.id)).status).toBe("paid");
    expect(await eventCount()).toBe(2);
    const mails = await outbox(order.id);
    expect(mails.filter((m) => m.kind === "order_receipt")).toEqual([
      { kind: "order_receipt", to: "ada@example.com" },
    ]);
    expect(joiningRecipients(mails)).toEqual([
      "student1@example.com",
      "student2@example.com",
      "student3@example.com",
    ]);
    expect(mails).toHaveLength(4);
  });

  it("the webhook racing the success page (10 at once) → exactly one transition", async () => {
    const { order, sessionId } = await cardOrder(1);
    const session = fake.pay(sessionId);
    const events = Array.from({ length: 5 }, () =>
      fake.event("checkout.session.completed", session),
    );
    const results = await Promise.all([
      ...events.map((e) => deliver(e)),
      ...Array.from({ length: 5 }, () => verifyCheckoutReturn("osint-masterclass", sessionId)),
    ]);
    expect(results.slice(0, 5).every((r) => "status" in r && r.status === 200)).toBe(true);
    expect(results.slice(5).every((r) => "kind" in r && r.kind === "paid")).toBe(true);
    expect((await orderRow(order.id)).status).toBe("paid");
    const mails = await outbox(order.id);
    // One receipt to the buyer, one joining e-mail to the student (each once).
    expect(mails.filter((m) => m.kind === "order_receipt")).toHaveLength(1);
    expect(mails.filter((m) => m.kind === "course_joining_details")).toHaveLength(1);
    expect(mails).toHaveLength(2);
  });

  it("for a self-booking the buyer gets the receipt and the joining details", async () => {
    const course = await insertCourse();
    const started = await startedCardOrder(course);
    await deliver(fake.event("checkout.session.completed", fake.pay(started.sessionId)));
    expect((await outbox(started.order.id)).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: "course_joining_details", to: "ada@example.com" },
      { kind: "order_receipt", to: "ada@example.com" },
    ]);
  });

  it("replayed or out-of-order events change nothing", async () => {
    const { order, sessionId } = await cardOrder(1);
    const open = { ...fake.sessions.get(sessionId)! };
    const paid = fake.pay(sessionId);
    await deliver(fake.event("checkout.session.completed", paid));
    // An expiry or a failure arriving after the payment: the order stays paid.
    await deliver(
      fake.event("checkout.session.expired", { ...open, status: "expired" } as FakeSession),
    );
    await deliver(fake.event("checkout.session.async_payment_failed", paid));
    expect((await orderRow(order.id)).status).toBe("paid");
    expect((await outbox(order.id)).filter((m) => m.kind === "order_receipt")).toHaveLength(1);
  });

  it("expired → canceled; async failure → failed; unpaid completion waits for the async result", async () => {
    const a = await cardOrder(1);
    await deliver(fake.event("checkout.session.expired", fake.expire(a.sessionId)));
    expect((await orderRow(a.order.id)).status).toBe("canceled");
    await database().db.delete(courses);

    const b = await cardOrder(1);
    const unpaid = { ...fake.sessions.get(b.sessionId)!, status: "complete" as const };
    await deliver(fake.event("checkout.session.completed", unpaid));
    expect((await orderRow(b.order.id)).status).toBe("pending");
    expect(await verifyCheckoutReturn("osint-masterclass", b.sessionId)).toEqual({
      kind: "not_paid",
    });
    fake.sessions.get(b.sessionId)!.status = "complete";
    expect(await verifyCheckoutReturn("osint-masterclass", b.sessionId)).toEqual({
      kind: "processing",
      orderId: b.order.id,
    });
    await deliver(fake.event("checkout.session.async_payment_failed", unpaid));
    expect((await orderRow(b.order.id)).status).toBe("failed");
  });

  it("a session whose amount does not match its order is not taken as payment", async () => {
    const { order, sessionId } = await cardOrder(2);
    const session = { ...fake.pay(sessionId), amount_total: 100 };
    expect(await deliver(fake.event("checkout.session.completed", session))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect((await orderRow(order.id)).status).toBe("pending");
  });
});
