import type { CourseDateFormValues } from "#app/lib/catalogue/course-date-form.ts";
import { asc } from "drizzle-orm";
import { createCourseDate } from "#server/catalogue/course-date-admin.server.ts";
import { db } from "#server/db/client.server.ts";
import { courseDates, orders } from "#server/db/schema.ts";
import { ADMIN } from "#tests/support/orders.ts";

/**
 * Course dates as the admin enters them (decision 0033), and orders on them, for the server
 * tests of the admin side of course dates, written to the database the test made current
 * (`useFreshDatabase`).
 */

/** Before every date below: the rules' "start in the future" is measured from here. */
export const NOW = new Date("2026-01-10T12:00:00Z");

/** The form of an online date, as the Dates screen posts it (without its course). */
export const ONLINE: CourseDateFormValues = {
  course_id: "",
  starts_at: "2026-03-05T09:30",
  ends_at: "2026-03-05T16:30",
  format: "online",
  venue_name: null,
  venue_town: null,
  venue_address: null,
  joining_details: "https://meet.example.com/osint",
  schedule: null,
  capacity: 12,
  price: null,
  booking_closes_at: "",
};

export type OrderValues = {
  status: "pending" | "invoiced" | "paid" | "failed" | "canceled";
  method: "stripe" | "invoice";
  quantity: number;
  refundedCents?: number;
};

/** An order of `quantity` places at £100 on a date, as the checkout would have stored it. */
export async function insertOrder(courseId: string, dateId: string, o: OrderValues) {
  const total = 10_000 * o.quantity;
  const [row] = await db()
    .insert(orders)
    .values({
      status: o.status,
      paymentMethod: o.method,
      buyerFirstName: "Ada",
      buyerLastName: "Lovelace",
      buyerEmail: "ada@example.com",
      courseId,
      courseTitleSnapshot: "OSINT Investigations Masterclass",
      courseDateId: dateId,
      unitPriceCents: 10_000,
      quantity: o.quantity,
      netAmountCents: total,
      totalAmountCents: total,
      refundedAmountCents: o.refundedCents ?? 0,
      paidAt: o.status === "paid" ? NOW : null,
    })
    .returning();
  return row!;
}

/** A date of `courseId` created by an admin as the Dates screen does (ONLINE, then `values`). */
export async function newDate(courseId: string, values: Partial<CourseDateFormValues> = {}) {
  const result = await createCourseDate(ADMIN, { ...ONLINE, course_id: courseId, ...values }, NOW);
  if (!result.ok) throw new Error(`date refused: ${result.message}`);
  return result.date;
}

/** Every stored date, earliest first. */
export const storedDates = () => db().select().from(courseDates).orderBy(asc(courseDates.startsAt));
