/**
 * Rows the server tests insert directly, one factory per table instead of a copy in each test
 * file. Each writes through the current test database (`useFreshDatabase`) and returns the row.
 */
import { db } from "#server/db/client.server.ts";
import { courseDates, courses } from "#server/db/schema.ts";

export type CourseValues = Partial<typeof courses.$inferInsert>;

/** A published course (a 14-hour OSINT masterclass at £1,450 unless `values` say otherwise). */
export async function insertCourse(
  values: CourseValues = {},
): Promise<typeof courses.$inferSelect> {
  const [course] = await db()
    .insert(courses)
    .values({
      slug: "osint-masterclass",
      title: "OSINT Investigations Masterclass",
      status: "published",
      price: "1450.00",
      durationHours: 14,
      ...values,
    })
    .returning();
  return course!;
}

export type CourseDateValues = Partial<typeof courseDates.$inferInsert>;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A scheduled classroom date of `courseId` for 12 people in London, 30 days from now, 09:30–16:30
 * (booking open until it starts) unless `values` say otherwise.
 */
export async function insertCourseDate(
  courseId: string,
  values: CourseDateValues = {},
): Promise<typeof courseDates.$inferSelect> {
  const startsAt = values.startsAt ?? new Date(Date.now() + 30 * DAY_MS);
  const [date] = await db()
    .insert(courseDates)
    .values({
      courseId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 7 * 60 * 60 * 1000),
      format: "classroom",
      venueName: "Training Suite",
      venueTown: "London",
      venueAddress: "1 Example Street, London EC1A 1AA",
      capacity: 12,
      bookingClosesAt: startsAt,
      ...values,
    })
    .returning();
  return date!;
}
