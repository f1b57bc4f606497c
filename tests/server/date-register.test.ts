import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as registerModule from "#app/routes/admin/date-register.tsx";
import { REGISTER_MESSAGES } from "#app/lib/catalogue/register.ts";
import {
  dateRegister,
  markAttendance,
  registerCsvResponse,
  signInSheetResponse,
} from "#server/catalogue/date-register.server.ts";
import { db } from "#server/db/client.server.ts";
import { attendance, auditLog, courseDates, orderStudents } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, insertCourse, placeOrder } from "#tests/support/orders.ts";
import { pdfPageCount, pdfText } from "#tests/support/pdf-text.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * A date's register: every place its live orders hold (the buyer attending themself, named
 * students, a place still to be named), attendance marked from the day the date starts, each
 * mark checked against the places the date holds, audited; the CSV and the sign-in sheet.
 */
useFreshDatabase();

const HOUR = 3_600_000;
const route = throughAdminLayout(registerModule);

/** A date 30 days out with three orders: one buyer attending, three students, one cancelled. */
async function bookedDate() {
  const course = await insertCourse({ title: "Dark Web Investigations" });
  const date = await insertCourseDate(course.id);
  const self = await placeOrder(course.id, "invoice", {}, date.id);
  const group = await placeOrder(course.id, "invoice", { quantity: 3 }, date.id);
  const gone = await placeOrder(course.id, "invoice", {}, date.id);
  if (!self.ok || !group.ok || !gone.ok) throw new Error("not booked");
  expect((await changeOrderStatusByAdmin(gone.order.id, "canceled", ADMIN)).ok).toBe(true);
  return { course, date, self: self.order, group: group.order, gone: gone.order };
}

const posts = useAdminPosts();

function post(dateId: string, fields: [string, string][]) {
  return posts(route, `/admin/dates/${dateId}/register`, { dateId }, fields);
}

describe("a date's register", () => {
  it("lists every live place, the buyer attending themself and each student, not cancelled orders", async () => {
    const { date, self, group } = await bookedDate();
    // A place whose student is still to be named (the second; positions are stored from 0).
    await db()
      .delete(orderStudents)
      .where(and(eq(orderStudents.orderId, group.id), eq(orderStudents.position, 1)));
    const register = (await dateRegister(date.id))!;
    expect(register.date).toMatchObject({ courseTitle: "Dark Web Investigations", capacity: 12 });
    expect(register.markable).toBe(false);
    expect(register.places.map((p) => [p.orderId, p.position, p.name])).toEqual(
      expect.arrayContaining([
        [self.id, 1, "Ada Lovelace"],
        [group.id, 1, "Student1 Smith"],
        [group.id, 2, null],
        [group.id, 3, "Student3 Smith"],
      ]),
    );
    expect(register.places).toHaveLength(4);
    expect(register.places[0]).toMatchObject({
      organisation: expect.any(String),
      payment: "Awaiting payment",
      attendance: null,
    });
    expect(await dateRegister("not-a-date")).toBeNull();
  });

  it("marks attendance from the day the date starts, only for places the date holds", async () => {
    const { date, self, group, gone } = await bookedDate();
    const dayBefore = new Date(date.startsAt.getTime() - 24 * HOUR);
    const onTheDay = new Date(date.startsAt.getTime() + HOUR);
    const mark = (marks: Parameters<typeof markAttendance>[2], now = onTheDay) =>
      markAttendance(ADMIN, date.id, marks, now);

    expect(await mark([{ orderId: self.id, position: 1, status: "present" }], dayBefore)).toEqual({
      ok: false,
      status: 409,
      message: REGISTER_MESSAGES.notYet,
    });
    // A place beyond an order's quantity, or of a cancelled order: nothing recorded at all.
    for (const wrong of [
      { orderId: group.id, position: 4 },
      { orderId: gone.id, position: 1 },
    ]) {
      expect(
        await mark([
          { orderId: self.id, position: 1, status: "present" },
          { ...wrong, status: "present" },
        ]),
      ).toMatchObject({ ok: false, status: 409, message: REGISTER_MESSAGES.unknownPlace });
    }
    expect(await db().select().from(attendance)).toEqual([]);

    expect(
      await mark([
        { orderId: self.id, position: 1, status: "present" },
        { orderId: group.id, position: 1, status: "absent" },
        { orderId: group.id, position: 2, status: "partial" },
      ]),
    ).toEqual({ ok: true, counts: { present: 1, absent: 1, partial: 1 } });
    // Marked again: the last mark stands, one row per place.
    expect(await mark([{ orderId: group.id, position: 1, status: "present" }])).toMatchObject({
      ok: true,
    });
    const register = (await dateRegister(date.id, onTheDay))!;
    expect(register.markable).toBe(true);
    expect(
      Object.fromEntries(register.places.map((p) => [`${p.orderId}:${p.position}`, p.attendance])),
    ).toEqual({
      [`${self.id}:1`]: "present",
      [`${group.id}:1`]: "present",
      [`${group.id}:2`]: "partial",
      [`${group.id}:3`]: null,
    });
    expect(await db().select().from(attendance)).toHaveLength(3);
    const audits = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "course_date.attendance"));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ subjectId: date.id, actorEmail: ADMIN.email });

    // A cancelled date has nothing to mark.
    await db().update(courseDates).set({ state: "cancelled" }).where(eq(courseDates.id, date.id));
    expect(await mark([{ orderId: self.id, position: 1, status: "absent" }])).toMatchObject({
      ok: false,
      message: REGISTER_MESSAGES.cancelled,
    });
  });

  it("the page's form: refused when nothing or something unknown is marked, saved on the day", async () => {
    const { date, self, group } = await bookedDate();
    // The date started an hour ago.
    const startsAt = new Date(Date.now() - HOUR);
    await db()
      .update(courseDates)
      .set({ startsAt, bookingClosesAt: startsAt, endsAt: new Date(startsAt.getTime() + 7 * HOUR) })
      .where(eq(courseDates.id, date.id));
    const empty = await post(date.id, [["intent", "attendance"]]);
    expect(empty).toMatchObject({
      status: 400,
      body: { ok: false, message: REGISTER_MESSAGES.nothingMarked },
    });
    const odd = await post(date.id, [
      ["intent", "attendance"],
      [`attendance:${self.id}:1`, "asleep"],
    ]);
    expect(odd).toMatchObject({ status: 400, body: { message: REGISTER_MESSAGES.unknownPlace } });
    const saved = await post(date.id, [
      ["intent", "attendance"],
      [`attendance:${self.id}:1`, "present"],
      [`attendance:${group.id}:3`, "absent"],
    ]);
    expect(saved).toMatchObject({
      status: 200,
      body: { ok: true, message: "Attendance saved: 1 Present, 1 Absent, 0 Partial" },
    });
    expect(await db().select().from(attendance)).toHaveLength(2);
  });

  it("downloads as CSV and as a sign-in sheet", async () => {
    const { date, group } = await bookedDate();
    await markAttendance(
      ADMIN,
      date.id,
      [{ orderId: group.id, position: 2, status: "present" }],
      new Date(date.startsAt.getTime() + HOUR),
    );
    const csv = await registerCsvResponse(date.id);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const text = await csv.text();
    const lines = text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe("Place,Student,E-mail,Organisation,Order,Payment,Attendance");
    expect(lines).toHaveLength(5);
    expect(text).toContain("Student2 Smith,student2@example.com");
    expect(lines.find((l) => l.includes("Student2 Smith"))).toMatch(/,present$/);

    const sheet = await signInSheetResponse(date.id);
    expect(sheet.headers.get("content-type")).toBe("application/pdf");
    const pdf = new Uint8Array(await sheet.arrayBuffer());
    const printed = await pdfText(pdf);
    for (const words of [
      "Sign-in sheet",
      "Dark Web Investigations",
      "Signature",
      "Ada Lovelace",
      "Student3 Smith",
      "Training Suite, London",
    ]) {
      expect(printed).toContain(words);
    }
    expect(await pdfPageCount(pdf)).toBe(1);
    expect((await signInSheetResponse("00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });

  it("a long register runs onto more pages, each with its heading", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, {
      capacity: 100,
      format: "online",
      venueName: null,
      venueTown: null,
      venueAddress: null,
      joiningDetails: "https://meet.example.com/x",
    });
    for (let i = 0; i < 8; i++) {
      const placed = await placeOrder(course.id, "invoice", { quantity: 5 }, date.id);
      expect(placed.ok).toBe(true);
    }
    const pdf = new Uint8Array(await (await signInSheetResponse(date.id)).arrayBuffer());
    expect(await pdfPageCount(pdf)).toBe(2);
    const pages = (await pdfText(pdf)).split("\n");
    expect(pages.every((p) => p.includes("Sign-in sheet") && p.includes("Online"))).toBe(true);
    expect(pages[1]).toContain("40 places · page 2 of 2");
  });
});
