import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { MESSAGES } from "#app/lib/checkout.ts";
import { coursePartners, emailOutbox, orderStudents, orders } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { loadCheckout, submitCheckout } from "#server/payments/checkout.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { BILLING } from "#tests/support/checkout.ts";
import {
  ADMIN,
  BUYER as buyer,
  checkoutForm as form,
  insertCourse,
  joiningRecipients,
  orderRow,
  outboxOf as outbox,
  placeOrder,
  students,
} from "#tests/support/orders.ts";

/**
 * Creating an order: prices and places from the database, the checkout's validation, and the
 * invoice path's e-mails and admin changes. Against a fake Stripe API on loopback (the real
 * `stripe` SDK is pointed at it through STRIPE_API_BASE), set here before the server modules (and
 * their configuration) are imported.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);

afterAll(() => fake.close());

const database = useFreshDatabase();

/** The buyer booking two places on an invoice, as the checkout form posts it (students apart). */
const ADA_BOOKS_TWO = {
  intent: "invoice",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  studentMode: "others",
  quantity: "2",
};
const FIRST_STUDENT = {
  "students[0].firstName": "A",
  "students[0].lastName": "One",
  "students[0].email": "a1@example.com",
};

describe("creating an order", () => {
  it("prices from the database, stores students, pending, GBP, title snapshot, one transaction", async () => {
    const course = await insertCourse({ price: "19.99" });
    const result = await placeOrder(course.id, "stripe", { quantity: 3 });
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
    const result = await placeOrder(course.id, "invoice");
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
      const result = await placeOrder(course.id, "invoice", {
        studentMode: "others",
        quantity,
        students: students(Math.max(quantity, 1)),
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
        ...ADA_BOOKS_TWO,
        ...FIRST_STUDENT,
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
        ...ADA_BOOKS_TWO,
        ...FIRST_STUDENT,
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
        ...ADA_BOOKS_TWO,
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
    expect(joiningRecipients(after)).toEqual(["alan@example.com", "grace@example.com"]);
  });
});
