import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invitationUid } from "#server/catalogue/date-invitations.server.ts";
import { dueReminder, sendDueReminders } from "#server/catalogue/date-reminders.server.ts";
import { config, loadConfig } from "#server/config.server.ts";
import { courseDateReminders, courseDates } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { book, mailsOfKind, onlineDate, paid, parse } from "#tests/support/date-invitations.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse, insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN } from "#tests/support/orders.ts";

/**
 * Reminders for dated bookings (decision 0033): they go once per date, days before the start —
 * also when passes run at once — and only to students of sold orders of scheduled dates, with
 * the calendar invitation (read back with ical.js); DATE_REMINDER_DAYS sets the days.
 * Invitations themselves are in date-invitations.test.ts.
 */
const database = useFreshDatabase();

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** `ms` from now, in whole seconds (what an iCalendar time can carry; staff type minutes). */
const fromNow = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000);

describe("reminders before a date starts", () => {
  it("the N-day reminder is due during the N-th day before the start, and never later", () => {
    const start = new Date("2030-06-10T09:30:00Z");
    const at = (msBefore: number) => new Date(start.getTime() - msBefore);
    const days = [7, 1];
    expect(dueReminder(start, at(8 * DAY), days)).toBeNull();
    expect(dueReminder(start, at(7 * DAY), days)).toBe(7);
    expect(dueReminder(start, at(6 * DAY + HOUR), days)).toBe(7);
    expect(dueReminder(start, at(6 * DAY), days)).toBeNull();
    // Booked, created or moved two days before: the one-day reminder only.
    expect(dueReminder(start, at(2 * DAY), days)).toBeNull();
    expect(dueReminder(start, at(DAY), days)).toBe(1);
    expect(dueReminder(start, at(HOUR), days)).toBe(1);
    expect(dueReminder(start, at(0), days)).toBeNull();
    expect(dueReminder(start, at(-HOUR), days)).toBeNull();
    expect(dueReminder(start, at(7 * DAY), [])).toBeNull();
  });

  it("DATE_REMINDER_DAYS: whole days, largest first, each once; 0 sends none; anything else stops start-up", () => {
    expect(config.dateReminderDays).toEqual([7, 1]);
    expect(loadConfig({ DATE_REMINDER_DAYS: "1, 7,7" }).dateReminderDays).toEqual([7, 1]);
    expect(loadConfig({ DATE_REMINDER_DAYS: "3" }).dateReminderDays).toEqual([3]);
    expect(loadConfig({ DATE_REMINDER_DAYS: "0" }).dateReminderDays).toEqual([]);
    expect(() => loadConfig({ DATE_REMINDER_DAYS: "7 days" })).toThrow(/DATE_REMINDER_DAYS/);
  });

  it("go once to each booked student of a scheduled date, with the invitation, however often the pass runs", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, {
      ...onlineDate,
      startsAt: fromNow(6.5 * DAY),
    });
    // An invoice request for two students, and the buyer booking for themselves, then paid.
    await book(course.id, date.id, "invoice", [
      { firstName: "Student", lastName: "One", email: "one@example.com" },
      { firstName: "Student", lastName: "Two", email: "two@example.com" },
    ]);
    const self = await book(course.id, date.id, "invoice");
    await paid(self.id);
    // Not booked: a card checkout still open, and a cancelled order.
    const open = await book(course.id, date.id, "stripe", [
      { firstName: "Open", lastName: "Checkout", email: "open@example.com" },
    ]);
    const cancelled = await book(course.id, date.id, "invoice", [
      { firstName: "Gone", lastName: "Away", email: "gone@example.com" },
    ]);
    expect((await changeOrderStatusByAdmin(cancelled.id, "canceled", ADMIN)).ok).toBe(true);
    // Another date, too far off for a reminder yet.
    await insertCourseDate(course.id, { startsAt: fromNow(9 * DAY) });

    expect(await sendDueReminders()).toBe(3);
    expect(await sendDueReminders()).toBe(0);
    const reminders = await mailsOfKind("course_date_reminder");
    expect(reminders.map((m) => m.toAddress)).toEqual([
      self.buyerEmail,
      "one@example.com",
      "two@example.com",
    ]);
    for (const mail of reminders) {
      expect(mail.text).toContain("How to join: Teams: https://meet.example.com/room-42");
      expect(mail.orderId).not.toBeNull();
      expect(parse(mail.calendar!)).toMatchObject({
        method: "REQUEST",
        uid: invitationUid(date.id, mail.toAddress),
      });
    }
    const claims = await database().db.select().from(courseDateReminders);
    expect(claims).toEqual([
      expect.objectContaining({ courseDateId: date.id, daysBefore: 7, startsAt: date.startsAt }),
    ]);

    // The open checkout is paid later: its student has the invitation with their joining details.
    expect((await transitionOrder(open.id, "paid", { source: "webhook" })).kind).toBe(
      "transitioned",
    );
    const joining = (await mailsOfKind("course_joining_details")).filter(
      (m) => m.toAddress === "open@example.com",
    );
    expect(joining).toHaveLength(1);
    expect(joining[0]!.calendar).toBeTruthy();
    expect(await sendDueReminders()).toBe(0);
  });

  it("passes running at once queue one set", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, {
      startsAt: fromNow(20 * HOUR),
    });
    for (let i = 0; i < 3; i += 1) {
      await book(course.id, date.id, "invoice", [
        { firstName: "Student", lastName: `${i}a`, email: `s${i}a@example.com` },
        { firstName: "Student", lastName: `${i}b`, email: `s${i}b@example.com` },
      ]);
    }
    const counts = await Promise.all(Array.from({ length: 5 }, () => sendDueReminders()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
    expect(counts.filter((n) => n > 0)).toEqual([6]);
    const reminders = await mailsOfKind("course_date_reminder");
    expect(reminders).toHaveLength(6);
    expect(new Set(reminders.map((m) => m.toAddress)).size).toBe(6);
    const claims = await database().db.select().from(courseDateReminders);
    expect(claims).toEqual([expect.objectContaining({ courseDateId: date.id, daysBefore: 1 })]);
  });

  it("none for a cancelled date; a moved start is reminded again", async () => {
    const course = await insertCourse();
    const soon = fromNow(6.5 * DAY);
    const called = await insertCourseDate(course.id, { startsAt: soon, bookingClosesAt: soon });
    const moved = await insertCourseDate(course.id, { startsAt: soon, bookingClosesAt: soon });
    await book(course.id, called.id, "invoice");
    const order = await book(course.id, moved.id, "invoice");
    await database()
      .db.update(courseDates)
      .set({ state: "cancelled" })
      .where(eq(courseDates.id, called.id));

    expect(await sendDueReminders()).toBe(1);
    const first = await mailsOfKind("course_date_reminder");
    expect(first.map((m) => m.orderId)).toEqual([order.id]);

    // Moved a few hours later, still in its seventh day before: reminded again, for the new start.
    const later = new Date(soon.getTime() + 5 * HOUR);
    await database()
      .db.update(courseDates)
      .set({ startsAt: later, endsAt: new Date(later.getTime() + 7 * HOUR), sequence: 1 })
      .where(eq(courseDates.id, moved.id));
    expect(await sendDueReminders()).toBe(1);
    expect(await sendDueReminders()).toBe(0);
    const reminders = await mailsOfKind("course_date_reminder");
    expect(reminders).toHaveLength(2);
    const events = reminders.map((m) => parse(m.calendar!));
    expect(events.map((e) => e.sequence).sort()).toEqual([0, 1]);
    expect(new Set(events.map((e) => e.uid)).size).toBe(1);
    expect(events.map((e) => e.start.toJSDate().getTime()).sort((a, b) => a - b)).toEqual([
      soon.getTime(),
      later.getTime(),
    ]);

    // Moved to the day before: the one-day reminder, once.
    const tomorrow = fromNow(20 * HOUR);
    await database()
      .db.update(courseDates)
      .set({
        startsAt: tomorrow,
        endsAt: new Date(tomorrow.getTime() + 7 * HOUR),
        bookingClosesAt: tomorrow,
      })
      .where(eq(courseDates.id, moved.id));
    expect(await sendDueReminders()).toBe(1);
    expect(await sendDueReminders()).toBe(0);
    const claims = await database()
      .db.select({ daysBefore: courseDateReminders.daysBefore })
      .from(courseDateReminders)
      .where(eq(courseDateReminders.courseDateId, moved.id));
    expect(claims.map((c) => c.daysBefore).sort()).toEqual([1, 7, 7]);
  });
});
