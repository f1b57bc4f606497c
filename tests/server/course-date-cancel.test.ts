import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { courseDateFormSchema, toUkWallTime } from "#app/lib/catalogue/course-date-form.ts";
import { parseForm } from "#app/lib/forms.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { cancelCourseDate, updateCourseDate } from "#server/catalogue/course-date-admin.server.ts";
import { listUpcomingDates } from "#server/catalogue/course-dates.server.ts";
import { courseDates, emailOutbox, orderEvents, orders } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { verifyCheckoutReturn } from "#server/payments/stripe.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, checkoutForm, formData, insertCourse, orderRow } from "#tests/support/orders.ts";

/**
 * Cancelling a date that has bookings (decision 0033): staff move them to another date of the
 * course with room, in one transaction with the cancellation, or cancel them with the order
 * machinery (unpaid orders cancelled, card payments refunded through the fake Stripe API on
 * loopback, paid invoices listed for a refund by hand). A date with bookings and no choice, or a
 * move to a date without room, changes nothing.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);

afterAll(() => fake.close());

const database = useFreshDatabase();

async function book(slug: string, dateId: string, n: number, intent: "invoice" | "card") {
  const outcome = await submitCheckout(
    slug,
    checkoutForm({
      intent,
      firstName: "Buyer",
      lastName: `Number${n}`,
      email: `buyer${n}@example.com`,
      studentMode: "self",
      courseDateId: dateId,
    }),
    `client-${n}`,
  );
  if (outcome.kind !== "invoice" && outcome.kind !== "card") throw new Error("not booked");
  return outcome.orderId;
}

async function dateState(id: string) {
  const [row] = await database()
    .db.select({ state: courseDates.state, sequence: courseDates.sequence })
    .from(courseDates)
    .where(eq(courseDates.id, id));
  return row!;
}

describe("cancelling a date with bookings", () => {
  it("without a choice, or moving to a date without room, nothing changes", async () => {
    const course = await insertCourse();
    const from = await insertCourseDate(course.id, { capacity: 5 });
    const small = await insertCourseDate(course.id, {
      capacity: 1,
      startsAt: new Date(Date.now() + 40 * 24 * 3600_000),
    });
    await book(course.slug, from.id, 1, "invoice");
    await book(course.slug, from.id, 2, "invoice");

    const refused = await cancelCourseDate(ADMIN, from.id);
    expect(refused).toMatchObject({ ok: false, status: 409 });
    const tooSmall = await cancelCourseDate(ADMIN, from.id, { kind: "move", toDateId: small.id });
    expect(tooSmall).toMatchObject({ ok: false, status: 409 });
    if (!tooSmall.ok) expect(tooSmall.message).toContain("1 places free; the bookings need 2");
    expect(await dateState(from.id)).toEqual({ state: "scheduled", sequence: 0 });
    const still = await database()
      .db.select({ id: orders.id })
      .from(orders)
      .where(eq(orders.courseDateId, from.id));
    expect(still).toHaveLength(2);
  });

  it("moving: every booking goes to the other date, each buyer is told, the timeline says so", async () => {
    const course = await insertCourse();
    const from = await insertCourseDate(course.id, { capacity: 5 });
    const to = await insertCourseDate(course.id, {
      capacity: 4,
      startsAt: new Date(Date.now() + 40 * 24 * 3600_000),
    });
    const a = await book(course.slug, from.id, 1, "invoice");
    const b = await book(course.slug, from.id, 2, "card");

    const result = await cancelCourseDate(ADMIN, from.id, { kind: "move", toDateId: to.id });
    expect(result).toMatchObject({ ok: true, moved: 2, bookings: null });
    expect(await dateState(from.id)).toEqual({ state: "cancelled", sequence: 1 });
    for (const id of [a, b]) {
      expect((await orderRow(id)).courseDateId).toBe(to.id);
      const events = await database()
        .db.select({ kind: orderEvents.kind })
        .from(orderEvents)
        .where(and(eq(orderEvents.orderId, id), eq(orderEvents.kind, "moved")));
      expect(events).toHaveLength(1);
      const told = await database()
        .db.select({ to: emailOutbox.toAddress, text: emailOutbox.text })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.orderId, id), eq(emailOutbox.kind, "booking_moved")));
      expect(told).toHaveLength(1);
      expect(told[0]!.text).toContain(orderReference(id));
    }
    // The invoice buyer (their own student) gets the old date's cancellation and the new date's
    // invitation for their calendar; the open card checkout's buyer is not booked yet.
    const letters = await database()
      .db.select({ kind: emailOutbox.kind, calendar: emailOutbox.calendar })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, "buyer1@example.com"));
    const byKind = new Map(letters.map((l) => [l.kind, l.calendar]));
    expect(byKind.get("course_date_cancelled")).toContain("METHOD:CANCEL");
    expect(byKind.get("course_date_cancelled")).toContain(`UID:${from.id}-`);
    expect(byKind.get("course_date_updated")).toContain("METHOD:REQUEST");
    expect(byKind.get("course_date_updated")).toContain(`UID:${to.id}-`);
    const cardBuyer = await database()
      .db.select({ kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, "buyer2@example.com"));
    expect(cardBuyer.map((l) => l.kind)).toEqual(["booking_moved"]);
    const [left] = (await listUpcomingDates(course.id, course.price)).filter((d) => d.id === to.id);
    expect(left!.placesLeft).toBe(2);
    // The cancelled date is no longer listed or sold.
    expect((await listUpcomingDates(course.id, course.price)).map((d) => d.id)).not.toContain(
      from.id,
    );
  });

  it("cancelling: unpaid orders cancelled, card payments refunded, paid invoices listed", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 6 });
    const unpaid = await book(course.slug, date.id, 1, "invoice");
    const paidInvoice = await book(course.slug, date.id, 2, "invoice");
    await changeOrderStatusByAdmin(paidInvoice, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(paidInvoice, "paid", ADMIN);
    const card = await book(course.slug, date.id, 3, "card");
    const session = (await orderRow(card)).stripeCheckoutSessionId!;
    fake.pay(session);
    expect((await verifyCheckoutReturn(course.slug, session)).kind).toBe("paid");

    const result = await cancelCourseDate(ADMIN, date.id, { kind: "cancel" });
    expect(result).toMatchObject({
      ok: true,
      moved: 0,
      bookings: {
        cancelled: 1,
        refunded: 1,
        toRefundByHand: [orderReference(paidInvoice)],
        failed: [],
      },
    });
    expect((await orderRow(unpaid)).status).toBe("canceled");
    const refunded = await orderRow(card);
    expect(refunded.refundedAmountCents).toBe(refunded.totalAmountCents);
    expect((await orderRow(paidInvoice)).status).toBe("paid");
    expect(await dateState(date.id)).toEqual({ state: "cancelled", sequence: 1 });
  });

  it("changing a date's times sends everyone booked an updated invitation with a higher SEQUENCE", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 5 });
    await book(course.slug, date.id, 1, "invoice");
    const later = new Date(date.startsAt.getTime() + 2 * 24 * 3600_000);
    /** The admin form as posted, read by its own schema. */
    const posted = (capacity: number) => {
      const parsed = parseForm(
        formData({
          course_id: course.id,
          starts_at: toUkWallTime(later.toISOString()),
          ends_at: toUkWallTime(new Date(later.getTime() + 7 * 3600_000).toISOString()),
          format: "classroom",
          venue_name: "Training Suite",
          venue_town: "London",
          venue_address: "1 Example Street, London EC1A 1AA",
          capacity: String(capacity),
        }),
        courseDateFormSchema,
      );
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
      return parsed.value;
    };
    const changed = await updateCourseDate(ADMIN, date.id, posted(5));
    expect(changed.ok).toBe(true);
    expect((await dateState(date.id)).sequence).toBe(1);
    const [updated] = await database()
      .db.select({ calendar: emailOutbox.calendar })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.toAddress, "buyer1@example.com"),
          eq(emailOutbox.kind, "course_date_updated"),
        ),
      );
    expect(updated!.calendar).toContain("SEQUENCE:1");
    // Saving without a change that matters to attendees sends nothing more.
    const again = await updateCourseDate(ADMIN, date.id, posted(6));
    expect(again.ok).toBe(true);
    expect((await dateState(date.id)).sequence).toBe(1);
  });
});
