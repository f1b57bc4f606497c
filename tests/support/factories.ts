/**
 * Rows the server tests insert directly, one factory per table instead of a copy in each test
 * file. Each writes through the current test database (`useFreshDatabase`) and returns the row.
 */
import { db } from "#server/db/client.server.ts";
import { courses } from "#server/db/schema.ts";

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
