import { asc, desc, eq, sql } from "drizzle-orm";
import {
  TRAINERS_INVALID,
  type AdminCourse,
  type CourseFormValues,
} from "#app/lib/catalogue/course-form.ts";
import { isSlugVariant, slugify } from "#app/lib/catalogue/slug.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { catalogueChanged, InvalidInputError, writeWithUniqueSlug } from "./write.server.ts";
import { courseDetailColumns } from "./courses.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { isForeignKeyViolation } from "../db/errors.server.ts";
import { categories, coursePartners, courses, courseTrainers } from "../db/schema.ts";
import { sanitizeCourseHtml } from "../html.server.ts";
import { discardImage, storeImage } from "../uploads.server.ts";

export { onCatalogueChange } from "./write.server.ts";

/**
 * Courses as the admin maintains them (docs/rules.md, Catalogue and courses). Content HTML is
 * sanitised here, on save, with the same allow-list the public pages apply when rendering. A
 * thumbnail is stored in thumbnails/; replacing or removing it, or deleting the course, deletes
 * the old file. The course's trainers are saved with it, in the order chosen, in its transaction.
 */

export const COURSE_SLUG_TAKEN = "Another course already uses this slug";

/** Where a course's slug is kept unique, and what the admin is told when a typed one is taken. */
const courseSlugs = {
  columns: courses,
  constraint: "courses_slug_unique",
  takenMessage: COURSE_SLUG_TAKEN,
};

const CATEGORY_GONE = "Please choose a category from the list";
const PARTNER_GONE = "Please choose a partner from the list";

const adminColumns = {
  ...courseDetailColumns,
  status: courses.status,
  deliveryType: courses.deliveryType,
  groupType: courses.groupType,
  featured: courses.featured,
  categoryId: courses.categoryId,
  categoryName: categories.name,
  partnerId: courses.partnerId,
  partnerName: coursePartners.name,
  externalLink: courses.externalLink,
  // The trainers in their order, in the same query (no query per course).
  trainerIds: sql<string[]>`(select coalesce(json_agg(${courseTrainers.trainerId}
    order by ${courseTrainers.position}), '[]'::json) from ${courseTrainers}
    where ${courseTrainers.courseId} = ${courses.id})`,
  createdAt: courses.createdAt,
  updatedAt: courses.updatedAt,
};

function selectAdminCourses() {
  return db()
    .select(adminColumns)
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id));
}

/** Every course, any status, with category and partner names: partner-less first, then newest. */
export async function listAdminCourses(): Promise<AdminCourse[]> {
  return selectAdminCourses().orderBy(
    sql`${courses.partnerId} is not null`,
    desc(courses.createdAt),
    desc(courses.id),
  );
}

export async function getAdminCourse(id: string): Promise<AdminCourse | null> {
  const [row] = await selectAdminCourses().where(eq(courses.id, id));
  return row ?? null;
}

type CourseRow = typeof courses.$inferSelect;
/** A course as the audit log sees it: its row and its trainers in order. */
type CourseAuditRow = CourseRow & { trainerIds: string[] };

/**
 * What the audit log records of a course: its fields as the admin sets them (a status change or
 * a new thumbnail shows as `status` / `thumbnailUrl`); not its timestamps.
 */
const COURSE_AUDIT_FIELDS = [
  "title",
  "slug",
  "status",
  "price",
  "durationHours",
  "deliveryType",
  "groupType",
  "featured",
  "categoryId",
  "partnerId",
  "externalLink",
  "thumbnailUrl",
  "shortDescription",
  "description",
  "content",
  "audience",
  "learningOutcomes",
  "prerequisites",
  "formatDetails",
  "cpdHours",
  "trainerIds",
] as const satisfies readonly (keyof CourseAuditRow)[];

async function auditCourse(
  tx: Transaction,
  actor: AuditActor,
  action: "create" | "update" | "delete",
  before: CourseAuditRow | null,
  after: CourseAuditRow | null,
): Promise<void> {
  const course = (after ?? before)!;
  const entry = {
    action: `course.${action}`,
    subjectType: "course",
    subjectId: course.id,
    summary: course.title,
  } as const;
  if (action === "update") {
    const changes = changedFields(before!, after!, COURSE_AUDIT_FIELDS);
    // Saved without a change: nothing happened worth a row.
    if (changes) await recordAudit(tx, actor, { ...entry, ...changes });
    return;
  }
  const snapshot = auditSnapshot(course, COURSE_AUDIT_FIELDS);
  await recordAudit(tx, actor, {
    ...entry,
    before: action === "delete" ? snapshot : null,
    after: action === "create" ? snapshot : null,
  });
}

/** The typed slug, or one generated from the title; 'course' if the title has no letters or digits.
 */
function slugFor(values: CourseFormValues): { slug: string; typed: boolean } {
  if (values.slug) return { slug: values.slug, typed: true };
  return { slug: slugify(values.title) || "course", typed: false };
}

/** The stored form of the posted fields (everything but slug and thumbnail). */
function columns(values: CourseFormValues) {
  const content = sanitizeCourseHtml(values.content);
  return {
    title: values.title,
    shortDescription: values.short_description,
    description: values.description,
    content: content === "" ? null : content,
    price: values.price,
    durationHours: values.duration_hours,
    status: values.status,
    deliveryType: values.delivery_type,
    groupType: values.group_type,
    featured: values.featured,
    categoryId: values.category_id,
    partnerId: values.partner_id,
    externalLink: values.external_link,
    audience: values.audience,
    learningOutcomes: values.learning_outcomes,
    prerequisites: values.prerequisites,
    formatDetails: values.format_details,
    cpdHours: values.cpd_hours,
  };
}

/** A course's trainers, in order. */
async function trainerIdsOf(tx: Transaction, courseId: string): Promise<string[]> {
  const rows = await tx
    .select({ trainerId: courseTrainers.trainerId })
    .from(courseTrainers)
    .where(eq(courseTrainers.courseId, courseId))
    .orderBy(asc(courseTrainers.position));
  return rows.map((r) => r.trainerId);
}

/** Replaces a course's trainers with `ids`, in that order. */
async function setTrainers(tx: Transaction, courseId: string, ids: string[]): Promise<void> {
  await tx.delete(courseTrainers).where(eq(courseTrainers.courseId, courseId));
  if (ids.length === 0) return;
  await tx
    .insert(courseTrainers)
    .values(ids.map((trainerId, position) => ({ courseId, trainerId, position })))
    .catch(explainForeignKey);
}

/** A category or partner deleted while the form was open: the admin picks again. */
function explainForeignKey(error: unknown): never {
  if (isForeignKeyViolation(error, "courses_category_id_categories_id_fk")) {
    throw new InvalidInputError({ category_id: CATEGORY_GONE });
  }
  if (isForeignKeyViolation(error, "courses_partner_id_course_partners_id_fk")) {
    throw new InvalidInputError({ partner_id: PARTNER_GONE });
  }
  // A trainer deleted while the form was open.
  if (isForeignKeyViolation(error, "course_trainers_trainer_id_trainers_id_fk")) {
    throw new InvalidInputError({ trainer_ids: TRAINERS_INVALID });
  }
  throw error;
}

/**
 * Creates a course (status draft unless chosen). A refused thumbnail throws UploadError, a taken
 * typed slug or a vanished category/partner throws InvalidInputError; nothing is saved then.
 */
export async function createCourse(
  values: CourseFormValues,
  actor: AuditActor,
): Promise<AdminCourse> {
  const thumbnailUrl = values.thumbnail ? await storeImage("thumbnails", values.thumbnail) : null;
  const { slug, typed } = slugFor(values);
  let id: string;
  try {
    id = await writeWithUniqueSlug({
      slug,
      typed,
      ...courseSlugs,
      write: (free) =>
        db().transaction(async (tx) => {
          const [created] = await tx
            .insert(courses)
            .values({ ...columns(values), slug: free, thumbnailUrl })
            .returning()
            .catch(explainForeignKey);
          await setTrainers(tx, created!.id, values.trainer_ids);
          await auditCourse(tx, actor, "create", null, {
            ...created!,
            trainerIds: values.trainer_ids,
          });
          return created!.id;
        }),
    });
  } catch (error) {
    await discardImage(thumbnailUrl);
    throw error;
  }
  catalogueChanged();
  return (await getAdminCourse(id))!;
}

/**
 * Updates a course. A new thumbnail replaces the old one and `remove_thumbnail` clears it; the
 * old file is deleted once the row no longer points at it. An emptied slug is generated from the
 * title again (kept as it is when it already is that title's slug). Null when the course is gone.
 */
export async function updateCourse(
  id: string,
  values: CourseFormValues,
  actor: AuditActor,
): Promise<AdminCourse | null> {
  const [existing] = await db()
    .select({ slug: courses.slug, thumbnailUrl: courses.thumbnailUrl })
    .from(courses)
    .where(eq(courses.id, id));
  if (!existing) return null;
  let { slug, typed } = slugFor(values);
  if (!typed && isSlugVariant(existing.slug, slug))
    ({ slug, typed } = { slug: existing.slug, typed: true });

  const newThumbnailUrl = values.thumbnail
    ? await storeImage("thumbnails", values.thumbnail)
    : null;
  const thumbnailUrl = newThumbnailUrl ?? (values.remove_thumbnail ? null : existing.thumbnailUrl);
  let found: boolean;
  try {
    found = await writeWithUniqueSlug({
      slug,
      typed,
      ...courseSlugs,
      exceptId: id,
      write: (free) =>
        db().transaction(async (tx) => {
          // The row as it was, locked: the audit row's "before" is what this update replaced.
          const [before] = await tx.select().from(courses).where(eq(courses.id, id)).for("update");
          if (!before) return false;
          const trainersBefore = await trainerIdsOf(tx, id);
          const [updated] = await tx
            .update(courses)
            .set({ ...columns(values), slug: free, thumbnailUrl, updatedAt: new Date() })
            .where(eq(courses.id, id))
            .returning()
            .catch(explainForeignKey);
          await setTrainers(tx, id, values.trainer_ids);
          await auditCourse(
            tx,
            actor,
            "update",
            { ...before, trainerIds: trainersBefore },
            { ...updated!, trainerIds: values.trainer_ids },
          );
          return true;
        }),
    });
  } catch (error) {
    await discardImage(newThumbnailUrl);
    throw error;
  }
  if (!found) {
    await discardImage(newThumbnailUrl);
    return null;
  }
  if (existing.thumbnailUrl && existing.thumbnailUrl !== thumbnailUrl) {
    await discardImage(existing.thumbnailUrl);
  }
  catalogueChanged();
  return getAdminCourse(id);
}

/** Deletes a course and its thumbnail file. False when it did not exist. */
export async function deleteCourse(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const trainerIds = await trainerIdsOf(tx, id);
    const [row] = await tx.delete(courses).where(eq(courses.id, id)).returning();
    if (row) await auditCourse(tx, actor, "delete", { ...row, trainerIds }, null);
    return row;
  });
  if (!deleted) return false;
  await discardImage(deleted.thumbnailUrl);
  catalogueChanged();
  return true;
}
