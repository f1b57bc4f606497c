import ICAL from "ical.js";
import type { CheckoutValues } from "#app/lib/checkout.ts";
import type { PaymentMethod } from "#app/lib/orders/orders.ts";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { db } from "#server/db/client.server.ts";
import { emailOutbox } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { BILLING } from "#tests/support/checkout.ts";
import { ADMIN } from "#tests/support/orders.ts";

/**
 * Dated bookings and their calendar invitations in server tests: an iCalendar text read back
 * with an independent parser (ical.js), and a booking of a date as the checkout places it.
 */

/** The one VEVENT of an iCalendar text, parsed by ical.js, with the calendar's METHOD. */
export function parse(text: string) {
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
export async function book(
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

/** An order invoiced and then paid by staff, each step allowed. */
export async function paid(orderId: string) {
  expect((await changeOrderStatusByAdmin(orderId, "invoiced", ADMIN)).ok).toBe(true);
  expect((await changeOrderStatusByAdmin(orderId, "paid", ADMIN)).ok).toBe(true);
}

/** The queued e-mails of a kind, by recipient. */
export async function mailsOfKind(kind: string) {
  return db()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.kind, kind))
    .orderBy(emailOutbox.toAddress);
}

/** An online date's place: no venue, a joining link. */
export const onlineDate = {
  format: "online" as const,
  venueName: null,
  venueTown: null,
  venueAddress: null,
  joiningDetails: "Teams: https://meet.example.com/room-42",
};
