/**
 * The site's navigation from published courses: the header's Training dropdown (grouped, newest
 * first), the footer/home keyword rule for promoted courses, and the layout's loader of both
 * (docs/rules.md, Catalogue and courses); a failure leaves the menus empty rather than the page
 * broken.
 */
import { and, desc, eq } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { categories, coursePartners, courses } from "../db/schema.ts";
import { logFailure } from "../db/errors.server.ts";
import {
  type FooterCourse,
  MENU_COURSES_PER_GROUP,
  type MenuCourse,
  type TrainingMenu,
} from "#app/lib/catalogue/navigation.ts";

/**
 * Groups published courses (already newest first) for the header's Training dropdown: the newest
 * `perGroup` of each group, and how many more each has.
 */
export function groupTrainingMenu(
  list: MenuCourse[],
  perGroup: number = MENU_COURSES_PER_GROUP,
): TrainingMenu {
  const exclusive: MenuCourse[] = [];
  const byPartner = new Map<string, MenuCourse[]>();
  for (const course of list) {
    if (!course.partnerName) {
      exclusive.push(course);
      continue;
    }
    const group = byPartner.get(course.partnerName) ?? [];
    group.push(course);
    byPartner.set(course.partnerName, group);
  }
  return {
    exclusive: exclusive.slice(0, perGroup),
    exclusiveMore: Math.max(0, exclusive.length - perGroup),
    partners: [...byPartner].map(([partnerName, courses]) => ({
      partnerName,
      courses: courses.slice(0, perGroup),
      more: Math.max(0, courses.length - perGroup),
    })),
  };
}

/**
 * The footer and home page promote the provider's own fraud and security courses:
 * no partner, and the category or title mentions fraud, or the title mentions OSINT or security.
 */
export function isPromotedTrainingCourse(course: {
  title: string;
  partnerName: string | null;
  categoryName: string | null;
}): boolean {
  if (course.partnerName) return false;
  const title = course.title.toLowerCase();
  const category = (course.categoryName ?? "").toLowerCase();
  return (
    category.includes("fraud") ||
    title.includes("fraud") ||
    title.includes("osint") ||
    title.includes("security")
  );
}

export const FOOTER_COURSE_LIMIT = 5;

export async function listMenuCourses(): Promise<MenuCourse[]> {
  return db()
    .select({ title: courses.title, slug: courses.slug, partnerName: coursePartners.name })
    .from(courses)
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id))
    .where(eq(courses.status, "published"))
    .orderBy(desc(courses.createdAt), courses.id);
}

export interface PromotedCourse {
  id: string;
  title: string;
  slug: string;
  shortDescription: string | null;
  price: string | null;
  durationHours: number | null;
  thumbnailUrl: string | null;
  externalLink: string | null;
  categoryName: string | null;
  partnerName: string | null;
}

/** Published partner-less courses matching the keyword rule, newest first. */
export async function listPromotedCourses(limit?: number): Promise<PromotedCourse[]> {
  const rows = await db()
    .select({
      id: courses.id,
      title: courses.title,
      slug: courses.slug,
      shortDescription: courses.shortDescription,
      price: courses.price,
      durationHours: courses.durationHours,
      thumbnailUrl: courses.thumbnailUrl,
      externalLink: courses.externalLink,
      categoryName: categories.name,
      partnerName: coursePartners.name,
    })
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id))
    .where(and(eq(courses.status, "published")))
    .orderBy(desc(courses.createdAt), courses.id);
  const promoted = rows.filter(isPromotedTrainingCourse);
  return limit === undefined ? promoted : promoted.slice(0, limit);
}

export interface SiteNavigation {
  trainingMenu: TrainingMenu;
  footerCourses: FooterCourse[];
}

/** What the header and footer show. A failed read is logged and leaves both empty. */
export async function loadSiteNavigation(): Promise<SiteNavigation> {
  try {
    const [menu, promoted] = await Promise.all([
      listMenuCourses(),
      listPromotedCourses(FOOTER_COURSE_LIMIT),
    ]);
    return {
      trainingMenu: groupTrainingMenu(menu),
      footerCourses: promoted.map(({ title, slug }) => ({ title, slug })),
    };
  } catch (error) {
    logFailure(error, {}, "could not load the site navigation courses");
    return { trainingMenu: { exclusive: [], exclusiveMore: 0, partners: [] }, footerCourses: [] };
  }
}
