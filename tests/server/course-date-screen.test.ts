import { describe, expect, it } from "vitest";
import { VENUE_REQUIRED } from "#app/lib/catalogue/course-date-form.ts";
import { cancelRefusedMessage } from "#server/catalogue/course-date-admin.server.ts";
import {
  DATES_PAGE_SIZE,
  listAdminDatePage,
  listAdminDates,
} from "#server/catalogue/course-date-list.server.ts";
import { db } from "#server/db/client.server.ts";
import { courseDates } from "#server/db/schema.ts";
import * as datesModule from "#app/routes/admin/dates.tsx";
import { config } from "#server/config.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import {
  insertOrder,
  newDate,
  NOW,
  storedDates,
  type OrderValues,
} from "#tests/support/course-dates.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { formData, insertCourse } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * The Dates screen of the admin side of course dates (decision 0033): its figures of sold, held
 * and free places and revenue from a mix of orders, its lists of upcoming and past dates a page
 * at a time, and the /admin/dates route's answers to a signed-in admin's posts. Creating,
 * editing and cancelling a date: course-date-admin.test.ts.
 */

useFreshDatabase();

describe("the Dates screen's list", () => {
  it("counts sold, held and free places and revenue from a mix of orders", async () => {
    const course = await insertCourse();
    const date = await newDate(course.id, { capacity: 20 });
    const quiet = await newDate(course.id, {
      starts_at: "2026-04-01T09:30",
      ends_at: "2026-04-01T16:30",
      capacity: 8,
    });
    const add = (o: OrderValues) => insertOrder(course.id, date.id, o);
    await add({ status: "pending", method: "stripe", quantity: 1 }); // held
    await add({ status: "pending", method: "stripe", quantity: 2 }); // held
    await add({ status: "pending", method: "invoice", quantity: 2 }); // sold
    await add({ status: "invoiced", method: "invoice", quantity: 1 }); // sold
    await add({ status: "paid", method: "stripe", quantity: 3, refundedCents: 5_000 }); // sold, £250
    await add({ status: "paid", method: "invoice", quantity: 1 }); // sold, £100
    await add({ status: "paid", method: "stripe", quantity: 4, refundedCents: 40_000 }); // refunded
    await add({ status: "canceled", method: "invoice", quantity: 5 });
    await add({ status: "failed", method: "stripe", quantity: 2 });

    const listed = await listAdminDates({ upcoming: true, now: NOW });
    expect(listed.map((d) => d.id)).toEqual([date.id, quiet.id]);
    expect(listed[0]).toMatchObject({
      courseTitle: "OSINT Investigations Masterclass",
      capacity: 20,
      sold: 7,
      held: 3,
      free: 10,
      revenueCents: 35_000,
      state: "scheduled",
    });
    expect(listed[1]).toMatchObject({ sold: 0, held: 0, free: 8, revenueCents: 0 });
  });

  it("lists dates still to start, soonest first, across courses or for one", async () => {
    const first = await insertCourse();
    const second = await insertCourse({ slug: "second", title: "Second course" });
    const later = await newDate(first.id, {
      starts_at: "2026-05-01T09:30",
      ends_at: "2026-05-01T16:30",
    });
    const sooner = await newDate(second.id);
    const past = await newDate(first.id, {
      starts_at: "2026-02-01T09:30",
      ends_at: "2026-02-01T16:30",
    });
    const afterPast = new Date("2026-02-02T00:00:00Z");
    expect((await listAdminDates({ upcoming: true, now: NOW })).map((d) => d.id)).toEqual([
      past.id,
      sooner.id,
      later.id,
    ]);
    expect((await listAdminDates({ upcoming: true, now: afterPast })).map((d) => d.id)).toEqual([
      sooner.id,
      later.id,
    ]);
    expect(
      (await listAdminDates({ upcoming: true, now: afterPast, courseId: first.id })).map((d) => [
        d.id,
        d.courseTitle,
      ]),
    ).toEqual([[later.id, "OSINT Investigations Masterclass"]]);
    expect(
      (await listAdminDates({ upcoming: false, now: afterPast, courseId: first.id })).map(
        (d) => d.id,
      ),
    ).toEqual([past.id, later.id]);
  });
});

describe("the /admin/dates route, signed in", () => {
  const route = throughAdminLayout(datesModule);
  const origin = new URL(config.publicUrl).origin;
  const post = (cookie: string, fields: Record<string, string>) =>
    route.action({
      request: new Request(`${origin}/admin/dates`, {
        method: "POST",
        headers: { Origin: origin, Cookie: cookie },
        body: formData(fields),
      }),
      params: {},
      context: {},
    } as never);
  const answer = (result: unknown) => {
    const d = result as { data: Record<string, unknown>; init?: { status?: number } | null };
    return { status: d.init?.status ?? 200, ...d.data };
  };
  const FORM = {
    intent: "save",
    starts_at: "2030-06-01T09:30",
    ends_at: "2030-06-01T16:30",
    format: "online",
    capacity: "12",
  };

  it("creates a date from the posted form, in UK time", async () => {
    const cookie = await adminCookie();
    const course = await insertCourse();
    const result = answer(await post(cookie, { ...FORM, course_id: course.id }));
    expect(result).toMatchObject({ status: 200, ok: true, message: "Date created successfully" });
    expect((await storedDates())[0]!.startsAt).toEqual(new Date("2030-06-01T08:30:00Z"));
  });

  it("answers a refused post with messages by field and what was typed, storing nothing", async () => {
    const cookie = await adminCookie();
    const course = await insertCourse();
    const result = answer(
      await post(cookie, { ...FORM, course_id: course.id, format: "classroom", capacity: "0" }),
    );
    expect(result).toMatchObject({
      status: 400,
      ok: false,
      form: "save",
      fieldErrors: { venue_name: VENUE_REQUIRED },
      values: { starts_at: "2030-06-01T09:30", capacity: "0" },
    });
    expect(await storedDates()).toEqual([]);
  });

  it("answers a refused cancel with its reason", async () => {
    const cookie = await adminCookie();
    const course = await insertCourse();
    const date = await newDate(course.id);
    await insertOrder(course.id, date.id, { status: "paid", method: "stripe", quantity: 1 });
    const result = answer(await post(cookie, { intent: "cancel", id: date.id }));
    expect(result).toMatchObject({ status: 409, ok: false, message: cancelRefusedMessage(1) });
    expect(cancelRefusedMessage(1)).toBe(
      "This date still has a booking. Choose whether to move its booking to another date or cancel it.",
    );
  });
});

/** One-hour online dates of `courseId`, starting the given numbers of days from now. */
async function insertOnlineDates(courseId: string, days: number[]) {
  await db()
    .insert(courseDates)
    .values(
      days.map((d) => {
        const startsAt = new Date(Date.now() + d * 24 * 3600_000);
        return {
          courseId,
          startsAt,
          endsAt: new Date(startsAt.getTime() + 3600_000),
          format: "online" as const,
          capacity: 10,
          bookingClosesAt: startsAt,
        };
      }),
    );
}

describe("the Dates screen's pages", () => {
  it("lists the upcoming dates soonest first, a page at a time; a page past the end shows the last", async () => {
    const course = await insertCourse();
    const count = DATES_PAGE_SIZE + 10;
    await insertOnlineDates(
      course.id,
      Array.from({ length: count }, (_, i) => i + 1),
    );
    const first = await listAdminDatePage({ page: 1 });
    expect(first).toMatchObject({ total: count, page: 1, pageCount: 2 });
    expect(first.dates).toHaveLength(DATES_PAGE_SIZE);
    const starts = first.dates.map((d) => d.startsAt);
    expect([...starts].sort()).toEqual(starts);
    const second = await listAdminDatePage({ page: 2 });
    expect(second.dates).toHaveLength(10);
    expect(second.dates[0]!.startsAt > first.dates.at(-1)!.startsAt).toBe(true);
    expect(await listAdminDatePage({ page: 9 })).toMatchObject({ page: 2, pageCount: 2 });
    expect((await listAdminDatePage({ page: 1, courseId: course.id })).total).toBe(count);
  });

  it("lists the dates that have started, latest first, apart from the upcoming ones", async () => {
    const course = await insertCourse();
    await insertOnlineDates(course.id, [-3, -1, 2]);
    const past = await listAdminDatePage({ page: 1, past: true });
    expect(past.total).toBe(2);
    const starts = past.dates.map((d) => d.startsAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(starts.every((s) => new Date(s) < new Date())).toBe(true);
    expect((await listAdminDatePage({ page: 1 })).total).toBe(1);
  });
});
