import { and, eq } from "drizzle-orm";
import type { ActionFunctionArgs } from "react-router";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as bookingRoute from "#app/routes/site/booking.tsx";
import { PAY_BY_CARD_MESSAGES, type BookerPage } from "#app/lib/orders/booking.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, orderPayments, orderRefunds } from "#server/db/schema.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { bookingLinkExpiry, bookingToken } from "#server/orders/booking-links.server.ts";
import { recordPayment } from "#server/orders/payments.server.ts";
import { INVOICE_BALANCE_PURPOSE } from "#server/payments/invoice-card.server.ts";
import { deliver } from "#tests/support/card-payments.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { formRequest, freshIp } from "#tests/support/forms.ts";
import { documents } from "#tests/support/invoices.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * Paying an invoice by card, against the fake Stripe API on loopback with the real SDK and a real
 * database: the invoice (PDF and e-mail) links to the booker's page; its "Pay by card" makes a
 * Checkout Session for what is owed then; Stripe's webhook and the buyer's return record the
 * payment once; it pays the order; a refund of it made in Stripe's dashboard is credited on the
 * paid invoice; and a payment the order can no longer take is not recorded.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
afterAll(() => fake.close());

useFreshDatabase();

let courses = 0;

async function invoicedOrder() {
  const course = await insertCourse({ slug: `invoice-card-${++courses}`, price: "500.00" });
  const placed = await placeOrder(course.id, "invoice", { quantity: 2 });
  if (!placed.ok) throw new Error("not placed");
  expect((await changeOrderStatusByAdmin(placed.order.id, "invoiced", ADMIN)).ok).toBe(true);
  const order = await orderRow(placed.order.id);
  return { order, token: bookingToken(order.id, bookingLinkExpiry(null)) };
}

async function pageOf(token: string, query = "") {
  const answer = await bookingRoute.loader({
    params: { token },
    context: { clientIp: freshIp() },
    request: new Request(`http://localhost/bookings/${token}${query}`),
  } as unknown as Parameters<typeof bookingRoute.loader>[0]);
  return (answer as { page: BookerPage }).page;
}

/** "Pay by card" pressed on the booker's page: Stripe's page, or the refusal. */
async function payByCard(token: string) {
  const answer = (await bookingRoute.action({
    request: formRequest({ form: "pay_by_card" }),
    params: { token },
    context: { clientIp: freshIp() },
  } as unknown as ActionFunctionArgs)) as
    Response | { data: { message: string }; init?: ResponseInit };
  if (answer instanceof Response) {
    return { status: answer.status, location: answer.headers.get("Location") };
  }
  return { status: answer.init?.status ?? 200, message: answer.data.message };
}

const sessionOf = (location: string | null | undefined) =>
  fake.sessions.get(decodeURIComponent(/\/pay\/([^/?#]+)/.exec(location ?? "")![1]!))!;

const paymentsOf = (orderId: string) =>
  db().select().from(orderPayments).where(eq(orderPayments.orderId, orderId));

describe("an invoice paid by card", () => {
  it("carries the link to pay by card, in its PDF and its e-mail", async () => {
    const { order } = await invoicedOrder();
    const [invoice] = await documents(order.id);
    const url = (invoice!.snapshot as DocumentSnapshot).payment?.cardUrl;
    expect(url).toMatch(new RegExp(`/bookings/${order.id}\\.[^#]+#pay$`));
    const pdf = (await documentPdf(invoice!.id))!.pdf;
    expect(await pdfText(pdf)).toContain(
      "Or pay by card online: open your booking and choose Pay by card",
    );
    expect(Buffer.from(pdf).toString("latin1")).toContain(url!.split("#")[0]!);
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, order.id), eq(emailOutbox.kind, "invoice_issued")));
    expect(mail!.text).toContain(`Or pay by card online on your booking's page: ${url}`);
  });

  it("takes what is owed at Stripe, records it once from the webhook and the return, and pays the order", async () => {
    const { order, token } = await invoicedOrder();
    // £200 already arrived by bank: the card pays the rest.
    await recordPayment(
      order.id,
      {
        amountCents: 20_000,
        receivedOn: new Date().toISOString().slice(0, 10),
        method: "bank_transfer",
        reference: null,
      },
      { actor: ADMIN.email, admin: ADMIN },
      new Date(),
    );
    const owed = order.totalAmountCents - 20_000;
    const before = await pageOf(token);
    expect(before.payByCard).toEqual({
      owedCents: owed,
      invoiceNumber: expect.stringMatching(/^INV-/),
    });

    const pressed = await payByCard(token);
    expect(pressed.status).toBe(302);
    const session = sessionOf(pressed.location);
    expect(session.amount_total).toBe(owed);
    expect(session.metadata).toMatchObject({
      order_id: order.id,
      purpose: INVOICE_BALANCE_PURPOSE,
    });
    expect(session.client_reference_id).toBeNull();
    expect(session.success_url).toContain(`/bookings/${token}?card_session={CHECKOUT_SESSION_ID}`);
    // Pressed again at once: the same session, not a second one.
    expect(sessionOf((await payByCard(token)).location).id).toBe(session.id);

    fake.pay(session.id);
    const event = fake.event("checkout.session.completed", fake.sessions.get(session.id)!);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    const after = await pageOf(token, `?card_session=${session.id}`);
    expect(after.cardPayment).toEqual({ state: "paid", amountCents: owed });
    expect(after.payByCard).toBeNull();

    const rows = await paymentsOf(order.id);
    expect(rows.map((r) => [r.amountCents, r.method, r.stripeCheckoutSessionId, r.actor])).toEqual([
      [20_000, "bank_transfer", null, ADMIN.email],
      [owed, "card", session.id, "stripe"],
    ]);
    expect(rows[1]!.reference).toMatch(/^pi_/);
    expect(await orderRow(order.id)).toMatchObject({
      status: "paid",
      receivedAmountCents: order.totalAmountCents,
    });
    // Paid: nothing more to pay.
    expect(await payByCard(token)).toMatchObject({
      status: 409,
      message: PAY_BY_CARD_MESSAGES.notOwed,
    });
  });

  it("a refund of its card payment made in Stripe's dashboard is credited on the paid invoice, once", async () => {
    const { order, token } = await invoicedOrder();
    const session = sessionOf((await payByCard(token)).location);
    fake.pay(session.id);
    expect(
      (await deliver(fake.event("checkout.session.completed", fake.sessions.get(session.id)!)))
        .status,
    ).toBe(200);
    const [card] = await paymentsOf(order.id);
    const refund = await fake.refundInDashboard(card!.reference!, { amount: 25_000 });
    const event = fake.event("refund.created", refund);
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect(await deliver(event)).toMatchObject({ body: { duplicate: true } });

    const refunds = await db()
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.id));
    expect(refunds).toMatchObject([
      { stripeRefundId: refund.id, amountCents: 25_000, status: "succeeded", actor: "stripe" },
    ]);
    const all = await documents(order.id);
    expect(all.map((d) => d.kind).sort()).toEqual(["credit_note", "invoice"]);
    const invoice = all.find((d) => d.kind === "invoice");
    const credit = all.find((d) => d.kind === "credit_note");
    expect(credit).toMatchObject({
      kind: "credit_note",
      creditsDocumentId: invoice!.id,
      totalAmountCents: 25_000,
    });
    expect(refunds[0]!.creditNoteId).toBe(credit!.id);
    expect(await orderRow(order.id)).toMatchObject({ status: "paid", refundedAmountCents: 25_000 });
  });

  it("a dashboard refund of a card payment on an invoice still owed is not credited", async () => {
    const { order } = await invoicedOrder();
    await recordPayment(
      order.id,
      {
        amountCents: 10_000,
        receivedOn: new Date().toISOString().slice(0, 10),
        method: "card",
        reference: "pi_test_part_payment",
      },
      { actor: "stripe", admin: null },
      new Date(),
    );
    const refund = {
      id: "re_test_part_payment",
      object: "refund",
      amount: 10_000,
      currency: "gbp",
      status: "succeeded",
      payment_intent: "pi_test_part_payment",
      reason: null,
      metadata: {},
      failure_reason: null,
    };
    expect(await deliver(fake.event("refund.created", refund as never))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect(await db().select().from(orderRefunds)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: "invoiced", refundedAmountCents: 0 });
  });

  it("records nothing for a session paid after the order was cancelled, and ignores a forged return", async () => {
    const { order, token } = await invoicedOrder();
    const session = sessionOf((await payByCard(token)).location);
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN, { reason: "Duplicate booking" });
    fake.pay(session.id);
    const answer = await deliver(
      fake.event("checkout.session.completed", fake.sessions.get(session.id)!),
    );
    expect(answer.status).toBe(200);
    expect(await paymentsOf(order.id)).toEqual([]);

    // Another order's session given back on this page: not this order's payment.
    const other = await invoicedOrder();
    const theirs = sessionOf((await payByCard(other.token)).location);
    fake.pay(theirs.id);
    const forged = await pageOf(other.token, `?card_session=${session.id}`);
    expect(forged.cardPayment).toBeNull();
    expect(await paymentsOf(other.order.id)).toEqual([]);
  });
});
