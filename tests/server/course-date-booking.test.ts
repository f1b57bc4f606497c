import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  DATE_MESSAGES,
  notEnoughPlaces,
  formatDateRange,
  formatUkDateTime,
} from "#app/lib/catalogue/course-dates.ts";
import { listUpcomingDates } from "#server/catalogue/course-dates.server.ts";
import { courseDates, courses, emailOutbox, orderEvents, orders } from "#server/db/schema.ts";
import { DEMO_NOTE } from "#server/db/demo-bookings.server.ts";
import { seedDemoContent } from "#server/db/seed.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { loadCheckout, submitCheckout } from "#server/payments/checkout.server.ts";
import { releaseLapsedHolds } from "#server/payments/lapsed-holds.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import {
  ADMIN,
  checkoutForm,
  datedBookingFields,
  insertCourse,
  orderRow,
} from "#tests/support/orders.ts";

/**
 * Booking dated places (decision 0033): the checkout takes places under a lock on the date, so the
 * last places go to exactly as many buyers as there are places, whatever the mix of invoice
 * requests and card checkouts; cancelled, failed and fully refunded orders give them back. Card
 * checkouts run against a fake Stripe API on loopback (the real `stripe` SDK pointed at it).
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);

afterAll(() => fake.close());

const database = useFreshDatabase();

/** Buyer `n` books `places` of a date, by invoice or card, from a client of their own. */
function book(slug: string, dateId: string, n: number, intent: "invoice" | "card", places = 1) {
  return submitCheckout(
    slug,
    checkoutForm({
      intent,
      ...datedBookingFields(n, dateId, places),
    }),
    `client-${n}`,
  );
}

async function datedOrders(dateId: string) {
  return database()
    .db.select({ id: orders.id, quantity: orders.quantity, status: orders.status })
    .from(orders)
    .where(and(isNotNull(orders.courseDateId), eq(orders.courseDateId, dateId)));
}

async function placesLeft(courseId: string, price: string | null, dateId: string) {
  const dates = await listUpcomingDates(courseId, price);
  return dates.find((d) => d.id === dateId)!.placesLeft;
}

describe("booking a dated place", () => {
  it("30 concurrent buyers (invoice and card) for the last 3 places: exactly 3 are booked", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 12 });
    // Nine places already sold.
    expect((await book(course.slug, date.id, 100, "invoice", 9)).kind).toBe("invoice");
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        book(course.slug, date.id, n, n % 2 ? "card" : "invoice"),
      ),
    );
    const placed = outcomes.filter((o) => o.kind === "invoice" || o.kind === "card");
    const refused = outcomes.filter((o) => o.kind === "problem");
    expect(placed).toHaveLength(3);
    expect(refused).toHaveLength(27);
    for (const outcome of refused) {
      expect(outcome).toMatchObject({ status: 409, message: DATE_MESSAGES.full });
    }
    const rows = await datedOrders(date.id);
    expect(rows.reduce((sum, r) => sum + r.quantity, 0)).toBe(12);
    expect(rows).toHaveLength(4);
    // Nothing else was stored: no order without its date, none for the refused buyers.
    const [all] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(orders);
    expect(Number(all!.n)).toBe(4);
    expect(await placesLeft(course.id, course.price, date.id)).toBe(0);
  });

  it("a group booking larger than the places left is refused whole; fewer fit", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 3 });
    const tooMany = await book(course.slug, date.id, 1, "invoice", 4);
    expect(tooMany).toMatchObject({ kind: "problem", status: 409, message: notEnoughPlaces(3) });
    expect(notEnoughPlaces(3).description).toContain("only 3 places are left");
    expect(await datedOrders(date.id)).toHaveLength(0);
    expect((await book(course.slug, date.id, 2, "invoice", 3)).kind).toBe("invoice");
    expect(await placesLeft(course.id, course.price, date.id)).toBe(0);
  });

  it("cancelled, failed (an expired card checkout) and fully refunded orders give their places back", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 3 });
    const invoice = await book(course.slug, date.id, 1, "invoice");
    const card = await book(course.slug, date.id, 2, "card");
    const paid = await book(course.slug, date.id, 3, "invoice");
    if (invoice.kind !== "invoice" || card.kind !== "card" || paid.kind !== "invoice") {
      throw new Error("the three bookings should have been placed");
    }
    expect(await placesLeft(course.id, course.price, date.id)).toBe(0);
    expect((await book(course.slug, date.id, 4, "invoice")).kind).toBe("problem");

    // A pending card checkout holds its place until Stripe says its session expired.
    expect((await transitionOrder(card.orderId, "failed", { source: "webhook" })).kind).toBe(
      "transitioned",
    );
    expect(await placesLeft(course.id, course.price, date.id)).toBe(1);

    expect((await changeOrderStatusByAdmin(invoice.orderId, "canceled", ADMIN)).ok).toBe(true);
    expect(await placesLeft(course.id, course.price, date.id)).toBe(2);

    // Refunded in full: the order stays paid, its place is free again.
    await changeOrderStatusByAdmin(paid.orderId, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(paid.orderId, "paid", ADMIN);
    const row = await orderRow(paid.orderId);
    await database()
      .db.update(orders)
      .set({ refundedAmountCents: row.totalAmountCents })
      .where(eq(orders.id, paid.orderId));
    expect(await placesLeft(course.id, course.price, date.id)).toBe(3);
    expect((await book(course.slug, date.id, 5, "invoice", 3)).kind).toBe("invoice");
  });

  it("a card checkout whose expiry webhook never came is failed by housekeeping, its place freed", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 2 });
    const fresh = await book(course.slug, date.id, 1, "card");
    const lapsed = await book(course.slug, date.id, 2, "card");
    if (fresh.kind !== "card" || lapsed.kind !== "card") throw new Error("should be placed");
    await database()
      .db.update(orders)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(orders.id, lapsed.orderId));
    expect(await releaseLapsedHolds()).toBe(1);
    expect((await orderRow(lapsed.orderId)).status).toBe("failed");
    expect((await orderRow(fresh.orderId)).status).toBe("pending");
    const session = fake.sessions.get((await orderRow(lapsed.orderId)).stripeCheckoutSessionId!);
    expect(session?.status).toBe("expired");
    expect(await placesLeft(course.id, course.price, date.id)).toBe(1);
    // A session the buyer paid is never failed here: the payment is recorded, not lost.
    const paidLate = await book(course.slug, date.id, 3, "card");
    if (paidLate.kind !== "card") throw new Error("should be placed");
    const paidRow = await orderRow(paidLate.orderId);
    fake.pay(paidRow.stripeCheckoutSessionId!);
    await database()
      .db.update(orders)
      .set({ createdAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(orders.id, paidLate.orderId));
    await releaseLapsedHolds();
    expect((await orderRow(paidLate.orderId)).status).not.toBe("failed");
  });

  it("a date's own price is charged; a closed, cancelled, past or another course's date is not sold", async () => {
    const course = await insertCourse({ price: "1450.00" });
    const cheaper = await insertCourseDate(course.id, { price: "995.00" });
    const placed = await book(course.slug, cheaper.id, 1, "invoice", 2);
    if (placed.kind !== "invoice") throw new Error("should be placed");
    expect(await orderRow(placed.orderId)).toMatchObject({
      courseDateId: cheaper.id,
      unitPriceCents: 99500,
      quantity: 2,
      totalAmountCents: 199000,
    });

    const startsAt = new Date(Date.now() + 10 * 24 * 3600_000);
    const closed = await insertCourseDate(course.id, {
      startsAt,
      bookingClosesAt: new Date(Date.now() - 60_000),
    });
    expect(await book(course.slug, closed.id, 2, "invoice")).toMatchObject({
      kind: "problem",
      message: DATE_MESSAGES.closed,
    });
    const cancelled = await insertCourseDate(course.id, { state: "cancelled" });
    const other = await insertCourse({ slug: "other-course", title: "Another course" });
    const othersDate = await insertCourseDate(other.id);
    for (const dateId of [cancelled.id, othersDate.id, "not-a-uuid"]) {
      expect((await book(course.slug, dateId, 3, "invoice")).kind).toBe("problem");
      expect(await loadCheckout(course.slug, dateId)).toEqual({
        kind: "choose_date",
        slug: course.slug,
      });
    }
    expect(await datedOrders(cancelled.id)).toHaveLength(0);
    expect(await datedOrders(othersDate.id)).toHaveLength(0);
  });

  it("a course with dates to come is booked by date only; the checkout names the date", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, {
      format: "online",
      venueName: null,
      venueTown: null,
      venueAddress: null,
      joiningDetails: "https://meet.example.com/secret-room",
    });
    expect(await loadCheckout(course.slug)).toEqual({ kind: "choose_date", slug: course.slug });
    const undated = await submitCheckout(
      course.slug,
      checkoutForm({
        intent: "invoice",
        firstName: "A",
        lastName: "B",
        email: "a@example.com",
        studentMode: "self",
      }),
      "c",
    );
    expect(undated).toMatchObject({ kind: "problem", status: 409 });
    const checkout = await loadCheckout(course.slug, date.id);
    expect(checkout).toMatchObject({
      kind: "checkout",
      course: { slug: course.slug, date: { id: date.id, format: "online", placesLeft: 12 } },
    });
    // Joining details are for booked people only: never on a public page's data.
    expect(JSON.stringify(checkout)).not.toContain("secret-room");
    expect(JSON.stringify(await listUpcomingDates(course.id, course.price))).not.toContain(
      "secret-room",
    );
  });

  it("the confirmation names the date, the venue and the last moment for a full refund; students get how to join", async () => {
    const course = await insertCourse();
    const classroom = await insertCourseDate(course.id);
    const placed = await book(course.slug, classroom.id, 1, "invoice");
    if (placed.kind !== "invoice") throw new Error("should be placed");
    const [confirmation] = await database()
      .db.select({ text: emailOutbox.text, html: emailOutbox.html })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.orderId, placed.orderId),
          eq(emailOutbox.kind, "invoice_request_confirmation"),
        ),
      );
    const when = formatDateRange(classroom.startsAt, classroom.endsAt);
    const refundBy = formatUkDateTime(new Date(classroom.startsAt.getTime() - 14 * 24 * 3600_000));
    expect(confirmation!.text).toContain(`Date: ${when}`);
    expect(confirmation!.text).toContain(
      "Where: Training Suite, 1 Example Street, London EC1A 1AA",
    );
    expect(confirmation!.text).toContain(`Full refund if cancelled before: ${refundBy}`);

    const online = await insertCourseDate(course.id, {
      format: "online",
      venueName: null,
      venueTown: null,
      venueAddress: null,
      joiningDetails: "Teams: https://meet.example.com/room-42",
    });
    const onlineOrder = await book(course.slug, online.id, 7, "invoice", 2);
    if (onlineOrder.kind !== "invoice") throw new Error("should be placed");
    await changeOrderStatusByAdmin(onlineOrder.orderId, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(onlineOrder.orderId, "paid", ADMIN);
    const mails = await database()
      .db.select({ kind: emailOutbox.kind, to: emailOutbox.toAddress, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, onlineOrder.orderId));
    const joining = mails.filter((m) => m.kind === "course_joining_details");
    expect(joining.map((m) => m.to).sort()).toEqual([
      "student7-0@example.com",
      "student7-1@example.com",
    ]);
    for (const mail of joining) {
      expect(mail.text).toContain(`Date: ${formatDateRange(online.startsAt, online.endsAt)}`);
      expect(mail.text).toContain("How to join: Teams: https://meet.example.com/room-42");
    }
    // The buyer's letters name the session but not its joining details (those go to students).
    for (const mail of mails.filter((m) => m.kind !== "course_joining_details")) {
      expect(mail.text).not.toContain("room-42");
    }
  });

  it("the demo content has dates to come: classroom days in UK time and live online sessions", async () => {
    expect(await seedDemoContent(database().db)).toEqual({ seeded: true });
    const rows = await database()
      .db.select({ slug: courses.slug, date: courseDates })
      .from(courseDates)
      .innerJoin(courses, eq(courses.id, courseDates.courseId));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((r) => r.date.format))).toEqual(new Set(["classroom", "online"]));
    for (const { date } of rows) {
      expect(date.startsAt.getTime()).toBeGreaterThan(Date.now());
      // A classroom day starts at 09:30 in London, GMT or BST.
      if (date.format === "classroom") {
        expect(formatDateRange(date.startsAt, date.endsAt)).toMatch(/, 09:30–16:30 (GMT|BST)$/);
      }
    }
    const ransomware = rows.find((r) => r.slug === "ransomware-response-planning")!;
    const [course] = await database()
      .db.select()
      .from(courses)
      .where(eq(courses.slug, "ransomware-response-planning"));
    const dates = await listUpcomingDates(course!.id, course!.price);
    expect(dates.map((d) => d.town)).toEqual(["London", "Manchester"]);
    // London is nearly full (two demo bookings of 6 and 4 places), Manchester has all 12.
    expect(dates.map((d) => [d.placesLeft, d.bookable])).toEqual([
      [2, true],
      [12, true],
    ]);
    expect(ransomware.date.venueName).not.toBeNull();
    // The online session of security awareness is fully booked, so it has a waiting list.
    const [awareness] = await database()
      .db.select()
      .from(courses)
      .where(eq(courses.slug, "security-awareness-for-financial-services"));
    const [full] = await listUpcomingDates(awareness!.id, awareness!.price);
    expect(full).toMatchObject({ placesLeft: 0, bookable: false });
    // The demo bookings are invoice requests not yet invoiced, on reserved addresses, noted as
    // demo content, and queued no e-mail.
    const demo = await database().db.select().from(orders);
    expect(demo).toHaveLength(4);
    for (const order of demo) {
      expect(order).toMatchObject({ status: "pending", paymentMethod: "invoice" });
      expect(order.buyerEmail).toMatch(/\.example\.com$/);
    }
    expect(demo.reduce((sum, o) => sum + o.quantity, 0)).toBe(22);
    expect(await database().db.select().from(emailOutbox)).toHaveLength(0);
    const notes = await database()
      .db.select()
      .from(orderEvents)
      .where(eq(orderEvents.kind, "note"));
    expect(notes.map((n) => n.detail?.text)).toEqual(Array(4).fill(DEMO_NOTE));
  });
});
