import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  dateChangedEmails,
  invitationFor,
  invitationUid,
} from "#server/catalogue/date-invitations.server.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { courseDates, emailOutbox } from "#server/db/schema.ts";
import { queueEmails } from "#server/email/outbox.server.ts";
import { book, mailsOfKind, onlineDate, paid, parse } from "#tests/support/date-invitations.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { drain, useOutbox } from "#tests/support/outbox-worker.ts";
import { insertCourse, insertCourseDate } from "#tests/support/factories.ts";

/**
 * Calendar invitations for dated bookings (decision 0033): the iCalendar text is read back with
 * an independent parser (ical.js); joining details of a paid dated order carry it; a changed or
 * cancelled date sends an updated invitation or the cancellation; the worker sends it as
 * invite.ics. Reminders before a date starts are in date-reminders.test.ts.
 */
const database = useFreshDatabase();

const { worker, smtpSink } = useOutbox();

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
    const sink = await smtpSink();
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
    await drain(worker(sink.url));
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
