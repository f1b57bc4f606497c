import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BOOKING_MESSAGES, changesUntilText } from "#app/lib/orders/booking.ts";
import * as orderModule from "#app/routes/admin/order.tsx";
import { isWorkingDay, workingDaysBefore } from "#server/calendar/working-days.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, orderEvents, orderStudents } from "#server/db/schema.ts";
import { bookerPage } from "#server/orders/booker-page.server.ts";
import { changeStudent } from "#server/orders/student-changes.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { bookedGroup, DAY } from "#tests/support/booked-group.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, BUYER, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";

/**
 * Naming and changing a place's student (the booker's page): the cut-off in working days, the
 * booker's change before it (rules, e-mails, timeline, audit) and staff's on the order page
 * after it, until the date ends, on both databases. The page and its links: booking-page.test.ts.
 */
useFreshDatabase();
const posts = useAdminPosts();
const orderRoute = throughAdminLayout(orderModule);

async function mails(orderId: string, kinds: string[]) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.orderId, orderId));
  return rows.filter((r) => kinds.includes(r.kind));
}

describe("the cut-off", () => {
  it("counts working days back from the start, skipping weekends and bank holidays", () => {
    expect(isWorkingDay("2026-12-25")).toBe(false); // Christmas Day
    expect(isWorkingDay("2026-12-26")).toBe(false); // a Saturday
    expect(isWorkingDay("2026-12-28")).toBe(false); // Boxing Day, moved to Monday
    expect(isWorkingDay("2026-12-29")).toBe(true);
    // A Wednesday 09:00 start: changes close at the end of Monday (GMT).
    expect(workingDaysBefore(new Date("2026-11-25T09:00:00Z"), 2).toISOString()).toBe(
      "2026-11-24T00:00:00.000Z",
    );
    // Tuesday 29 December 2026: Monday 28 and Friday 25 are holidays, so Wednesday 23 and
    // Thursday 24 are the two working days before; changes close at midnight ending the 23rd.
    expect(workingDaysBefore(new Date("2026-12-29T09:00:00Z"), 2).toISOString()).toBe(
      "2026-12-24T00:00:00.000Z",
    );
    // In summer time the London midnight is 23:00 UTC.
    expect(workingDaysBefore(new Date("2026-07-08T08:00:00Z"), 2).toISOString()).toBe(
      "2026-07-06T23:00:00.000Z",
    );
    const start = new Date("2026-07-08T08:00:00Z");
    expect(workingDaysBefore(start, 0)).toEqual(start);
    // On the page: a window closing at a London midnight is named by the day it ends.
    expect(changesUntilText("2026-11-24T00:00:00.000Z")).toBe(
      "the end of Mon, 23 Nov 2026 (UK time)",
    );
    expect(changesUntilText("2026-07-06T23:00:00.000Z")).toBe(
      "the end of Mon, 6 Jul 2026 (UK time)",
    );
    expect(changesUntilText("2026-07-08T08:00:00.000Z")).toBe("Wed, 8 Jul 2026, 09:00 BST");
  });
});

describe("changing a student", () => {
  it("replaces the place's holder, records it and e-mails the booker, the old and the new student", async () => {
    const { order } = await bookedGroup();
    const result = await changeStudent(
      order.id,
      { place: 2, first_name: "Grace", last_name: "Hopper", email: "Grace@Example.com" },
      { ipAddress: "203.0.113.9" },
    );
    expect(result).toEqual({ ok: true, changed: true, name: "Grace Hopper" });
    const stored = await db()
      .select()
      .from(orderStudents)
      .where(eq(orderStudents.orderId, order.id))
      .orderBy(orderStudents.position);
    expect(stored.map((s) => s.email)).toEqual([
      "student1@example.com",
      "grace@example.com",
      "student3@example.com",
    ]);

    const sent = await mails(order.id, ["student_changed", "place_passed_on", "place_given"]);
    expect(sent.map((m) => [m.kind, m.toAddress]).sort()).toEqual([
      ["place_given", "grace@example.com"],
      ["place_passed_on", "student2@example.com"],
      ["student_changed", BUYER.email],
    ]);
    const passed = sent.find((m) => m.kind === "place_passed_on")!;
    expect(passed.calendar).toContain("METHOD:CANCEL");
    const toBooker = sent.find((m) => m.kind === "student_changed")!;
    expect(toBooker.text).toContain("Student2 Smith <student2@example.com>");
    expect(toBooker.text).toMatch(/\/bookings\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}/);

    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "student_changed")));
    expect(event?.actor).toBe("buyer");
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "order.student"));
    expect(audit).toMatchObject({ actorId: null, subjectId: order.id, ipAddress: "203.0.113.9" });
    expect(audit?.after).toMatchObject({ place: 2, email: "grace@example.com" });

    // The same person again changes nothing and sends nothing.
    expect(
      await changeStudent(order.id, {
        place: 2,
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace@example.com",
      }),
    ).toEqual({ ok: true, changed: false });
    expect(await mails(order.id, ["student_changed"])).toHaveLength(1);
  });

  it("on a paid order sends the new student the joining details with the calendar invitation", async () => {
    const { order } = await bookedGroup(2);
    expect((await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).ok).toBe(true);
    expect((await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).ok).toBe(true);
    await changeStudent(order.id, {
      place: 1,
      first_name: "Alan",
      last_name: "Turing",
      email: "alan@example.com",
    });
    const joining = (await mails(order.id, ["course_joining_details"])).filter(
      (m) => m.toAddress === "alan@example.com",
    );
    expect(joining).toHaveLength(1);
    expect(joining[0]!.calendar).toContain("METHOD:REQUEST");
    expect(await mails(order.id, ["place_given"])).toHaveLength(0);
  });

  it("lets a buyer who booked for themself give the place to a colleague (one letter to them)", async () => {
    const course = await insertCourse({ title: "Fraud Awareness" });
    const date = await insertCourseDate(course.id);
    const placed = await placeOrder(course.id, "invoice", {}, date.id);
    if (!placed.ok) throw new Error("not booked");
    const result = await changeStudent(placed.order.id, {
      place: 1,
      first_name: "Joan",
      last_name: "Clarke",
      email: "joan@example.com",
    });
    expect(result.ok).toBe(true);
    expect((await orderRow(placed.order.id)).isBuyerStudent).toBe(false);
    const page = await bookerPage(placed.order.id);
    expect(page?.places.map((p) => p.name)).toEqual(["Joan Clarke"]);
    const sent = await mails(placed.order.id, [
      "student_changed",
      "place_passed_on",
      "place_given",
    ]);
    expect(sent.map((m) => m.kind).sort()).toEqual(["place_given", "student_changed"]);
    expect(sent.find((m) => m.kind === "student_changed")?.calendar).toContain("METHOD:CANCEL");
  });

  it("is refused after the cut-off, on a cancelled order, for a place the order does not have", async () => {
    // Starts tomorrow: within two working days whatever today is.
    const soon = await bookedGroup(2, new Date(Date.now() + DAY));
    const input = { place: 1, first_name: "Late", last_name: "Comer", email: "late@example.com" };
    expect(await changeStudent(soon.order.id, input)).toEqual({
      ok: false,
      status: 409,
      message: BOOKING_MESSAGES.closed,
    });
    expect((await bookerPage(soon.order.id))?.changes).toEqual({ open: false, reason: "cut_off" });

    const { order } = await bookedGroup(2);
    expect(await changeStudent(order.id, { ...input, place: 3 })).toMatchObject({
      ok: false,
      message: BOOKING_MESSAGES.noSuchPlace,
    });
    await changeOrderStatusByAdmin(order.id, "canceled", ADMIN);
    expect(await changeStudent(order.id, input)).toMatchObject({
      ok: false,
      message: BOOKING_MESSAGES.notHeld,
    });
    const names = await db()
      .select({ email: orderStudents.email })
      .from(orderStudents)
      .where(eq(orderStudents.orderId, order.id));
    expect(names.map((n) => n.email)).not.toContain("late@example.com");
  });

  it("names a place bought for someone not yet named", async () => {
    const { order } = await bookedGroup(3);
    await db()
      .delete(orderStudents)
      .where(and(eq(orderStudents.orderId, order.id), eq(orderStudents.position, 2)));
    expect((await bookerPage(order.id))?.places[2]?.name).toBeNull();
    await changeStudent(order.id, {
      place: 3,
      first_name: "Named",
      last_name: "Later",
      email: "later@example.com",
    });
    expect((await bookerPage(order.id))?.places[2]?.name).toBe("Named Later");
    const sent = await mails(order.id, ["place_passed_on"]);
    expect(sent).toHaveLength(0);
  });
});

describe("staff changing a student", () => {
  /** 'Change student' posted on the order page: place, first and last name, e-mail. */
  const changeOnOrderPage = (orderId: string, [place, first, last, email]: string[]) =>
    posts(
      orderRoute,
      `/admin/payments/${orderId}`,
      { orderId },
      {
        intent: "student",
        place: place!,
        first_name: first!,
        last_name: last!,
        email: email!,
      },
    );

  it("after the booker's cut-off and on the day, until the date ends; audited as the admin", async () => {
    // Starts in an hour: the booker's page is closed, staff may still substitute.
    const { order, date } = await bookedGroup(2, new Date(Date.now() + 3_600_000));
    const answer = await changeOnOrderPage(order.id, [
      "1",
      "Late",
      "Substitute",
      "late@example.com",
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      ok: true,
      message: BOOKING_MESSAGES.staffChanged("Late Substitute", 1),
    });
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "order.student"));
    expect(audit).toMatchObject({ actorEmail: STAFF_EMAIL, subjectId: order.id });
    const toBooker = await mails(order.id, ["student_changed"]);
    expect(toBooker[0]?.text).toContain("As you asked us, place 1 is now held by Late Substitute");

    // Bad input changes nothing; after the date has ended, nothing changes either.
    const bad = await changeOnOrderPage(order.id, ["2", "", "Nobody", "not-an-address"]);
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body.fieldErrors as object) ?? {}).sort()).toEqual([
      "email",
      "first_name",
    ]);
    const after = new Date(date.endsAt.getTime() + 1000);
    expect(
      await changeStudent(
        order.id,
        { place: 2, first_name: "Too", last_name: "Late", email: "too.late@example.com" },
        { admin: ADMIN, now: after },
      ),
    ).toEqual({ ok: false, status: 409, message: BOOKING_MESSAGES.ended });
    const names = await db()
      .select({ email: orderStudents.email })
      .from(orderStudents)
      .where(eq(orderStudents.orderId, order.id))
      .orderBy(orderStudents.position);
    expect(names.map((n) => n.email)).toEqual([
      "late@example.com",
      expect.stringMatching(/^student2@/),
    ]);
  });
});
