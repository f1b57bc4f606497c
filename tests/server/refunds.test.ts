import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderDocuments, orderRefunds } from "#server/db/schema.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import {
  REFUND_REFUSALS,
  refundFromForm,
  refundIdempotencyKey,
  refundOrder,
} from "#server/payments/refunds.server.ts";
import { verifyCheckoutReturn } from "#server/payments/stripe.server.ts";
import { REFUND_MESSAGES } from "#app/lib/orders/refunds.ts";
import { startedCardOrder } from "#tests/support/card-payments.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { documents } from "#tests/support/invoices.ts";
import { pdfText } from "#tests/support/pdf-text.ts";
import {
  ADMIN,
  formData as form,
  insertCourse,
  orderRow,
  placeOrder,
} from "#tests/support/orders.ts";
import {
  answer,
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
 * Refunds of card payments by an admin, against the fake Stripe API on loopback, with the real
 * `stripe` SDK and a real database: the PaymentIntent a refund needs, the admin's refund and its
 * form, and that each refund is recorded once — its amount on the order, one credit note, one
 * timeline entry, one e-mail.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests({
    ADMIN_EMAILS: "sales@example.co.uk",
  }),
);
const { paidCardOrder } = useFakeStripeForRefunds(fake);

const database = useFreshDatabase();
const course = () => insertCourse({ price: "120.00" });
const refundRequests = () =>
  fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds");

describe("the PaymentIntent of a paid card order", () => {
  it("is stored when the webhook confirms the payment", async () => {
    const { order, paymentIntent } = await paidCardOrder();
    expect(paymentIntent).toMatch(/^pi_/);
    expect(order.stripePaymentIntentId).toBe(paymentIntent);
  });

  it("is stored when the success page confirms it", async () => {
    const c = await course();
    const started = await startedCardOrder(c);
    const session = fake.pay(started.sessionId);
    expect(await verifyCheckoutReturn(c.slug, session.id)).toMatchObject({ kind: "paid" });
    expect((await orderRow(started.order.id)).stripePaymentIntentId).toBe(session.payment_intent);
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
    // Each names the receipt it credits; the last, leaving nothing uncredited, is not partial.
    const receipt = (await documents(order.id)).find((d) => d.kind === "receipt")!;
    const lines = (await creditNotesOf(order.id)).map(
      (n) => (n.snapshot as DocumentSnapshot).lines[0]!.description,
    );
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^Partial credit for receipt ${receipt.number}: `)),
      expect.stringMatching(new RegExp(`^Partial credit for receipt ${receipt.number}: `)),
      expect.stringMatching(new RegExp(`^Final credit for receipt ${receipt.number}: `)),
    ]);
    const text = await pdfText((await documentPdf((await creditNotesOf(order.id))[2]!.id))!.pdf);
    expect(text).toContain(`Receipt ${receipt.number}`);
    expect(text).toContain(`credits receipt ${receipt.number}`);
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
    const pending = await placeOrder(c.id, "stripe");
    const invoiced = await placeOrder(c.id, "invoice");
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
