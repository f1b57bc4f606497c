import { eq } from "drizzle-orm";
import type { PgSelectBase, SelectedFields } from "drizzle-orm/pg-core";
import { db } from "./db/client.server.ts";
import { categories, coursePartners, courses } from "./db/schema.ts";

/**
 * How a course is read with its names, the same way for the public pages (`courses.server.ts`)
 * and the admin (`course-admin.server.ts`): a column added to a course's page and form is added
 * once, and both read the category and partner through the same joins.
 */

/** A course's own text, picture and price: what its public page and its admin form both show. */
export const courseDetailColumns = {
  id: courses.id,
  slug: courses.slug,
  title: courses.title,
  shortDescription: courses.shortDescription,
  description: courses.description,
  content: courses.content,
  thumbnailUrl: courses.thumbnailUrl,
  price: courses.price,
  durationHours: courses.durationHours,
};

/** A course row is always there; its category and partner may not be (never chosen, or deleted). */
type WithNames = { courses: "not-null"; categories: "nullable"; course_partners: "nullable" };
type CoursesWithNames<Columns extends SelectedFields> = PgSelectBase<
  "courses",
  Columns,
  "partial",
  WithNames,
  true
>;

/**
 * Courses with their category and partner beside them, the caller's columns of the three; a
 * category's or partner's column is null where the course has none. A query the caller goes on
 * to filter and order. (Drizzle's builder cannot infer joins over columns not known yet, so the
 * type it would infer for the caller's columns is written out here.)
 */
export function selectCoursesWithNames<Columns extends SelectedFields>(
  columns: Columns,
): CoursesWithNames<Columns> {
  const fields: SelectedFields = columns;
  return db()
    .select(fields)
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id))
    .$dynamic() as unknown as CoursesWithNames<Columns>;
}
