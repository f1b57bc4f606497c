import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { MOVE_MESSAGES, type MovePriceChoice } from "#app/lib/orders/moves.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import * as orderModule from "#app/routes/admin/order.tsx";
import { placesOf } from "#server/catalogue/course-dates.server.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  courseDates,
  emailOutbox,
  orderPayments,
  orderStudents,
  orders,
  waitingListEntries,
} from "#server/db/schema.ts";
import { joinWaitingList } from "#server/catalogue/waiting-list.server.ts";
import { waitingListSchema } from "#app/lib/catalogue/waiting-list.ts";
import { parse } from "zod/mini";
import { londonDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { recordBankRefund, recordPayment } from "#server/orders/payments.server.ts";
import { revenue } from "#server/orders/revenue.server.ts";
import { pdfText } from "#tests/support/pdf-text.ts";
import { moveOrder } from "#server/orders/moves.server.ts";
import { startCheckout } from "#server/payments/stripe.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { deliver } from "#tests/support/card-payments.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { documents } from "#tests/support/invoices.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import {
  expectCreditNotesToMatchRefunds,
  useFakeStripeForRefunds,
} from "#tests/support/refunds.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Moving an order's places to another date (decision 0038): all of them or some (split into an
 * order of their own), never past the new date's places, a price difference through the
 * documents (re-issued, credited, refunded), the letters and invitations, on both databases.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
useFakeStripeForRefunds(fake);
useFreshDatabase();
const posts = useAdminPosts();
const orderRoute = throughAdminLayout(orderModule);

const DAY = 24 * 60 * 60 * 1000;
let courses = 0;

/** A course at £500 with two dates 30 and 60 days ahead; the second priced `laterPrice`. */
async function twoDates(laterPrice: string | null = null, laterCapacity = 12) {
  const course = await insertCourse({
    title: "Dark Web Investigations",
    slug: `dark-web-${++courses}`,
    price: "500.00",
  });
  const first = await insertCourseDate(course.id, { startsAt: new Date(Date.now() + 30 * DAY) });
  const later = await insertCourseDate(course.id, {
    startsAt: new Date(Date.now() + 60 * DAY),
    price: laterPrice,
    capacity: laterCapacity,
  });
  return { course, first, later };
}

async function booked(courseId: string, dateId: string, quantity: number) {
  const placed = await placeOrder(courseId, "invoice", { quantity }, dateId);
  if (!placed.ok) throw new Error("not booked");
  return placed.order;
}

/** Staff move `places` of the order to the date, at its price unless told to keep it. */
function moveTo(
  orderId: string,
  toDateId: string,
  places: number[],
  price: MovePriceChoice = "date",
) {
  return moveOrder(ADMIN, orderId, { toDateId, places, price });
}

/** An invoice order for `quantity` places on `dateId`, invoiced and marked paid. */
async function paidByInvoice(courseId: string, dateId: string, quantity: number) {
  const order = await booked(courseId, dateId, quantity);
  await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
  await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
  return order;
}

/** A card order for `quantity` places on `dateId`, paid through Stripe's checkout. */
async function paidByCard(course: { id: string; slug: string }, dateId: string, quantity = 1) {
  const created = await placeOrder(course.id, "stripe", { quantity }, dateId);
  if (!created.ok) throw new Error("not booked");
  const started = await startCheckout(created.order, course.slug);
  if (!started.ok) throw new Error("checkout not started");
  await deliver(fake.event("checkout.session.completed", fake.pay(started.sessionId)));
  const paid = await orderRow(created.order.id);
  expect(paid.status).toBe("paid");
  return paid;
}

/** What is owed arrives by bank transfer today: the order's balance afterwards. */
async function payByTransfer(orderId: string, amountCents: number) {
  const payment = await recordPayment(
    orderId,
    { amountCents, receivedOn: londonDate(), method: "bank_transfer", reference: null },
    { actor: ADMIN.email, admin: ADMIN },
  );
  if (!payment.ok) throw new Error(payment.message);
  return payment.balanceCents;
}

async function mailsTo(orderId: string) {
  return db().select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
}

async function studentsOf(orderId: string) {
  return (await db().select().from(orderStudents).where(eq(orderStudents.orderId, orderId)))
    .sort((a, b) => a.position - b.position)
    .map((s) => [s.position, s.firstName]);
}

/** The course's date 60 days ahead (the later one of `twoDates`). */
async function latestDateOf(courseId: string) {
  const dates = await db().select().from(courseDates).where(eq(courseDates.courseId, courseId));
  return dates.sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0]?.id;
}

const movePost = (orderId: string, fields: [string, string][]) =>
  posts(orderRoute, `/admin/payments/${orderId}`, { orderId }, [["intent", "move"], ...fields]);

describe("moving all of an order's places", () => {
  it("moves the order from the order page: timeline, audit, the buyer's letter and each student's invitations", async () => {
    const { course, first, later } = await twoDates();
    const order = await booked(course.id, first.id, 2);
    const answer = await movePost(order.id, [
      ["to_date", later.id],
      ["places", "1"],
      ["places", "2"],
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, orderId: order.id });
    const moved = await orderRow(order.id);
    expect(moved.courseDateId).toBe(later.id);
    expect(moved.totalAmountCents).toBe(order.totalAmountCents);
    expect((await placesOf(db(), [first.id, later.id])).get(later.id)?.taken).toBe(2);

    const mails = await mailsTo(order.id);
    const kinds = (kind: string) => mails.filter((m) => m.kind === kind);
    expect(kinds("order_moved").map((m) => m.toAddress)).toEqual(["ada@example.com"]);
    expect(kinds("order_moved")[0]!.text).toContain("/bookings/");
    // Each student: the old date withdrawn, the new one with its joining details.
    const left = kinds("place_left_date");
    expect(left.map((m) => m.toAddress).sort()).toEqual([
      "student1@example.com",
      "student2@example.com",
    ]);
    expect(String(left[0]!.calendar)).toContain("METHOD:CANCEL");
    const arrived = kinds("place_moved");
    expect(arrived).toHaveLength(2);
    expect(String(arrived[0]!.calendar)).toContain("METHOD:REQUEST");
    expect(arrived[0]!.text).toContain("Please arrive 15 minutes before the start");

    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.move"), eq(auditLog.subjectId, order.id)));
    expect(audit?.actorEmail).toBe(STAFF_EMAIL);
  });

  it("re-issues an unpaid invoice at the new date's price: the old one credited in full", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await booked(course.id, first.id, 2);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const result = await moveTo(order.id, later.id, [1, 2]);
    expect(result.ok).toBe(true);
    const moved = await orderRow(order.id);
    expect(moved.unitPriceCents).toBe(60_000);
    expect(moved.netAmountCents).toBe(120_000);
    const docs = await documents(order.id);
    const credit = docs.find((d) => d.kind === "credit_note")!;
    const invoices = docs.filter((d) => d.kind === "invoice");
    expect(invoices).toHaveLength(2);
    expect(credit.totalAmountCents).toBe(order.totalAmountCents);
    expect(invoices.at(-1)!.totalAmountCents).toBe(moved.totalAmountCents);
    expect(invoices.at(-1)!.replacesDocumentId).toBe(invoices[0]!.id);
    const kinds = (await mailsTo(order.id)).map((m) => m.kind);
    expect(kinds).toEqual(expect.arrayContaining(["order_moved", "invoice_credited"]));
  });

  it("keeps the agreed price when staff choose so: no document", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await booked(course.id, first.id, 2);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const before = (await documents(order.id)).length;
    expect((await moveTo(order.id, later.id, [1, 2], "keep")).ok).toBe(true);
    expect((await orderRow(order.id)).unitPriceCents).toBe(50_000);
    expect(await documents(order.id)).toHaveLength(before);
  });

  it("credits a paid invoice moved to a cheaper date, the credit note on the buyer's letter", async () => {
    const { course, first, later } = await twoDates("400.00");
    const order = await paidByInvoice(course.id, first.id, 1);
    const result = await moveTo(order.id, later.id, [1]);
    expect(result).toMatchObject({ ok: true, refund: { byHand: true, failed: false } });
    const credit = (await documents(order.id)).find((d) => d.kind === "credit_note")!;
    const paid = await orderRow(order.id);
    expect(credit.totalAmountCents).toBe(paid.totalAmountCents - (paid.totalAmountCents * 4) / 5);
    const letter = (await mailsTo(order.id)).find((m) => m.kind === "order_moved")!;
    expect(letter.documentId).toBe(credit.id);
  });

  it("refunds a paid card order moved to a cheaper date through Stripe, its credit note matching", async () => {
    const { course, first, later } = await twoDates("400.00");
    const created = { order: await paidByCard(course, first.id) };

    const result = await moveTo(created.order.id, later.id, [1]);
    expect(result).toMatchObject({ ok: true, refund: { byHand: false, failed: false } });
    const after = await orderRow(created.order.id);
    expect(after.courseDateId).toBe(later.id);
    expect(after.refundedAmountCents).toBe(after.totalAmountCents / 5);
    await expectCreditNotesToMatchRefunds(created.order.id);
  });
});

describe("a paid order moved to a dearer date (decision 0046)", () => {
  it("re-invoices a paid invoice order: credited, re-issued for the new total less what was received, invoiced again until the difference arrives", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await paidByInvoice(course.id, first.id, 1);
    const paidTotal = (await orderRow(order.id)).totalAmountCents;

    const result = await moveTo(order.id, later.id, [1]);
    if (!result.ok) throw new Error(result.message);
    const after = await orderRow(order.id);
    expect([after.status, after.paidAt, after.unitPriceCents, after.courseDateId]).toEqual([
      "invoiced",
      null,
      60_000,
      later.id,
    ]);
    expect(after.receivedAmountCents).toBe(paidTotal);
    const owed = after.totalAmountCents - paidTotal;
    expect(owed).toBe(paidTotal / 5);
    expect(result.owedCents).toBe(owed);

    // Documents come sorted by number: the credit note (CN-…), then the old and new invoice.
    const docs = await documents(order.id);
    expect(docs.map((d) => d.kind)).toEqual(["credit_note", "invoice", "invoice"]);
    const [credit, old, reissued] = docs;
    expect(credit!.totalAmountCents).toBe(paidTotal);
    expect(reissued!.totalAmountCents).toBe(after.totalAmountCents);
    const pdf = await documentPdf(reissued!.id);
    const text = (await pdfText(pdf!.pdf)).replace(/\s+/g, " ");
    expect(text).toContain(`Replaces invoice ${old!.number}`);
    expect(text).toContain(
      `We have received ${formatPence(paidTotal)} of this total. Please pay the balance of ${formatPence(owed)}`,
    );

    const mails = await mailsTo(order.id);
    const letter = mails.find((m) => m.kind === "order_moved")!;
    expect(letter.text).toContain(`${formatPence(owed)} is owed`);
    const invoiceMail = mails.filter((m) => m.kind === "invoice_issued").at(-1)!;
    expect(invoiceMail.text).toContain(`Balance due: ${formatPence(owed)}`);
    const credited = mails.find((m) => m.kind === "invoice_credited")!;
    expect(credited.text).toContain("Moved:");
    expect(credited.text).not.toContain("billing details");

    // The difference arrives: paid again, dated that day, through the ordinary transition.
    expect(await payByTransfer(order.id, owed)).toBe(0);
    const settled = await orderRow(order.id);
    expect(settled.status).toBe("paid");
    expect(settled.paidAt).not.toBeNull();
  });

  it("turns a paid card order into an invoice order owing the difference: its checkout payment in the ledger, its receipt credited", async () => {
    const { course, first, later } = await twoDates("600.00");
    const paid = await paidByCard(course, first.id);

    const result = await moveTo(paid.id, later.id, [1]);
    if (!result.ok) throw new Error(result.message);
    const after = await orderRow(paid.id);
    expect([after.paymentMethod, after.status, after.receivedAmountCents]).toEqual([
      "invoice",
      "invoiced",
      paid.totalAmountCents,
    ]);
    const ledger = await db()
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, paid.id));
    expect(ledger.map((p) => [p.amountCents, p.method, p.reference])).toEqual([
      [paid.totalAmountCents, "card", paid.stripePaymentIntentId],
    ]);
    const docs = await documents(paid.id);
    expect(docs.map((d) => d.kind)).toEqual(["credit_note", "receipt", "invoice"]);
    const text = (await pdfText((await documentPdf(docs[2]!.id))!.pdf)).replace(/\s+/g, " ");
    expect(text).toContain(`Replaces receipt ${docs[1]!.number}`);
    expect(result.owedCents).toBe(after.totalAmountCents - paid.totalAmountCents);
    // Staff take the rest as an invoice's payment; the order is paid again.
    expect(await payByTransfer(paid.id, result.owedCents!)).toBe(0);
    expect((await orderRow(paid.id)).status).toBe("paid");
    // A refund of the checkout payment made in Stripe's dashboard is matched and credited.
    const refund = await fake.refundInDashboard(paid.stripePaymentIntentId!, { amount: 5_000 });
    expect(await deliver(fake.event("refund.created", refund))).toMatchObject({ status: 200 });
    expect((await orderRow(paid.id)).refundedAmountCents).toBe(5_000);
  });

  it("keeps the price paid when staff choose it: nothing re-issued, still paid", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await paidByInvoice(course.id, first.id, 1);
    const before = (await documents(order.id)).length;
    const result = await moveTo(order.id, later.id, [1], "keep");
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.owedCents).toBeFalsy();
    const after = await orderRow(order.id);
    expect([after.status, after.unitPriceCents]).toEqual(["paid", 50_000]);
    expect(await documents(order.id)).toHaveLength(before);
  });
});

/** An order's ledger: [amount, method, reference], oldest first, and that it adds up. */
async function ledgerOf(orderId: string) {
  const rows = await db()
    .select()
    .from(orderPayments)
    .where(eq(orderPayments.orderId, orderId))
    .orderBy(orderPayments.createdAt);
  const sum = rows.reduce((total, row) => total + row.amountCents, 0);
  expect((await orderRow(orderId)).receivedAmountCents).toBe(sum);
  return rows.map((r) => [r.amountCents, r.method, r.reference]);
}

describe("places split off a paid order (decision 0046)", () => {
  it("take what was paid for them: both orders paid, the money moved by a pair of ledger rows, revenue unchanged", async () => {
    const { course, first, later } = await twoDates();
    const order = await paidByInvoice(course.id, first.id, 3);
    const paid = await orderRow(order.id);
    const revenueBefore = await revenue();

    const result = await moveTo(order.id, later.id, [2]);
    if (!result.ok) throw new Error(result.message);
    expect(result.split).toBe(true);
    expect(result.owedCents).toBeUndefined();
    const kept = await orderRow(order.id);
    const split = await orderRow(result.orderId);
    const moved = paid.totalAmountCents - kept.totalAmountCents;
    expect([kept.status, kept.quantity, kept.receivedAmountCents]).toEqual([
      "paid",
      2,
      kept.totalAmountCents,
    ]);
    expect([split.status, split.paymentMethod, split.receivedAmountCents, split.quantity]).toEqual([
      "paid",
      "invoice",
      split.totalAmountCents,
      1,
    ]);
    expect(split.totalAmountCents).toBe(moved);
    expect(split.paidAt).toEqual(paid.paidAt);
    expect(await ledgerOf(order.id)).toEqual([
      [paid.totalAmountCents, "other", "Marked paid"],
      [-moved, "transfer", `To ${orderReference(split.id)}`],
    ]);
    expect(await ledgerOf(split.id)).toEqual([
      [moved, "transfer", `From ${orderReference(order.id)}`],
    ]);
    // The same money, now on two orders.
    expect(await revenue()).toEqual({ ...revenueBefore, orderCount: 2 });

    // The kept places' invoice re-issued paid in full; the moved places' own, paid in full.
    const keptDocs = await documents(order.id);
    expect(keptDocs.map((d) => [d.kind, d.totalAmountCents])).toEqual([
      ["credit_note", paid.totalAmountCents],
      ["invoice", paid.totalAmountCents],
      ["invoice", kept.totalAmountCents],
    ]);
    const [own] = await documents(split.id);
    const text = (await pdfText((await documentPdf(own!.id))!.pdf)).replace(/\s+/g, " ");
    expect(text).toContain("this invoice is paid in full and nothing more is due");
    expect(text).toContain(`Received ${formatPence(moved)} Balance due (GBP) £0.00`);
    const letter = (await mailsTo(split.id)).find((m) => m.kind === "order_moved")!;
    expect(letter.text).toContain(`What you paid for these places, ${formatPence(moved)}`);
    expect(letter.text).toContain("nothing more is due");
    const ownMail = (await mailsTo(split.id)).find((m) => m.kind === "invoice_issued")!;
    expect(ownMail.text).toContain("paid in full");
    expect(ownMail.text).not.toContain("How to pay");
  });

  it("of a card order, to a dearer date: the card payment in the ledger, the new order owing the difference", async () => {
    const { course, first, later } = await twoDates("600.00");
    const paid = await paidByCard(course, first.id, 2);

    const result = await moveTo(paid.id, later.id, [1]);
    if (!result.ok) throw new Error(result.message);
    const kept = await orderRow(paid.id);
    const split = await orderRow(result.orderId);
    const moved = paid.totalAmountCents - kept.totalAmountCents;
    expect([kept.paymentMethod, kept.status, kept.receivedAmountCents]).toEqual([
      "invoice",
      "paid",
      kept.totalAmountCents,
    ]);
    expect(await ledgerOf(paid.id)).toEqual([
      [paid.totalAmountCents, "card", paid.stripePaymentIntentId],
      [-moved, "transfer", `To ${orderReference(split.id)}`],
    ]);
    expect([split.status, split.paidAt, split.receivedAmountCents]).toEqual([
      "invoiced",
      null,
      moved,
    ]);
    const owed = split.totalAmountCents - moved;
    expect(owed).toBe(moved / 5);
    expect(result.owedCents).toBe(owed);
    expect((await documents(paid.id)).map((d) => d.kind)).toEqual([
      "credit_note",
      "receipt",
      "invoice",
    ]);
    const [own] = await documents(split.id);
    const text = (await pdfText((await documentPdf(own!.id))!.pdf)).replace(/\s+/g, " ");
    expect(text).toContain(
      `We have received ${formatPence(moved)} of this total. Please pay the balance of ${formatPence(owed)}`,
    );
    // The difference arrives: the new order is paid.
    expect(await payByTransfer(split.id, owed)).toBe(0);
    expect((await orderRow(split.id)).status).toBe("paid");
  });

  it("of an invoice part paid: money beyond the kept places moves too, and pays the order that keeps them", async () => {
    const { course, first, later } = await twoDates();
    const order = await booked(course.id, first.id, 3);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const placeTotal = (await orderRow(order.id)).totalAmountCents / 3;
    // Two places and £100 of the third have arrived.
    await payByTransfer(order.id, 2 * placeTotal + 10_000);
    const result = await moveTo(order.id, later.id, [3]);
    if (!result.ok) throw new Error(result.message);
    const kept = await orderRow(order.id);
    const split = await orderRow(result.orderId);
    expect([kept.status, kept.receivedAmountCents]).toEqual(["paid", 2 * placeTotal]);
    expect([split.status, split.receivedAmountCents]).toEqual(["invoiced", 10_000]);
    expect(await ledgerOf(split.id)).toEqual([
      [10_000, "transfer", `From ${orderReference(order.id)}`],
    ]);
    expect((await mailsTo(order.id)).map((m) => m.kind)).toContain("order_receipt");
  });
});

describe("moving some of an order's places", () => {
  it("splits them into an order of their own on the new date, invoices re-issued for both", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await booked(course.id, first.id, 3);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const result = await moveTo(order.id, later.id, [2]);
    if (!result.ok) throw new Error(result.message);
    expect(result.split).toBe(true);
    const kept = await orderRow(order.id);
    const split = await orderRow(result.orderId);
    expect([kept.quantity, kept.unitPriceCents, kept.courseDateId]).toEqual([2, 50_000, first.id]);
    expect([split.quantity, split.unitPriceCents, split.courseDateId, split.status]).toEqual([
      1,
      60_000,
      later.id,
      "invoiced",
    ]);
    expect(split.buyerEmail).toBe(kept.buyerEmail);
    expect(await studentsOf(order.id)).toEqual([
      [0, "Student1"],
      [1, "Student3"],
    ]);
    expect(await studentsOf(split.id)).toEqual([[0, "Student2"]]);
    const keptDocs = await documents(order.id);
    expect(keptDocs.map((d) => d.kind)).toEqual(["credit_note", "invoice", "invoice"]);
    expect(keptDocs[2]!.totalAmountCents).toBe(kept.totalAmountCents);
    const splitDocs = await documents(split.id);
    expect(splitDocs.map((d) => [d.kind, d.totalAmountCents])).toEqual([
      ["invoice", split.totalAmountCents],
    ]);
    // Only the moved student hears about the dates.
    const studentMails = (await mailsTo(order.id))
      .concat(await mailsTo(split.id))
      .filter((m) => m.kind === "place_left_date" || m.kind === "place_moved");
    expect(studentMails.map((m) => m.toAddress)).toEqual([
      "student2@example.com",
      "student2@example.com",
    ]);
    const letter = (await mailsTo(split.id)).find((m) => m.kind === "order_moved")!;
    expect(letter.text).toContain(orderReference(order.id));
  });

  it("refuses what it must and changes nothing", async () => {
    const { course, first, later } = await twoDates("600.00", 2);
    const order = await booked(course.id, first.id, 3);
    const before = await orderRow(order.id);
    const move = (places: number[], toDateId = later.id) =>
      moveOrder(ADMIN, order.id, { toDateId, places, price: "date" });
    expect(await move([1, 2, 3])).toMatchObject({ ok: false, message: MOVE_MESSAGES.noRoom(2, 3) });
    expect(await move([4])).toMatchObject({ ok: false, message: MOVE_MESSAGES.noSuchPlace });
    expect(await move([1], first.id)).toMatchObject({ ok: false, message: MOVE_MESSAGES.sameDate });
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
    // Places split off a paid order take what was paid for them: never to a cheaper price.
    const cheaper = await insertCourseDate(course.id, {
      startsAt: new Date(Date.now() + 45 * DAY),
      price: "400.00",
    });
    expect(await move([1], cheaper.id)).toMatchObject({
      ok: false,
      message: MOVE_MESSAGES.paidSplitCheaper,
    });
    // A paid order partly refunded is not charged more by a move (decision 0046).
    const small = await paidByInvoice(course.id, first.id, 1);
    const refunded = await recordBankRefund(
      small.id,
      {
        amountCents: 1_000,
        refundedOn: londonDate(),
        method: "bank_transfer",
        reference: null,
        note: null,
        nonce: "partly-refunded",
      },
      ADMIN,
    );
    expect(refunded.ok).toBe(true);
    const smallBefore = await orderRow(small.id);
    expect(await moveTo(small.id, later.id, [1])).toMatchObject({
      ok: false,
      message: MOVE_MESSAGES.paidRefunded,
    });
    expect(await orderRow(small.id)).toEqual(smallBefore);
    const after = await orderRow(order.id);
    expect([after.courseDateId, after.quantity]).toEqual([before.courseDateId, before.quantity]);
    expect(await mailsTo(order.id).then((m) => m.filter((x) => x.kind === "order_moved"))).toEqual(
      [],
    );
  });

  it("offers the places it frees to the people waiting for the old date", async () => {
    const { course } = await twoDates();
    const full = await insertCourseDate(course.id, {
      startsAt: new Date(Date.now() + 20 * DAY),
      capacity: 2,
    });
    const later = (await latestDateOf(course.id))!;
    const order = await booked(course.id, full.id, 2);
    const input = parse(waitingListSchema, {
      courseDateId: full.id,
      first_name: "Wendy",
      last_name: "Waiting",
      email: "wendy@example.com",
      organisation: "",
      places: "1",
      consent: "on",
    });
    expect((await joinWaitingList(course.slug, full.id, input, null)).ok).toBe(true);
    expect((await moveTo(order.id, later, [1, 2])).ok).toBe(true);
    const [entry] = await db()
      .select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.courseDateId, full.id));
    expect(entry?.state).toBe("offered");
  });

  it("never fills a date past its places when moves race", async () => {
    const { course, first, later } = await twoDates(null, 3);
    const a = await booked(course.id, first.id, 2);
    const b = await booked(course.id, first.id, 2);
    const results = await Promise.all([a, b].map((o) => moveTo(o.id, later.id, [1, 2])));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await placesOf(db(), [later.id])).get(later.id)?.taken).toBe(2);
    const onLater = await db().select().from(orders).where(eq(orders.courseDateId, later.id));
    expect(onLater).toHaveLength(1);
  });
});
