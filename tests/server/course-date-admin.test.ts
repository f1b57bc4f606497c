import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  BOOKING_CLOSES_AFTER_START,
  capacityBelowSold,
  END_BEFORE_START,
  START_IN_PAST,
  VENUE_REQUIRED,
} from "#app/lib/catalogue/course-date-form.ts";
import {
  cancelCourseDate,
  cancelRefusedMessage,
  COURSE_HAS_BOOKINGS,
  createCourseDate,
  updateCourseDate,
} from "#server/catalogue/course-date-admin.server.ts";
import { listAdminDates } from "#server/catalogue/course-date-list.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog } from "#server/db/schema.ts";
import { insertOrder, newDate, NOW, ONLINE, storedDates } from "#tests/support/course-dates.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { ADMIN, insertCourse } from "#tests/support/orders.ts";

/**
 * The admin side of course dates (decision 0033): creating, editing and cancelling a date with
 * every rule checked on the server and nothing stored when one fails, the audit rows, and UK
 * times across the clock changes. The Dates screen's lists and the /admin/dates route:
 * course-date-screen.test.ts.
 */

useFreshDatabase();

const auditRows = () =>
  db()
    .select()
    .from(auditLog)
    .where(eq(auditLog.subjectType, "course_date"))
    .orderBy(asc(auditLog.at));

describe("creating a date", () => {
  it("stores the UK times as UTC instants, booking closing at the start, with its audit row", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id, {
      format: "classroom",
      venue_name: "Civic Hall",
      venue_town: "Leeds",
      venue_address: "1 Park Row, Leeds",
      joining_details: null,
      price: "495.00",
    });
    expect(date).toMatchObject({
      courseId: course.id,
      startsAt: new Date("2026-03-05T09:30:00Z"),
      endsAt: new Date("2026-03-05T16:30:00Z"),
      bookingClosesAt: new Date("2026-03-05T09:30:00Z"),
      format: "classroom",
      venueName: "Civic Hall",
      capacity: 12,
      price: "495.00",
      state: "scheduled",
    });
    const [audit] = await auditRows();
    expect(audit).toMatchObject({
      actorId: ADMIN.id,
      actorEmail: ADMIN.email,
      action: "course_date.create",
      subjectType: "course_date",
      subjectId: date.id,
      summary: "OSINT Investigations Masterclass, Thu, 5 Mar 2026, 09:30–16:30 GMT",
      before: null,
    });
    expect(audit!.after).toMatchObject({
      startsAt: "2026-03-05T09:30:00.000Z",
      capacity: 12,
      venueName: "Civic Hall",
      price: "495.00",
    });
  });

  it("turns a 09:30 UK start into 08:30Z in summer and 09:30Z in winter, across both clock changes", async () => {
    const course = await insertCourse();
    const days = ["2026-03-28", "2026-03-29", "2026-10-24", "2026-10-25"];
    for (const day of days) {
      await newDate(course.id, { starts_at: `${day}T09:30`, ends_at: `${day}T16:30` });
    }
    expect((await storedDates()).map((d) => d.startsAt.toISOString())).toEqual([
      "2026-03-28T09:30:00.000Z",
      "2026-03-29T08:30:00.000Z",
      "2026-10-24T08:30:00.000Z",
      "2026-10-25T09:30:00.000Z",
    ]);
    const listed = await listAdminDates({ upcoming: true, now: NOW });
    expect(listed.map((d) => [d.startsAt, d.endsAt])).toEqual([
      ["2026-03-28T09:30:00.000Z", "2026-03-28T16:30:00.000Z"],
      ["2026-03-29T08:30:00.000Z", "2026-03-29T15:30:00.000Z"],
      ["2026-10-24T08:30:00.000Z", "2026-10-24T15:30:00.000Z"],
      ["2026-10-25T09:30:00.000Z", "2026-10-25T16:30:00.000Z"],
    ]);
  });

  it.each([
    [{ ends_at: "2026-03-05T09:00" }, { ends_at: END_BEFORE_START }],
    [{ starts_at: "2026-01-09T09:30", ends_at: "2026-01-09T16:30" }, { starts_at: START_IN_PAST }],
    [{ booking_closes_at: "2026-03-05T10:00" }, { booking_closes_at: BOOKING_CLOSES_AFTER_START }],
    [{ format: "classroom" as const, venue_name: null }, { venue_name: VENUE_REQUIRED }],
  ])("refuses %j and stores nothing", async (change, fieldErrors) => {
    const course = await insertCourse();
    const result = await createCourseDate(
      ADMIN,
      { ...ONLINE, course_id: course.id, ...change },
      NOW,
    );
    expect(result).toMatchObject({ ok: false, status: 400, fieldErrors });
    expect(await storedDates()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it("refuses a course that does not exist, storing nothing", async () => {
    const result = await createCourseDate(
      ADMIN,
      { ...ONLINE, course_id: "7f1b0f7e-1c1a-4c1a-9c1a-1c1a1c1a1c1a" },
      NOW,
    );
    expect(result).toMatchObject({ ok: false, status: 404 });
    expect(await storedDates()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it("keeps no venue on an online date", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id, { venue_name: "Civic Hall", venue_town: "Leeds" });
    expect(date).toMatchObject({ venueName: null, venueTown: null, venueAddress: null });
  });
});

describe("editing a date", () => {
  /** A date with 5 places taken: 2 paid, 2 on an invoice request, 1 held by a card checkout. */
  async function dateWithFiveTaken() {
    const course = await insertCourse();
    const date = await newDate(course.id, { capacity: 10 });
    await insertOrder(course.id, date.id, { status: "paid", method: "stripe", quantity: 2 });
    await insertOrder(course.id, date.id, { status: "pending", method: "invoice", quantity: 2 });
    await insertOrder(course.id, date.id, { status: "pending", method: "stripe", quantity: 1 });
    // Not taking places: a cancelled order and a paid one refunded in full.
    await insertOrder(course.id, date.id, { status: "canceled", method: "invoice", quantity: 3 });
    await insertOrder(course.id, date.id, {
      status: "paid",
      method: "stripe",
      quantity: 1,
      refundedCents: 10_000,
    });
    return { course, date };
  }

  it("refuses a capacity below the places taken, saying how many, and changes nothing", async () => {
    const { course, date } = await dateWithFiveTaken();
    const result = await updateCourseDate(
      ADMIN,
      date.id,
      { ...ONLINE, course_id: course.id, capacity: 4 },
      NOW,
    );
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { capacity: capacityBelowSold(5) },
    });
    expect((await storedDates())[0]!.capacity).toBe(10);
    expect((await auditRows()).map((r) => r.action)).toEqual(["course_date.create"]);
  });

  it("allows a capacity at or above the places taken, auditing only what changed", async () => {
    const { course, date } = await dateWithFiveTaken();
    for (const capacity of [5, 6]) {
      const result = await updateCourseDate(
        ADMIN,
        date.id,
        { ...ONLINE, course_id: course.id, capacity },
        NOW,
      );
      expect(result.ok).toBe(true);
      expect((await storedDates())[0]!.capacity).toBe(capacity);
    }
    const rows = await auditRows();
    expect(rows.map((r) => r.action)).toEqual([
      "course_date.create",
      "course_date.update",
      "course_date.update",
    ]);
    expect(rows[1]).toMatchObject({
      subjectId: date.id,
      before: { capacity: 10 },
      after: { capacity: 5 },
    });
    // Saving the same values again changes nothing worth a row.
    await updateCourseDate(ADMIN, date.id, { ...ONLINE, course_id: course.id, capacity: 6 }, NOW);
    expect(await auditRows()).toHaveLength(3);
  });

  it("moves the times, recorded before and after", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id);
    const result = await updateCourseDate(
      ADMIN,
      date.id,
      {
        ...ONLINE,
        course_id: course.id,
        starts_at: "2026-06-01T09:30",
        ends_at: "2026-06-02T16:30",
      },
      NOW,
    );
    expect(result).toMatchObject({
      ok: true,
      date: {
        startsAt: new Date("2026-06-01T08:30:00Z"),
        endsAt: new Date("2026-06-02T15:30:00Z"),
        bookingClosesAt: new Date("2026-06-01T08:30:00Z"),
      },
    });
    const update = (await auditRows())[1]!;
    expect(update.before).toMatchObject({ startsAt: "2026-03-05T09:30:00.000Z" });
    expect(update.after).toMatchObject({ startsAt: "2026-06-01T08:30:00.000Z" });
  });

  it("refuses every rule again, a date with bookings moving course, and an unknown date", async () => {
    const { course, date } = await dateWithFiveTaken();
    const other = await insertCourse({ slug: "other", title: "Other course" });
    const values = { ...ONLINE, course_id: course.id, capacity: 10 };
    expect(
      await updateCourseDate(ADMIN, date.id, { ...values, ends_at: "2026-03-05T08:00" }, NOW),
    ).toMatchObject({ ok: false, fieldErrors: { ends_at: END_BEFORE_START } });
    expect(
      await updateCourseDate(
        ADMIN,
        date.id,
        { ...values, starts_at: "2026-01-01T09:30", ends_at: "2026-01-01T16:30" },
        NOW,
      ),
    ).toMatchObject({ ok: false, fieldErrors: { starts_at: START_IN_PAST } });
    expect(
      await updateCourseDate(ADMIN, date.id, { ...values, course_id: other.id }, NOW),
    ).toMatchObject({ ok: false, fieldErrors: { course_id: COURSE_HAS_BOOKINGS } });
    expect(
      await updateCourseDate(ADMIN, "7f1b0f7e-1c1a-4c1a-9c1a-1c1a1c1a1c1a", values, NOW),
    ).toMatchObject({ ok: false, status: 404 });
    expect((await storedDates())[0]).toMatchObject({
      courseId: course.id,
      startsAt: new Date("2026-03-05T09:30:00Z"),
      endsAt: new Date("2026-03-05T16:30:00Z"),
    });
    expect(await auditRows()).toHaveLength(1);
  });
});

describe("cancelling a date", () => {
  it("refuses while it has live bookings, changing nothing", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id);
    await insertOrder(course.id, date.id, { status: "paid", method: "stripe", quantity: 2 });
    await insertOrder(course.id, date.id, { status: "pending", method: "stripe", quantity: 1 });
    await insertOrder(course.id, date.id, { status: "canceled", method: "invoice", quantity: 1 });
    const result = await cancelCourseDate(ADMIN, date.id);
    expect(result).toEqual({ ok: false, status: 409, message: cancelRefusedMessage(2) });
    expect(cancelRefusedMessage(2)).toBe(
      "This date still has 2 bookings. Choose whether to move its 2 bookings to another date or cancel them.",
    );
    expect((await storedDates())[0]!.state).toBe("scheduled");
    expect(await auditRows()).toHaveLength(1);
  });

  it("cancels a date without bookings, with its audit row; it leaves the list", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id);
    const refunded = await newDate(course.id, {
      starts_at: "2026-04-01T09:30",
      ends_at: "2026-04-01T16:30",
    });
    // Refunded in full: no longer a booking.
    await insertOrder(course.id, refunded.id, {
      status: "paid",
      method: "stripe",
      quantity: 1,
      refundedCents: 10_000,
    });
    for (const id of [date.id, refunded.id]) {
      expect(await cancelCourseDate(ADMIN, id)).toMatchObject({
        ok: true,
        date: { state: "cancelled" },
      });
    }
    const cancel = (await auditRows()).filter((r) => r.action === "course_date.cancel");
    expect(cancel).toHaveLength(2);
    expect(cancel[0]).toMatchObject({
      subjectId: date.id,
      actorEmail: ADMIN.email,
      before: { state: "scheduled" },
      after: { state: "cancelled" },
    });
    expect(await listAdminDates({ upcoming: true, now: NOW })).toEqual([]);
    // Once cancelled it stays so, and cannot be edited.
    expect(await cancelCourseDate(ADMIN, date.id)).toMatchObject({ ok: false, status: 409 });
    expect(
      await updateCourseDate(ADMIN, date.id, { ...ONLINE, course_id: course.id }, NOW),
    ).toMatchObject({ ok: false, status: 409 });
  });
});
