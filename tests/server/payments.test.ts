import { and, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "#app/lib/checkout.ts";
import {
  coursePartners,
  courses,
  emailOutbox,
  orderStudents,
  orders,
  stripeEvents,
} from "#server/db/schema.ts";
import { changeOrderStatusByAdmin, listOrders, orderStats } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { orderCsvRows, ordersCsvResponse } from "#server/orders/csv.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { loadCheckout, submitCheckout } from "#server/payments/checkout.server.ts";
import {
  handleStripeWebhook,
  startCheckout,
  verifyCheckoutReturn,
} from "#server/payments/stripe.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { BILLING, BILLING_FORM } from "#tests/support/checkout.ts";
import { TEST_STRIPE_KEYS, type FakeSession } from "#tests/support/fake-stripe.ts";

/**
 * Orders and card payments against a fake Stripe API on loopback. The real `stripe` SDK is
 * pointed at it through STRIPE_API_BASE, set here before the server modules (and their
 * configuration) are imported.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForServerTests({
    PUBLIC_URL: "https://shop.example.co.uk",
    TRUST_PROXY: "loopback", // https is served through a TLS-terminating proxy
    ADMIN_EMAILS: "sales@example.co.uk,ops@example.co.uk",
  }),
);

afterAll(() => fake.close());

const WEBHOOK_SECRET = TEST_STRIPE_KEYS.webhookSecret;
const database = useFreshDatabase();

async function insertCourse(overrides: Partial<typeof courses.$inferInsert> = {}) {
  const [course] = await database()
    .db.insert(courses)
    .values({
      slug: "osint-masterclass",
      title: "OSINT Investigations Masterclass",
      status: "published",
      price: "1450.00",
      durationHours: 14,
      ...overrides,
    })
    .returning();
  return course!;
}

/** The admin named on changes in these tests (the order timeline records who acted). */
const ADMIN = { id: "audit-test-admin", email: "admin@example.com" };

const buyer = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "",
  company: "Analytical Engines Ltd",
};

const students = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    firstName: `Student${i + 1}`,
    lastName: "Smith",
    email: `student${i + 1}@example.com`,
  }));

async function cardOrder(quantity = 3) {
  const course = await insertCourse();
  const created = await createOrder({
    courseId: course.id,
    paymentMethod: "stripe",
    values: {
      buyer,
      billing: BILLING,
      termsAccepted: true,
      studentMode: "others",
      quantity,
      students: students(quantity),
    },
  });
  if (!created.ok) throw new Error("order not created");
  const started = await startCheckout(created.order, course.slug);
  if (!started.ok) throw new Error("checkout not started");
  return { course, order: created.order, sessionId: started.sessionId };
}

function signed(event: Record<string, unknown>, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return {
    body: new TextEncoder().encode(payload),
    signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }),
  };
}

async function deliver(event: Record<string, unknown>) {
  const { body, signature } = signed(event);
  return handleStripeWebhook(body, signature);
}

async function orderRow(id: string) {
  const [row] = await database().db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

async function outbox(orderId: string) {
  return database()
    .db.select({ kind: emailOutbox.kind, to: emailOutbox.toAddress })
    .from(emailOutbox)
    .where(eq(emailOutbox.orderId, orderId));
}

async function eventCount() {
  const [row] = await database()
    .db.select({ n: sql<number>`count(*)::int` })
    .from(stripeEvents);
  return Number(row!.n);
}

/** A posted checkout form: a complete billing address and the terms ticked, unless overridden. */
function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries({ ...BILLING_FORM, ...fields })) data.append(k, v);
  return data;
}

describe("creating an order", () => {
  it("prices from the database, stores students, pending, GBP, title snapshot, one transaction", async () => {
    const course = await insertCourse({ price: "19.99" });
    const result = await createOrder({
      courseId: course.id,
      paymentMethod: "stripe",
      values: {
        buyer,
        billing: BILLING,
        termsAccepted: true,
        studentMode: "others",
        quantity: 3,
        students: students(3),
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.order).toMatchObject({
      status: "pending",
      paymentMethod: "stripe",
      currency: "GBP",
      unitPriceCents: 1999,
      quantity: 3,
      netAmountCents: 5997,
      totalAmountCents: 5997,
      isBuyerStudent: false,
      courseTitleSnapshot: "OSINT Investigations Masterclass",
      buyerCompany: "Analytical Engines Ltd",
      buyerPhone: null,
    });
    const saved = await database()
      .db.select()
      .from(orderStudents)
      .where(eq(orderStudents.orderId, result.order.id))
      .orderBy(orderStudents.position);
    expect(saved.map((s) => s.email)).toEqual([
      "student1@example.com",
      "student2@example.com",
      "student3@example.com",
    ]);
    // Card orders send nothing until paid.
    expect(await outbox(result.order.id)).toEqual([]);
  });

  it("buying for oneself: one place, no student rows", async () => {
    const course = await insertCourse();
    const result = await createOrder({
      courseId: course.id,
      paymentMethod: "invoice",
      values: {
        buyer,
        billing: BILLING,
        termsAccepted: true,
        studentMode: "self",
        quantity: 1,
        students: [],
      },
    });
    expect(result.ok && result.order).toMatchObject({
      quantity: 1,
      isBuyerStudent: true,
      totalAmountCents: 145000,
    });
    if (!result.ok) return;
    const saved = await database()
      .db.select()
      .from(orderStudents)
      .where(eq(orderStudents.orderId, result.order.id));
    expect(saved).toEqual([]);
  });

  it("quantity 0 or 11 is refused and nothing is stored", async () => {
    const course = await insertCourse();
    for (const quantity of [0, 11]) {
      const result = await createOrder({
        courseId: course.id,
        paymentMethod: "invoice",
        values: {
          buyer,
          billing: BILLING,
          termsAccepted: true,
          studentMode: "others",
          quantity,
          students: students(Math.max(quantity, 1)),
        },
      });
      expect(result).toEqual({ ok: false, reason: "invalid", message: MESSAGES.invalidQuantity });
    }
    // Even past the rules, the database refuses such a row.
    await expect(
      database().db.insert(orders).values({
        paymentMethod: "invoice",
        buyerFirstName: "a",
        buyerLastName: "b",
        buyerEmail: "c@d.e",
        courseTitleSnapshot: "x",
        unitPriceCents: 100,
        quantity: 11,
        netAmountCents: 1100,
        totalAmountCents: 1100,
      }),
    ).rejects.toThrow();
    const [count] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orders);
    expect(Number(count!.n)).toBe(0);
  });

  it("a price sent from the browser is ignored: amount = database price × quantity", async () => {
    const course = await insertCourse({ price: "295.00" });
    const outcome = await submitCheckout(
      course.slug,
      form({
        intent: "invoice",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        studentMode: "others",
        quantity: "2",
        "students[0].firstName": "A",
        "students[0].lastName": "One",
        "students[0].email": "a1@example.com",
        "students[1].firstName": "B",
        "students[1].lastName": "Two",
        "students[1].email": "b2@example.com",
        price: "0.01",
        unit_price_cents: "1",
        unitPriceCents: "1",
        total_amount_cents: "2",
        totalAmountCents: "2",
        amount: "2",
      }),
      "test-client",
    );
    expect(outcome.kind).toBe("invoice");
    if (outcome.kind !== "invoice") return;
    expect(await orderRow(outcome.orderId)).toMatchObject({
      unitPriceCents: 29500,
      quantity: 2,
      totalAmountCents: 59000,
    });
  });

  it("unpublished, unpriced, partner or unknown courses cannot be bought", async () => {
    const draft = await insertCourse({ slug: "draft", status: "draft" });
    const unpriced = await insertCourse({ slug: "unpriced", price: null });
    const [partner] = await database()
      .db.insert(coursePartners)
      .values({ name: "Cifas", purchaseUrl: "https://partner.example/buy" })
      .returning();
    const partnered = await insertCourse({ slug: "partnered", partnerId: partner!.id });
    const values = {
      buyer,
      billing: BILLING,
      termsAccepted: true,
      studentMode: "self" as const,
      quantity: 1,
      students: [],
    };
    for (const courseId of [
      draft.id,
      unpriced.id,
      partnered.id,
      "00000000-0000-4000-8000-000000000000",
      "nope",
    ]) {
      expect(await createOrder({ courseId, paymentMethod: "invoice", values })).toEqual({
        ok: false,
        reason: "unavailable",
      });
    }
    expect(await submitCheckout("draft", form({ intent: "invoice" }), "c")).toEqual({
      kind: "not_found",
    });
    // A typed-in checkout URL of a partner's or an unpriced course: not found, page and post.
    for (const slug of ["unpriced", "partnered"]) {
      expect(await loadCheckout(slug)).toBeNull();
      const outcome = await submitCheckout(
        slug,
        form({ intent: "invoice", firstName: "A", lastName: "B", email: "a@b.co" }),
        "c",
      );
      expect(outcome).toEqual({ kind: "not_found" });
    }
    // The provider's own priced course is sold, with the seller's VAT terms.
    await insertCourse({ slug: "own-course" });
    expect(await loadCheckout("own-course")).toMatchObject({
      course: { slug: "own-course", unitPriceCents: 145000 },
      vat: { rateBasisPoints: 0, pricesIncludeVat: false },
    });
    const [count] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orders);
    expect(Number(count!.n)).toBe(0);
  });

  it("the checkout's validation messages", async () => {
    const course = await insertCourse();
    const missing = await submitCheckout(
      course.slug,
      form({ intent: "card", firstName: "Ada" }),
      "c",
    );
    expect(missing).toMatchObject({
      kind: "problem",
      status: 400,
      message: MESSAGES.missingBilling,
    });
    const student = await submitCheckout(
      course.slug,
      form({
        intent: "invoice",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        studentMode: "others",
        quantity: "2",
        "students[0].firstName": "A",
        "students[0].lastName": "One",
        "students[0].email": "a1@example.com",
        "students[1].firstName": "B",
      }),
      "c",
    );
    expect(student).toMatchObject({ kind: "problem", message: MESSAGES.missingStudent(2) });
    const [count] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orders);
    expect(Number(count!.n)).toBe(0);
  });
});

describe("the invoice path", () => {
  it("queues the admin alert and the buyer's confirmation with the order, then admin moves it on", async () => {
    const course = await insertCourse();
    const outcome = await submitCheckout(
      course.slug,
      form({
        intent: "invoice",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        studentMode: "others",
        quantity: "2",
        "students[0].firstName": "Grace",
        "students[0].lastName": "Hopper",
        "students[0].email": "grace@example.com",
        "students[1].firstName": "Alan",
        "students[1].lastName": "Turing",
        "students[1].email": "alan@example.com",
      }),
      "c",
    );
    expect(outcome.kind).toBe("invoice");
    if (outcome.kind !== "invoice") return;
    const order = await orderRow(outcome.orderId);
    expect(order).toMatchObject({
      status: "pending",
      paymentMethod: "invoice",
      totalAmountCents: 290000,
    });
    const mails = await outbox(order.id);
    expect(mails).toEqual(
      expect.arrayContaining([
        { kind: "invoice_request_alert", to: "sales@example.co.uk, ops@example.co.uk" },
        { kind: "invoice_request_confirmation", to: "ada@example.com" },
      ]),
    );
    expect(mails).toHaveLength(2);
    const [confirmation] = await database()
      .db.select()
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.orderId, order.id),
          eq(emailOutbox.kind, "invoice_request_confirmation"),
        ),
      );
    expect(confirmation!.text).toContain("Grace Hopper <grace@example.com>");
    expect(confirmation!.text).toContain("£2,900.00");
    expect(confirmation!.text).toContain("NW-");

    // The webhook and the success page cannot settle an invoice order; an admin can.
    expect((await transitionOrder(order.id, "paid", { source: "webhook" })).kind).toBe("unchanged");
    expect(await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).toMatchObject({
      ok: false,
      reason: "not_allowed",
    });
    expect(await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).toMatchObject({
      ok: true,
      order: { status: "invoiced", actions: ["paid", "canceled"] },
    });
    expect(await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).toMatchObject({
      ok: false,
    });
    expect(await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).toMatchObject({
      ok: true,
      order: { status: "paid", actions: [] },
    });
    expect(await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).toMatchObject({
      ok: false,
      status: "paid",
    });
    const after = await outbox(order.id);
    expect(after.filter((m) => m.kind === "order_receipt")).toEqual([
      { kind: "order_receipt", to: "ada@example.com" },
    ]);
    expect(
      after
        .filter((m) => m.kind === "course_joining_details")
        .map((m) => m.to)
        .sort(),
    ).toEqual(["alan@example.com", "grace@example.com"]);
  });
});

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
    // Reloading the page changes nothing more.
    expect(await verifyCheckoutReturn("osint-masterclass", sessionId)).toMatchObject({
      kind: "paid",
    });
    const receipts = (await outbox(order.id)).filter((m) => m.kind === "order_receipt");
    expect(receipts).toHaveLength(1);
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
    expect(
      mails
        .filter((m) => m.kind === "course_joining_details")
        .map((m) => m.to)
        .sort(),
    ).toEqual(["student1@example.com", "student2@example.com", "student3@example.com"]);
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
    const created = await createOrder({
      courseId: course.id,
      paymentMethod: "stripe",
      values: {
        buyer,
        billing: BILLING,
        termsAccepted: true,
        studentMode: "self",
        quantity: 1,
        students: [],
      },
    });
    if (!created.ok) throw new Error("no order");
    const started = await startCheckout(created.order, course.slug);
    if (!started.ok) throw new Error("no session");
    await deliver(fake.event("checkout.session.completed", fake.pay(started.sessionId)));
    expect((await outbox(created.order.id)).sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
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

describe("the admin Payments screen's queries", () => {
  async function seedOrders() {
    const course = await insertCourse({ price: "100.00" });
    const make = async (
      first: string,
      method: "stripe" | "invoice",
      quantity: number,
      company = `${first} Ltd`,
    ) => {
      const created = await createOrder({
        courseId: course.id,
        paymentMethod: method,
        values: {
          buyer: {
            ...buyer,
            firstName: first,
            email: `${first.toLowerCase()}@example.com`,
            company,
          },
          billing: BILLING,
          termsAccepted: true,
          studentMode: quantity === 1 ? "self" : "others",
          quantity,
          students: students(quantity),
        },
      });
      if (!created.ok) throw new Error("no order");
      return created.order;
    };
    const a = await make("Alice", "invoice", 2, "Acme 100% Ltd");
    const b = await make("Bob", "invoice", 1);
    const c = await make("Carol", "stripe", 3);
    await make("Dan", "stripe", 1);
    await changeOrderStatusByAdmin(a.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(a.id, "paid", ADMIN);
    await changeOrderStatusByAdmin(b.id, "invoiced", ADMIN);
    await transitionOrder(c.id, "paid", { source: "success_page" });
    return { a, b, c };
  }

  it("stat cards come from one aggregate: revenue is the sum of paid totals", async () => {
    await seedOrders();
    expect(await orderStats()).toEqual({
      total: 4,
      pending: 1,
      invoiced: 1,
      paid: 2,
      failed: 0,
      canceled: 0,
      revenueCents: 20000 + 30000,
    });
  });

  it("search, filters and paging happen in the database", async () => {
    const { a } = await seedOrders();
    const all = await listOrders({ search: "", status: null, method: null, page: 1 });
    expect(all.total).toBe(4);
    expect(all.items.map((o) => o.buyerFirstName)).toEqual(["Dan", "Carol", "Bob", "Alice"]);
    const alice = all.items.find((o) => o.id === a.id)!;
    expect(alice.students.map((s) => s.email)).toEqual([
      "student1@example.com",
      "student2@example.com",
    ]);
    expect(alice.actions).toEqual([]);
    expect(all.items.find((o) => o.buyerFirstName === "Bob")!.actions).toEqual([
      "paid",
      "canceled",
    ]);
    expect(all.items.find((o) => o.buyerFirstName === "Dan")!.actions).toEqual(["canceled"]);

    const byName = await listOrders({ search: "carol", status: null, method: null, page: 1 });
    expect(byName.items.map((o) => o.buyerFirstName)).toEqual(["Carol"]);
    const byFullName = await listOrders({
      search: "Bob Lovelace",
      status: null,
      method: null,
      page: 1,
    });
    expect(byFullName.items.map((o) => o.buyerFirstName)).toEqual(["Bob"]);
    const byCompany = await listOrders({ search: "100%", status: null, method: null, page: 1 });
    expect(byCompany.items.map((o) => o.buyerFirstName)).toEqual(["Alice"]);
    // % is literal: it does not match everything.
    expect((await listOrders({ search: "%", status: null, method: null, page: 1 })).total).toBe(1);
    const byCourse = await listOrders({ search: "osint", status: null, method: null, page: 1 });
    expect(byCourse.total).toBe(4);
    const byEmail = await listOrders({
      search: "dan@example",
      status: null,
      method: null,
      page: 1,
    });
    expect(byEmail.items.map((o) => o.buyerFirstName)).toEqual(["Dan"]);
    const paidCards = await listOrders({ search: "", status: "paid", method: "stripe", page: 1 });
    expect(paidCards.items.map((o) => o.buyerFirstName)).toEqual(["Carol"]);

    const page2 = await listOrders({ search: "", status: null, method: null, page: 2 }, 3);
    expect(page2).toMatchObject({ page: 2, pageCount: 2, total: 4 });
    expect(page2.items.map((o) => o.buyerFirstName)).toEqual(["Alice"]);
    const beyond = await listOrders({ search: "", status: null, method: null, page: 9 }, 3);
    expect(beyond.page).toBe(2);
  });

  it("the server refuses every transition the machine forbids", async () => {
    const { a, b, c } = await seedOrders();
    expect(await changeOrderStatusByAdmin(a.id, "canceled", ADMIN)).toMatchObject({
      ok: false,
      reason: "not_allowed",
    });
    expect(await changeOrderStatusByAdmin(b.id, "invoiced", ADMIN)).toMatchObject({ ok: false });
    expect(await changeOrderStatusByAdmin(c.id, "paid", ADMIN)).toMatchObject({ ok: false });
    expect(await changeOrderStatusByAdmin(c.id, "pending", ADMIN)).toMatchObject({ ok: false });
    expect(
      await changeOrderStatusByAdmin("00000000-0000-4000-8000-000000000000", "paid", ADMIN),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await changeOrderStatusByAdmin(b.id, "canceled", ADMIN)).toMatchObject({
      ok: true,
      order: { status: "canceled" },
    });
  });

  it("CSV export: the filtered orders, every page, in batches", async () => {
    await seedOrders();
    const batches: unknown[][][] = [];
    for await (const batch of orderCsvRows({ search: "", status: null, method: null }, 1))
      batches.push(batch);
    expect(batches).toHaveLength(4);
    const response = ordersCsvResponse(
      { search: "", status: null, method: null },
      "orders-2026-01-01.csv",
    );
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="orders-2026-01-01.csv"',
    );
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toMatch(/^Reference,Order ID,Created \(UTC\),Status,Method,/);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain("Dan");
    expect(lines[4]).toContain("Alice");
    expect(lines[4]).toContain(",Paid,Manual Invoice,");
    expect(lines[4]).toContain(",100.00,2,200.00,GBP,No,");
    const invoiced = await ordersCsvResponse(
      { search: "", status: "invoiced", method: null },
      "x.csv",
    ).text();
    expect(invoiced.trim().split("\r\n")).toHaveLength(2);
  });
});
