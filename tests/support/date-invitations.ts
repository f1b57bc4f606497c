import ICAL from "ical.js";
import type { CheckoutValues } from "#app/lib/checkout.ts";
import type { PaymentMethod } from "#app/lib/orders/orders.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { BILLING } from "#tests/support/checkout.ts";

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
