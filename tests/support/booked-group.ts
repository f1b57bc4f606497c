import { insertCourseDate } from "#tests/support/factories.ts";
import { insertCourse, placeOrder } from "#tests/support/orders.ts";

/**
 * A group's places on a course date, booked by invoice as the checkout books them, for the
 * booker's page tests (tests/server/booking-page.test.ts, student-changes.test.ts).
 */

export const DAY = 24 * 60 * 60 * 1000;

let courses = 0;

/** `quantity` places (Student1 Smith, …) on a new course's date starting at `startsAt`. */
export async function bookedGroup(quantity = 3, startsAt = new Date(Date.now() + 30 * DAY)) {
  const course = await insertCourse({
    title: "Open Source Intelligence",
    slug: `open-source-intelligence-${++courses}`,
  });
  const date = await insertCourseDate(course.id, { startsAt });
  const placed = await placeOrder(course.id, "invoice", { quantity }, date.id);
  if (!placed.ok) throw new Error("not booked");
  return { course, date, order: placed.order };
}
