import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import { londonDate, ukDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { PAYMENT_MESSAGES } from "#app/lib/orders/payments.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  emailOutbox,
  orderDocuments,
  orderPayments,
  orderRefunds,
  orders,
} from "#server/db/schema.ts";
import { debtorsScreen } from "#server/invoices/debtors.server.ts";
import { registerDocuments } from "#server/invoices/register.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { correctBilling, storedBilling } from "#server/orders/billing.server.ts";
import { owedBackOnCancelledOrders } from "#server/orders/dashboard.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { recordPayment } from "#server/orders/payments.server.ts";
import { useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Payments as they arrive, on a real database (PGlite, and PostgreSQL when DATABASE_URL is set),
 * through the order page's own action: part payments until the balance is zero (then paid, dated
 * the day the money came, the receipt e-mailed), an overpayment flagged, the same form sent twice
 * recorded once, bad dates and amounts refused with nothing recorded, "Mark Paid" recording the
 * balance, and refunds paid by bank on paid invoice and card orders with their credit notes.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

const orderRoute = throughAdminLayout(orderModule);
const posts = useAdminPosts();

let nonces = 0;
const nonce = () => `payment-nonce-${String(++nonces).padStart(4, "0")}-abcdef`;

function post(orderId: string, fields: Record<string, string>) {
  return posts(orderRoute, `/admin/payments/${orderId}`, { orderId }, { orderId, ...fields });
}

const payment = (orderId: string, fields: Record<string, string>) =>
  post(orderId, { intent: "payment", method: "bank_transfer", nonce: nonce(), ...fields });

const bankRefund = (orderId: string, fields: Record<string, string>) =>
  post(orderId, { intent: "bankRefund", method: "bank_transfer", nonce: nonce(), ...fields });

let courses = 0;

/** An invoice order for 2 places at £1,450.00 + VAT, invoiced. */
async function invoicedOrder() {
  const course = await insertCourse({ slug: `osint-${++courses}` });
  const placed = await placeOrder(course.id, "invoice", { quantity: 2 });
  if (!placed.ok) throw new Error("not placed");
  expect((await changeOrderStatusByAdmin(placed.order.id, "invoiced", ADMIN)).ok).toBe(true);
  return orderRow(placed.order.id);
}

const paymentsOfOrder = (orderId: string) =>
  db().select().from(orderPayments).where(eq(orderPayments.orderId, orderId));

const pounds = (pence: number) => formatPence(pence, { plain: true });

describe("recording payments as they arrive", () => {
  it("takes part payments until the balance is zero, then the order is paid on that day", async () => {
    const order = await invoicedOrder();
    const total = order.totalAmountCents;
    expect(total).toBe(348_000);
    const today = londonDate();

    const first = await payment(order.id, {
      amountCents: "1,000.00",
      receivedOn: ukDate(today),
      reference: "ANALYTICAL ENG 77812",
    });
    expect(first).toMatchObject({ status: 200, body: { ok: true, balanceCents: total - 100_000 } });
    expect((first.body as { message: string }).message).toBe(
      `Recorded: £1,000.00 received. ${formatPence(total - 100_000)} still owed.`,
    );
    let row = await orderRow(order.id);
    expect(row).toMatchObject({ status: "invoiced", receivedAmountCents: 100_000 });

    // Owed on the Debtors screen and part paid in the register.
    const debt = (await debtorsScreen()).items.find((i) => i.orderId === order.id)!;
    expect(debt.owedCents).toBe(total - 100_000);
    const register = await registerDocuments({ from: today, to: today });
    expect(register.find((d) => d.orderId === order.id)?.payment).toBe("part_paid");

    // The rest, which arrived yesterday (as the bank statement says): paid, dated that day.
    const yesterday = londonDate(Date.now() - 86_400_000);
    const placedOn = londonDate(order.createdAt);
    const restOn = yesterday < placedOn ? today : yesterday;
    const rest = await payment(order.id, {
      amountCents: pounds(total - 100_000),
      receivedOn: restOn,
      method: "cheque",
    });
    expect(rest.body).toMatchObject({ ok: true, balanceCents: 0 });
    row = await orderRow(order.id);
    expect(row).toMatchObject({ status: "paid", receivedAmountCents: total });
    expect(londonDate(row.paidAt!)).toBe(restOn);
    const receipts = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, order.id), eq(emailOutbox.kind, "order_receipt")));
    expect(receipts).toHaveLength(1);
    expect((await debtorsScreen()).items.some((i) => i.orderId === order.id)).toBe(false);

    // Money after it is paid: an overpayment, shown to staff.
    const extra = await payment(order.id, { amountCents: "10", receivedOn: today });
    expect((extra.body as { message: string }).message).toContain("overpaid by £10.00");
    const page = (await orderPage(order.id))!;
    expect(page.payments).toMatchObject({
      receivedCents: total + 1000,
      balanceCents: -1000,
      recordable: true,
    });
    expect(page.payments!.received.map((p) => [p.amountCents, p.method, p.reference])).toEqual([
      ...(restOn < today
        ? [
            [total - 100_000, "cheque", null],
            [100_000, "bank_transfer", "ANALYTICAL ENG 77812"],
          ]
        : [
            [100_000, "bank_transfer", "ANALYTICAL ENG 77812"],
            [total - 100_000, "cheque", null],
          ]),
      [1000, "bank_transfer", null],
    ]);
    const received = page.timeline.filter((e) => e.kind === "payment_received");
    expect(received.map((e) => e.detail)).toEqual([
      `£1,000.00 by bank transfer on ${ukDate(today)} (ref ANALYTICAL ENG 77812) · ${formatPence(total - 100_000)} still owed`,
      `${formatPence(total - 100_000)} by cheque on ${ukDate(restOn)} · paid in full`,
      `£10.00 by bank transfer on ${ukDate(today)} · overpaid by £10.00`,
    ]);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "order.payment"));
    expect(audits).toHaveLength(3);
    // Still one receipt: the overpayment changes no status.
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.orderId, order.id), eq(emailOutbox.kind, "order_receipt"))),
    ).toHaveLength(1);
  });

  it("records the same form once, however often it is sent", async () => {
    const order = await invoicedOrder();
    const fields = {
      intent: "payment",
      method: "bank_transfer",
      nonce: nonce(),
      amountCents: "500.00",
      receivedOn: londonDate(),
    };
    const answers = await Promise.all([post(order.id, fields), post(order.id, fields)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await paymentsOfOrder(order.id)).toHaveLength(1);
    expect((await orderRow(order.id)).receivedAmountCents).toBe(50_000);
  });

  it("refuses bad input and orders that are not owed, recording nothing", async () => {
    const order = await invoicedOrder();
    const tomorrow = londonDate(Date.now() + 86_400_000);
    const future = await payment(order.id, { amountCents: "10", receivedOn: tomorrow });
    expect(future).toMatchObject({
      status: 400,
      body: { fieldErrors: { receivedOn: PAYMENT_MESSAGES.dateFuture } },
    });
    const early = await payment(order.id, { amountCents: "10", receivedOn: "01/01/2020" });
    expect(early.status).toBe(400);
    expect((early.body as { fieldErrors: Record<string, string> }).fieldErrors.receivedOn).toBe(
      PAYMENT_MESSAGES.dateBeforeOrder(ukDate(londonDate(order.createdAt))),
    );
    const notADate = await payment(order.id, { amountCents: "10", receivedOn: "31/02/2026" });
    expect(notADate.body).toMatchObject({
      fieldErrors: { receivedOn: PAYMENT_MESSAGES.dateInvalid },
    });
    const noAmount = await payment(order.id, { amountCents: "ten", receivedOn: londonDate() });
    expect(noAmount.status).toBe(400);
    const noMethod = await payment(order.id, {
      amountCents: "10",
      receivedOn: londonDate(),
      method: "bitcoin",
    });
    expect(noMethod.body).toMatchObject({
      fieldErrors: { method: PAYMENT_MESSAGES.methodMissing },
    });
    // Another order's id in the form than the page's: not read.
    const other = await invoicedOrder();
    const crossed = await posts(
      orderRoute,
      `/admin/payments/${order.id}`,
      { orderId: order.id },
      {
        intent: "payment",
        orderId: other.id,
        amountCents: "10",
        receivedOn: londonDate(),
        method: "cheque",
        nonce: nonce(),
      },
    );
    expect(crossed.status).toBe(400);

    const course = await insertCourse({ slug: "not-yet-invoiced" });
    const pending = await placeOrder(course.id, "invoice");
    if (!pending.ok) throw new Error("not placed");
    const notInvoiced = await payment(pending.order.id, {
      amountCents: "10",
      receivedOn: londonDate(),
    });
    expect(notInvoiced).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.notOwed } });
    const card = await placeOrder(course.id, "stripe");
    if (!card.ok) throw new Error("not placed");
    const byCard = await payment(card.order.id, { amountCents: "10", receivedOn: londonDate() });
    expect(byCard).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.notInvoice } });
    const cancelled = await invoicedOrder();
    await changeOrderStatusByAdmin(cancelled.id, "canceled", ADMIN, { reason: "Duplicate" });
    const afterCancel = await payment(cancelled.id, {
      amountCents: "10",
      receivedOn: londonDate(),
    });
    expect(afterCancel.status).toBe(409);

    expect(await db().select().from(orderPayments)).toEqual([]);
    expect((await orderRow(order.id)).receivedAmountCents).toBe(0);
  });

  it("'Mark Paid' on a part-paid invoice records the balance, so payments add up to the total", async () => {
    const order = await invoicedOrder();
    await recordPayment(
      order.id,
      { amountCents: 48_000, receivedOn: londonDate(), method: "bank_transfer", reference: null },
      { actor: ADMIN.email, admin: ADMIN },
    );
    expect((await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).ok).toBe(true);
    const rows = await paymentsOfOrder(order.id);
    expect(rows.map((r) => [r.amountCents, r.method, r.reference])).toEqual([
      [48_000, "bank_transfer", null],
      [order.totalAmountCents - 48_000, "other", "Marked paid"],
    ]);
    expect((await orderRow(order.id)).receivedAmountCents).toBe(order.totalAmountCents);
  });
});

describe("refunds paid by bank", () => {
  it("are recorded on a paid invoice order with a credit note against its invoice, up to what was paid", async () => {
    const order = await invoicedOrder();
    expect((await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).ok).toBe(true);
    const first = await bankRefund(order.id, {
      amountCents: "580.00",
      refundedOn: ukDate(londonDate()),
      reference: "REFUND NW",
      note: "One student could not attend",
    });
    expect(first).toMatchObject({ status: 200, body: { ok: true } });
    const [refund] = await db()
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.id));
    expect(refund).toMatchObject({
      stripeRefundId: null,
      method: "bank_transfer",
      amountCents: 58_000,
      status: "succeeded",
      reference: "REFUND NW",
      refundedOn: londonDate(),
    });
    const credit = await db()
      .select()
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, order.id), eq(orderDocuments.kind, "credit_note")));
    expect(credit).toHaveLength(1);
    expect(credit[0]!.totalAmountCents).toBe(58_000);
    expect(refund!.creditNoteId).toBe(credit[0]!.id);
    expect((first.body as { message: string }).message).toContain(credit[0]!.number);
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, order.id), eq(emailOutbox.kind, "order_refund")));
    expect(mail!.text).toContain("We have refunded £580.00 by bank transfer.");
    expect(mail!.text).not.toContain("card");
    expect(mail!.documentId).toBe(credit[0]!.id);
    expect((await orderRow(order.id)).refundedAmountCents).toBe(58_000);

    // More than is left: refused beside the amount, nothing recorded.
    const left = order.totalAmountCents - 58_000;
    const tooMuch = await bankRefund(order.id, {
      amountCents: pounds(left + 1),
      refundedOn: londonDate(),
    });
    expect(tooMuch).toMatchObject({
      status: 400,
      body: { fieldErrors: { amountCents: PAYMENT_MESSAGES.refundTooLarge(left) } },
    });
    // The rest: refunded in full; then nothing more.
    const rest = await bankRefund(order.id, {
      amountCents: pounds(left),
      refundedOn: londonDate(),
    });
    expect(rest.status).toBe(200);
    const again = await bankRefund(order.id, { amountCents: "1", refundedOn: londonDate() });
    expect(again).toMatchObject({ status: 409, body: { message: PAYMENT_MESSAGES.fullyRefunded } });
    expect(await db().select().from(orderRefunds)).toHaveLength(2);
    expect((await orderPage(order.id))!.bankRefundableCents).toBeNull();
  });

  it("on a corrected invoice are credited against the invoice that replaced it", async () => {
    const order = await invoicedOrder();
    const corrected = await correctBilling(
      ADMIN,
      order.id,
      { ...storedBilling(order), poNumber: "PO-CORRECTED-1" },
      { reissue: true },
    );
    expect(corrected.ok).toBe(true);
    expect((await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).ok).toBe(true);
    const answer = await bankRefund(order.id, {
      amountCents: "580.00",
      refundedOn: londonDate(),
    });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    const documents = await db()
      .select()
      .from(orderDocuments)
      .where(eq(orderDocuments.orderId, order.id))
      .orderBy(orderDocuments.issuedAt, orderDocuments.number);
    const [first, second] = documents.filter((d) => d.kind === "invoice");
    const credits = documents.filter((d) => d.kind === "credit_note");
    // The correction's credit note cancels the first invoice in full; the refund's credits the
    // corrected one, for the amount refunded.
    expect(credits.map((c) => [c.creditsDocumentId, c.totalAmountCents])).toEqual([
      [first!.id, first!.totalAmountCents],
      [second!.id, 58_000],
    ]);
    const [refund] = await db()
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.id));
    expect(refund!.creditNoteId).toBe(credits[1]!.id);
  });

  it("on an invoice cancelled after a part payment pay back what it received: on the Dashboard until then", async () => {
    const order = await invoicedOrder();
    const paid = await payment(order.id, { amountCents: "200.00", receivedOn: londonDate() });
    expect(paid.status).toBe(200);
    const cancelled = await changeOrderStatusByAdmin(order.id, "canceled", ADMIN, {
      reason: "Training no longer needed",
    });
    expect(cancelled.ok).toBe(true);

    // Nothing is owed now; the £200 received is owed back.
    expect(await owedBackOnCancelledOrders()).toMatchObject([{ id: order.id, owedCents: 20_000 }]);
    expect((await orderPage(order.id))!.bankRefundableCents).toBe(20_000);
    expect(
      await bankRefund(order.id, { amountCents: "200.01", refundedOn: londonDate() }),
    ).toMatchObject({
      status: 400,
      body: { fieldErrors: { amountCents: PAYMENT_MESSAGES.refundTooLarge(20_000) } },
    });
    const back = await bankRefund(order.id, { amountCents: "200.00", refundedOn: londonDate() });
    expect(back).toMatchObject({ status: 200, body: { ok: true } });

    // The cancellation credited the whole invoice: no second credit note for the money.
    const credits = await db()
      .select()
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, order.id), eq(orderDocuments.kind, "credit_note")));
    expect(credits.map((c) => c.totalAmountCents)).toEqual([order.totalAmountCents]);
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.orderId, order.id), eq(emailOutbox.kind, "order_refund")));
    expect(mail!.text).toContain("We have refunded £200.00 by bank transfer.");
    expect(await owedBackOnCancelledOrders()).toEqual([]);
    expect((await orderPage(order.id))!.bankRefundableCents).toBeNull();

    // A cancelled invoice that received nothing has nothing to pay back.
    const unpaid = await invoicedOrder();
    await changeOrderStatusByAdmin(unpaid.id, "canceled", ADMIN, { reason: "Duplicate" });
    expect(
      await bankRefund(unpaid.id, { amountCents: "1", refundedOn: londonDate() }),
    ).toMatchObject({
      status: 409,
      body: { message: PAYMENT_MESSAGES.notRefundable },
    });
  });

  it("are recorded on a paid card order too, and refused on an unpaid one", async () => {
    const course = await insertCourse({ slug: "card-course" });
    const placed = await placeOrder(course.id, "stripe");
    if (!placed.ok) throw new Error("not placed");
    const unpaid = await bankRefund(placed.order.id, {
      amountCents: "1",
      refundedOn: londonDate(),
    });
    expect(unpaid).toMatchObject({
      status: 409,
      body: { message: PAYMENT_MESSAGES.notRefundable },
    });
    await db()
      .update(orders)
      .set({ status: "paid", paidAt: new Date() })
      .where(eq(orders.id, placed.order.id));
    const fields = { amountCents: "100", refundedOn: londonDate(), method: "cheque" };
    const sameNonce = nonce();
    const answers = [
      await bankRefund(placed.order.id, { ...fields, nonce: sameNonce }),
      await bankRefund(placed.order.id, { ...fields, nonce: sameNonce }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((answers[1]!.body as { message: string }).message).toMatch(/^Already recorded/);
    const docs = await db()
      .select()
      .from(orderDocuments)
      .where(eq(orderDocuments.orderId, placed.order.id));
    // The receipt the credit note refers to, then the credit note: once.
    expect(docs.map((d) => d.kind).sort()).toEqual(["credit_note", "receipt"]);
    expect((await orderRow(placed.order.id)).refundedAmountCents).toBe(10_000);
  });
});
