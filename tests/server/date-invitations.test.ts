import { and, eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import type { CheckoutValues } from "#app/lib/checkout.ts";
import type { PaymentMethod } from "#app/lib/orders/orders.ts";
import {
  dateChangedEmails,
  invitationFor,
  invitationUid,
} from "#server/catalogue/date-invitations.server.ts";
import { dueReminder, sendDueReminders } from "#server/catalogue/date-reminders.server.ts";
import { config, loadConfig } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { courseDateReminders, courseDates, emailOutbox } from "#server/db/schema.ts";
import { queueEmails } from "#server/email/outbox.server.ts";
import { OutboxWorker, smtpMailer } from "#server/email/worker.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { BILLING } from "#tests/support/checkout.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse, insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN } from "#tests/support/orders.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";

/**
 * Calendar invitations and reminders for dated bookings (decision 0033): the iCalendar text is
 * read back with an independent parser (ical.js); joining details of a paid dated order carry
 * it; reminders go once per date, days before and start — also when passes run at once — and
 * only to students of sold orders of scheduled dates; the worker sends it as invite.ics.
 */
const database = useFreshDatabase();

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** `ms` from now, in whole seconds (what an iCalendar time can carry; staff type minutes). */
const fromNow = (ms: number) => new Date(Math.floor((Date.now() + ms) / 1000) * 1000);

let sink: SmtpSink | undefined;
const workers: OutboxWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  await sink?.close();
  sink = undefined;
});

/** The one VEVENT of an iCalendar text, parsed by ical.js, with the calendar's METHOD. */
function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const vevent = calendar.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  const time = (name: string) => vevent.getFirstPropertyValue(name) as ICAL.Time;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    summary: event.summary,
    location: event.location,
    description: event.description,
    status: vevent.getFirstPropertyValue("status"),
    start: time("dtstart"),
    end: time("dtend"),
    organizer: String(vevent.getFirstPropertyValue("organizer")),
    attendees: vevent.getAllProperties("attendee").map((a) => String(a.getFirstValue())),
  };
}

let buyerNumber = 0;

/**
 * A booking of `dateId` through createOrder as the checkout places it: for the buyer
 * (`students` empty) or for the named students, by invoice or card. Each buyer has an address of
 * their own (the per-recipient limit holds a fourth confirmation to one address as spam).
 */
async function book(
  courseId: string,
  dateId: string,
  paymentMethod: PaymentMethod,
  students: { firstName: string; lastName: string; email: string }[] = [],
) {
  buyerNumber += 1;
  const values: CheckoutValues = {
    buyer: {
      firstName: "Buyer",
      lastName: `Number${buyerNumber}`,
      email: `buyer${buyerNumber}@example.com`,
      phone: "",
      company: "Analytical Engines Ltd",
    },
    billing: BILLING,
    termsAccepted: true,
    studentMode: students.length ? "others" : "self",
    quantity: Math.max(1, students.length),
    students,
  };
  const result = await createOrder({ courseId, courseDateId: dateId, paymentMethod, values });
  if (!result.ok) throw new Error(`the booking was refused: ${result.reason}`);
  return result.order;
}

async function paid(orderId: string) {
  expect((await changeOrderStatusByAdmin(orderId, "invoiced", ADMIN)).ok).toBe(true);
  expect((await changeOrderStatusByAdmin(orderId, "paid", ADMIN)).ok).toBe(true);
}

async function mailsOfKind(kind: string) {
  return database()
    .db.select()
    .from(emailOutbox)
    .where(eq(emailOutbox.kind, kind))
    .orderBy(emailOutbox.toAddress);
}

const onlineDate = {
  format: "online" as const,
  venueName: null,
  venueTown: null,
  venueAddress: null,
  joiningDetails: "Teams: https://meet.example.com/room-42",
};

describe("calendar invitations", () => {
  it("read back by another parser: stable UID per date and student, UTC times, sequence, REQUEST and CANCEL", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, {
      startsAt: new Date("2030-03-05T09:30:00Z"),
      endsAt: new Date("2030-03-05T16:30:00Z"),
      bookingClosesAt: new Date("2030-03-05T09:30:00Z"),
      sequence: 3,
    });
    const ada = { firstName: "Ada", lastName: "Lovelace", email: "Ada@Example.com" };
    const grace = { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" };
    const first = parse(invitationFor(date, course.title, ada, { method: "REQUEST" }));
    const again = parse(invitationFor(date, course.title, ada, { method: "REQUEST" }));
    const other = parse(invitationFor(date, course.title, grace, { method: "REQUEST" }));
    const host = new URL(config.publicUrl).hostname;

    expect(first.uid).toBe(again.uid);
    expect(first.uid).not.toBe(other.uid);
    expect(first.uid).toBe(invitationUid(date.id, "ada@example.com"));
    expect(first.uid).toMatch(
      new RegExp(`^${date.id}-[0-9a-f]{16}@${host.replace(/\./g, "\\.")}$`),
    );
    // The address is not in the UID (the date's random id may hold any letters, "ada" too).
    expect(first.uid.toLowerCase()).not.toMatch(/ada@|example\.com/);

    expect(first.start.zone?.tzid).toBe("UTC");
    expect(first.end.zone?.tzid).toBe("UTC");
    expect(first.start.toJSDate().getTime()).toBe(date.startsAt.getTime());
    expect(first.end.toJSDate().getTime()).toBe(date.endsAt.getTime());
    expect(first.sequence).toBe(3);
    expect(first.method).toBe("REQUEST");
    expect(first.status).toBe("CONFIRMED");
    expect(first.summary).toBe(course.title);
    expect(first.location).toBe("Training Suite, 1 Example Street, London EC1A 1AA");
    expect(first.organizer.toLowerCase()).toBe(`mailto:${config.mailReplyTo}`.toLowerCase());
    expect(first.attendees.map((a) => a.toLowerCase())).toEqual(["mailto:ada@example.com"]);

    const cancel = parse(
      invitationFor({ ...date, sequence: 4 }, course.title, ada, { method: "CANCEL" }),
    );
    expect(cancel).toMatchObject({
      method: "CANCEL",
      status: "CANCELLED",
      uid: first.uid,
      sequence: 4,
    });
  });

  it("an online date is 'Online' with how to join in the description; a typed name cannot break the text", async () => {
    const course = await insertCourse({ title: 'Fraud; "Advanced", Part 2' });
    const date = await insertCourseDate(course.id, onlineDate);
    const text = invitationFor(
      date,
      course.title,
      {
        firstName: 'Eve "x";\r\nMETHOD:CANCEL',
        lastName: "O'Neil:mailto",
        email: "eve@example.com",
      },
      { method: "REQUEST" },
    );
    const event = parse(text);
    expect(event.method).toBe("REQUEST");
    expect(event.location).toBe("Online");
    expect(event.summary).toBe(course.title);
    expect(event.description).toContain("How to join:\nTeams: https://meet.example.com/room-42");
    expect(text.match(/^METHOD:/gm)).toHaveLength(1);
    expect(event.attendees).toHaveLength(1);
  });

  it("a paid dated order queues each student's joining details with their invitation", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, onlineDate);
    const students = [
      { firstName: "Student", lastName: "One", email: "one@example.com" },
      { firstName: "Student", lastName: "Two", email: "two@example.com" },
    ];
    const order = await book(course.id, date.id, "invoice", students);
    await paid(order.id);
    const joining = await mailsOfKind("course_joining_details");
    expect(joining.map((m) => m.toAddress)).toEqual(["one@example.com", "two@example.com"]);
    for (const mail of joining) {
      expect(mail.calendar).toBeTruthy();
      const event = parse(mail.calendar!);
      expect(event).toMatchObject({
        method: "REQUEST",
        uid: invitationUid(date.id, mail.toAddress),
        sequence: 0,
        location: "Online",
      });
      expect(event.attendees.map((a) => a.toLowerCase())).toEqual([`mailto:${mail.toAddress}`]);
    }
    // Nothing else of the order carries an invitation.
    const others = await database()
      .db.select({ kind: emailOutbox.kind, calendar: emailOutbox.calendar })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.orderId, order.id),
          sql`${emailOutbox.kind} <> 'course_joining_details'`,
        ),
      );
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((m) => m.calendar === null)).toBe(true);
  });

  it("a changed or cancelled date: an updated invitation (or the cancellation) to each booked student", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id);
    await book(course.id, date.id, "invoice", [
      { firstName: "A", lastName: "One", email: "a@example.com" },
      { firstName: "B", lastName: "Two", email: "b@example.com" },
    ]);
    // The same student booked again by someone else: one letter.
    await book(course.id, date.id, "invoice", [
      { firstName: "A", lastName: "One", email: "A@Example.com" },
      { firstName: "C", lastName: "Three", email: "c@example.com" },
    ]);
    // A card checkout still open is not a booking yet.
    await book(course.id, date.id, "stripe");
    await database()
      .db.update(courseDates)
      .set({ venueName: "New Suite", sequence: 1 })
      .where(eq(courseDates.id, date.id));
    const updated = await database().db.transaction((tx) =>
      dateChangedEmails(tx, date.id, { cancelled: false }),
    );
    expect(updated.map((m) => m.to).sort()).toEqual([
      "a@example.com",
      "b@example.com",
      "c@example.com",
    ]);
    for (const mail of updated) {
      expect(mail.kind).toBe("course_date_updated");
      expect(mail.text).toContain("New Suite");
      expect(parse(mail.calendar!)).toMatchObject({
        method: "REQUEST",
        sequence: 1,
        uid: invitationUid(date.id, String(mail.to)),
      });
    }
    await database().db.update(courseDates).set({ sequence: 2 }).where(eq(courseDates.id, date.id));
    const cancelled = await database().db.transaction((tx) =>
      dateChangedEmails(tx, date.id, { cancelled: true }),
    );
    expect(cancelled).toHaveLength(3);
    for (const mail of cancelled) {
      expect(mail.kind).toBe("course_date_cancelled");
      expect(parse(mail.calendar!)).toMatchObject({
        method: "CANCEL",
        status: "CANCELLED",
        sequence: 2,
        uid: invitationUid(date.id, String(mail.to)),
      });
    }
  });

  it("the worker sends a message's invitation as invite.ics, typed with its method", async () => {
    sink = await startSmtpSink();
    const course = await insertCourse();
    const date = await insertCourseDate(course.id);
    const student = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };
    const calendars = {
      REQUEST: invitationFor(date, course.title, student, { method: "REQUEST" }),
      CANCEL: invitationFor(date, course.title, student, { method: "CANCEL" }),
    };
    await queueEmails(
      db(),
      Object.entries(calendars).map(([method, calendar]) => ({
        kind: `test_${method}`,
        to: "ada@example.com",
        subject: method,
        html: "<p>Hi</p>",
        text: "Hi",
        calendar,
      })),
    );
    const w = new OutboxWorker({ mailer: smtpMailer(sink.url) });
    workers.push(w);
    while ((await w.runOnce()) > 0) {
      // until nothing is due
    }
    expect(sink.messages).toHaveLength(2);
    for (const message of sink.messages) {
      const method = message.parsed.subject as keyof typeof calendars;
      expect(message.parsed.text?.trim()).toBe("Hi");
      const invites = message.parsed.attachments.filter((a) => a.filename === "invite.ics");
      expect(invites).toHaveLength(1);
      const [invite] = invites;
      expect(invite!.contentType).toBe("text/calendar");
      expect(message.raw).toMatch(
        new RegExp(`Content-Type: text/calendar; charset=utf-8; method=${method}`, "i"),
      );
      expect(invite!.content.toString("utf8")).toBe(calendars[method]);
      expect(parse(invite!.content.toString("utf8")).method).toBe(method);
    }
  });
});

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
