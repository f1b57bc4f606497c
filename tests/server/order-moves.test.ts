import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { MOVE_MESSAGES } from "#app/lib/orders/moves.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import * as orderModule from "#app/routes/admin/order.tsx";
import { placesOf } from "#server/catalogue/course-dates.server.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  courseDates,
  emailOutbox,
  orderStudents,
  orders,
  waitingListEntries,
} from "#server/db/schema.ts";
import { joinWaitingList } from "#server/catalogue/waiting-list.server.ts";
import { waitingListSchema } from "#app/lib/catalogue/waiting-list.ts";
import { parse } from "zod/mini";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
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
    const result = await moveOrder(ADMIN, order.id, {
      toDateId: later.id,
      places: [1, 2],
      price: "date",
    });
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
    expect(
      (await moveOrder(ADMIN, order.id, { toDateId: later.id, places: [1, 2], price: "keep" })).ok,
    ).toBe(true);
    expect((await orderRow(order.id)).unitPriceCents).toBe(50_000);
    expect(await documents(order.id)).toHaveLength(before);
  });

  it("credits a paid invoice moved to a cheaper date, the credit note on the buyer's letter", async () => {
    const { course, first, later } = await twoDates("400.00");
    const order = await booked(course.id, first.id, 1);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
    const result = await moveOrder(ADMIN, order.id, {
      toDateId: later.id,
      places: [1],
      price: "date",
    });
    expect(result).toMatchObject({ ok: true, refund: { byHand: true, failed: false } });
    const credit = (await documents(order.id)).find((d) => d.kind === "credit_note")!;
    const paid = await orderRow(order.id);
    expect(credit.totalAmountCents).toBe(paid.totalAmountCents - (paid.totalAmountCents * 4) / 5);
    const letter = (await mailsTo(order.id)).find((m) => m.kind === "order_moved")!;
    expect(letter.documentId).toBe(credit.id);
  });

  it("refunds a paid card order moved to a cheaper date through Stripe, its credit note matching", async () => {
    const { course, first, later } = await twoDates("400.00");
    const created = await placeOrder(course.id, "stripe", {}, first.id);
    if (!created.ok) throw new Error("not booked");
    const started = await startCheckout(created.order, course.slug);
    if (!started.ok) throw new Error("checkout not started");
    const session = fake.pay(started.sessionId);
    await deliver(fake.event("checkout.session.completed", session));
    expect((await orderRow(created.order.id)).status).toBe("paid");

    const result = await moveOrder(ADMIN, created.order.id, {
      toDateId: later.id,
      places: [1],
      price: "date",
    });
    expect(result).toMatchObject({ ok: true, refund: { byHand: false, failed: false } });
    const after = await orderRow(created.order.id);
    expect(after.courseDateId).toBe(later.id);
    expect(after.refundedAmountCents).toBe(after.totalAmountCents / 5);
    await expectCreditNotesToMatchRefunds(created.order.id);
  });
});

describe("moving some of an order's places", () => {
  it("splits them into an order of their own on the new date, invoices re-issued for both", async () => {
    const { course, first, later } = await twoDates("600.00");
    const order = await booked(course.id, first.id, 3);
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const result = await moveOrder(ADMIN, order.id, {
      toDateId: later.id,
      places: [2],
      price: "date",
    });
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
    expect(await move([1])).toMatchObject({ ok: false, message: MOVE_MESSAGES.paidSplit });
    const small = await booked(course.id, first.id, 1);
    await changeOrderStatusByAdmin(small.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(small.id, "paid", ADMIN);
    expect(
      await moveOrder(ADMIN, small.id, { toDateId: later.id, places: [1], price: "date" }),
    ).toMatchObject({ ok: false, message: MOVE_MESSAGES.paidDearer(10_000) });
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
    expect(
      (await moveOrder(ADMIN, order.id, { toDateId: later, places: [1, 2], price: "date" })).ok,
    ).toBe(true);
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
    const results = await Promise.all(
      [a, b].map((o) =>
        moveOrder(ADMIN, o.id, { toDateId: later.id, places: [1, 2], price: "date" }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await placesOf(db(), [later.id])).get(later.id)?.taken).toBe(2);
    const onLater = await db().select().from(orders).where(eq(orders.courseDateId, later.id));
    expect(onLater).toHaveLength(1);
  });
});
