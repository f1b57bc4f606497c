import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { isUuid } from "../db/sql.server.ts";
import { categories, courseDates, coursePartners, courses } from "../db/schema.ts";
import type { CheckoutCourse } from "#app/lib/checkout.ts";
import { isSlug } from "#app/lib/catalogue/slug.ts";
import {
  EXCLUSIVE_FILTER_VALUE,
  type CatalogueCourse,
  type CatalogueFilter,
  type PartnerBadge,
  type PublishedCourse,
} from "#app/lib/catalogue/catalogue.ts";
import { isPurchasable, priceToPence } from "../orders/pricing.server.ts";
import { courseArtworkUrl } from "./course-artwork.server.ts";

/**
 * Courses as the public site reads them (docs/rules.md, Catalogue and courses): published ones for
 * the catalogue and course pages, the checkout's course priced through the order pricing rules, the
 * sitemap, and a course's picture. The menus: navigation.server.ts.
 */

/* ------------------------------------------------------------------------------------------ */
/* Catalogue (/services/counter-fraud-training) and course page (/courses/{slug}).             */

/** Reads the catalogue's `?partner=` value: absent, empty or 'all' → all; 'exclusive' → no partner.
 */
export function parseCatalogueFilter(value: string | null | undefined): CatalogueFilter {
  const trimmed = (value ?? "").trim();
  if (trimmed === "" || trimmed.toLowerCase() === "all") return { kind: "all" };
  if (trimmed.toLowerCase() === EXCLUSIVE_FILTER_VALUE) return { kind: "exclusive" };
  return { kind: "partner", name: trimmed };
}

/** The query value that selects a filter (absent for 'all', so the plain URL is canonical). */
export function catalogueFilterValue(filter: CatalogueFilter): string | null {
  if (filter.kind === "all") return null;
  return filter.kind === "exclusive" ? EXCLUSIVE_FILTER_VALUE : filter.name;
}

const sameName = (a: string, b: string) =>
  a.localeCompare(b, "en-GB", { sensitivity: "accent" }) === 0;

/** Keeps the courses a filter selects; a partner name matches regardless of letter case. */
export function filterCatalogue<T extends { partnerName: string | null }>(
  list: readonly T[],
  filter: CatalogueFilter,
): T[] {
  switch (filter.kind) {
    case "all":
      return [...list];
    case "exclusive":
      return list.filter((course) => !course.partnerName);
    case "partner":
      return list.filter(
        (course) => course.partnerName !== null && sameName(course.partnerName, filter.name),
      );
  }
}

const byTitle = (a: { title: string }, b: { title: string }) =>
  a.title.localeCompare(b.title, "en-GB");

/**
 * Orders the cards by title (en-GB collation); in the no-partner filter, partner-less courses
 * come first. The sort is stable, so equal titles keep the newest-first order they came in.
 */
export function sortCatalogue<T extends { title: string; partnerName: string | null }>(
  list: readonly T[],
  filter: CatalogueFilter,
): T[] {
  if (filter.kind !== "exclusive") return [...list].sort(byTitle);
  return [...list].sort(
    (a, b) => Number(Boolean(a.partnerName)) - Number(Boolean(b.partnerName)) || byTitle(a, b),
  );
}

/** One radio option per partner that has a published course, alphabetically. */
export function cataloguePartnerNames(list: readonly { partnerName: string | null }[]): string[] {
  const names = new Map<string, string>();
  for (const { partnerName } of list) {
    if (!partnerName) continue;
    const key = partnerName.toLocaleLowerCase("en-GB");
    if (!names.has(key)) names.set(key, partnerName);
  }
  return [...names.values()].sort((a, b) => a.localeCompare(b, "en-GB"));
}

/** The card badge: CIFAS's own badge for any partner whose name mentions Cifas, in any case. */
export function partnerBadge(partnerName: string | null | undefined): PartnerBadge {
  if (!partnerName) return { kind: "exclusive" };
  if (partnerName.toLowerCase().includes("cifas")) return { kind: "cifas" };
  return { kind: "partner", name: partnerName };
}

export interface Catalogue {
  /** The filter in force; a partner name is spelled as the partner is (when one matches). */
  filter: CatalogueFilter;
  partnerNames: string[];
  courses: CatalogueCourse[];
}

/** Every published course with category and partner name, newest first. */
export async function listPublishedCatalogueCourses(): Promise<CatalogueCourse[]> {
  return db()
    .select({
      id: courses.id,
      slug: courses.slug,
      title: courses.title,
      shortDescription: courses.shortDescription,
      thumbnailUrl: courses.thumbnailUrl,
      price: courses.price,
      durationHours: courses.durationHours,
      categoryName: categories.name,
      partnerName: coursePartners.name,
      partnerLogoUrl: coursePartners.logoUrl,
      createdAt: courses.createdAt,
      // The soonest scheduled date still to start (an index read per course).
      nextDateStartsAt: sql<Date | null>`(select min(${courseDates.startsAt}) from ${courseDates}
        where ${courseDates.courseId} = ${courses.id} and ${courseDates.state} = 'scheduled'
          and ${courseDates.startsAt} > now())`.mapWith(courseDates.startsAt),
    })
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id))
    .where(eq(courses.status, "published"))
    .orderBy(desc(courses.createdAt), courses.id);
}

/** The catalogue page: the courses the `?partner=` filter selects, in display order. */
export async function listCatalogue({ partner }: { partner?: string | null }): Promise<Catalogue> {
  const all = await listPublishedCatalogueCourses();
  const partnerNames = cataloguePartnerNames(all);
  let filter = parseCatalogueFilter(partner);
  if (filter.kind === "partner") {
    const { name } = filter;
    filter = { kind: "partner", name: partnerNames.find((n) => sameName(n, name)) ?? name };
  }
  return { filter, partnerNames, courses: sortCatalogue(filterCatalogue(all, filter), filter) };
}

/**
 * A course's own text, picture and price: what its public page and its admin form
 * (`course-admin.server.ts`) both read, so a column added to both is added once.
 */
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
  audience: courses.audience,
  learningOutcomes: courses.learningOutcomes,
  prerequisites: courses.prerequisites,
  formatDetails: courses.formatDetails,
  cpdHours: courses.cpdHours,
};

export type PublishedCourseLookup =
  | { kind: "found"; course: PublishedCourse }
  /** The value was a course id: send the visitor to the slug URL (301). */
  | { kind: "redirect"; slug: string }
  | { kind: "not_found" };

async function selectPublishedCourse(where: SQL): Promise<PublishedCourse | undefined> {
  const [row] = await db()
    .select({
      ...courseDetailColumns,
      externalLink: courses.externalLink,
      categoryName: categories.name,
      partnerId: coursePartners.id,
      partnerName: coursePartners.name,
      partnerPurchaseUrl: coursePartners.purchaseUrl,
      partnerWebsiteUrl: coursePartners.websiteUrl,
      partnerLogoUrl: coursePartners.logoUrl,
      createdAt: courses.createdAt,
      updatedAt: courses.updatedAt,
    })
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .leftJoin(coursePartners, eq(courses.partnerId, coursePartners.id))
    .where(and(where, eq(courses.status, "published")))
    .limit(1);
  if (!row) return undefined;
  const {
    partnerId,
    partnerName,
    partnerPurchaseUrl,
    partnerWebsiteUrl,
    partnerLogoUrl,
    ...course
  } = row;
  return {
    ...course,
    partner:
      partnerId && partnerName !== null
        ? {
            id: partnerId,
            name: partnerName,
            purchaseUrl: partnerPurchaseUrl,
            websiteUrl: partnerWebsiteUrl,
            logoUrl: partnerLogoUrl,
          }
        : null,
  };
}

/**
 * A published course by slug; failing that, when the value is a course id, the slug to
 * redirect to (an id URL is replaced by the slug URL). Drafts and archived courses
 * are never found.
 */
export async function findPublishedCourse(slugOrId: string): Promise<PublishedCourseLookup> {
  // Anything else in the URL (a NUL byte, say) could not name a course and must not reach SQL.
  if (!isSlug(slugOrId) && !isUuid(slugOrId)) return { kind: "not_found" };
  const bySlug = await selectPublishedCourse(eq(courses.slug, slugOrId));
  if (bySlug) return { kind: "found", course: bySlug };
  if (!isUuid(slugOrId)) return { kind: "not_found" };
  const byId = await selectPublishedCourse(eq(courses.id, slugOrId.toLowerCase()));
  return byId ? { kind: "redirect", slug: byId.slug } : { kind: "not_found" };
}

/* ------------------------------------------------------------------------------------------ */
/* Checkout (/courses/{slug}/checkout) and its success and canceled pages.                      */

/**
 * Whether a published course's page offers 'Book an Online Course' (the checkout sells it): the
 * same rule as the checkout's, so the page never links to a checkout that is not found.
 */
export function isBookableOnline(course: {
  price: string | null;
  partner: { id: string } | null;
}): boolean {
  return isPurchasable({
    status: "published",
    price: course.price,
    partnerId: course.partner?.id ?? null,
  });
}

/** The published course a checkout page sells, or null. */
export async function findCheckoutCourse(
  slug: string,
): Promise<(CheckoutCourse & { coursePrice: string | null }) | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db()
    .select({
      id: courses.id,
      slug: courses.slug,
      title: courses.title,
      thumbnailUrl: courses.thumbnailUrl,
      categoryName: categories.name,
      durationHours: courses.durationHours,
      price: courses.price,
      status: courses.status,
      partnerId: courses.partnerId,
    })
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .where(and(eq(courses.slug, slug), eq(courses.status, "published")))
    .limit(1);
  // A partner's course or one without a price has no checkout: a typed-in URL is not found.
  if (!row || !isPurchasable(row)) return null;
  const { price, status: _status, partnerId: _partnerId, categoryName: _category, ...course } = row;
  // The order summary shows the course's picture: its thumbnail, else its generated artwork.
  return {
    ...course,
    thumbnailUrl: coursePicture(row).url,
    unitPriceCents: priceToPence(price)!,
    coursePrice: price,
  };
}

/**
 * Title and slug of a published course by slug, for the checkout's return pages: like every
 * course page, they answer not found for a draft or archived course, whose title is not public.
 */
export async function findPublishedCourseTitle(
  slug: string,
): Promise<{ id: string; slug: string; title: string } | null> {
  if (!isSlug(slug)) return null;
  const [row] = await db()
    .select({ id: courses.id, slug: courses.slug, title: courses.title })
    .from(courses)
    .where(and(eq(courses.slug, slug), eq(courses.status, "published")))
    .limit(1);
  return row ?? null;
}

/**
 * A course's picture: its uploaded thumbnail when it has one (and the URL may be shown), else its
 * generated artwork (`server/catalogue/course-artwork.server.ts`).
 */
export function coursePicture(course: {
  slug: string;
  title: string;
  categoryName: string | null;
  thumbnailUrl: string | null;
}): { url: string; generated: boolean } {
  const thumbnail = publicUrlOrNull(course.thumbnailUrl);
  return thumbnail
    ? { url: thumbnail, generated: false }
    : { url: courseArtworkUrl(course), generated: true };
}

/** What a published course's generated artwork is drawn from, by slug; null when not found. */
export async function findArtworkCourse(
  slug: string,
): Promise<{ slug: string; title: string; categoryName: string | null } | null> {
  // As the course page: anything that could not be a slug is not found without a query.
  if (!isSlug(slug)) return null;
  const [row] = await db()
    .select({ slug: courses.slug, title: courses.title, categoryName: categories.name })
    .from(courses)
    .leftJoin(categories, eq(courses.categoryId, categories.id))
    .where(and(eq(courses.slug, slug), eq(courses.status, "published")))
    .limit(1);
  return row ?? null;
}

/** Published course URLs for the sitemap, with the date each last changed. */
export async function listSitemapCourses(): Promise<{ slug: string; updatedAt: Date }[]> {
  return db()
    .select({ slug: courses.slug, updatedAt: courses.updatedAt })
    .from(courses)
    .where(eq(courses.status, "published"))
    .orderBy(desc(courses.createdAt), courses.id);
}

/**
 * Admin-entered URLs (thumbnails, logos, purchase links) become links and images on public
 * pages only when they are absolute web URLs or paths on this site.
 */
export function publicUrlOrNull(value: string | null | undefined): string | null {
  const url = (value ?? "").trim();
  if (/^https?:\/\/[^\s]+$/i.test(url)) return url;
  if (/^\/(?![/\\])\S*$/.test(url)) return url;
  return null;
}

/** A partner's logo for the public pages: its name and URL, when it has one that may be shown. */
export function partnerLogo(
  partnerName: string | null | undefined,
  logoUrl: string | null | undefined,
): { name: string; url: string } | null {
  const url = publicUrlOrNull(logoUrl);
  return partnerName && url ? { name: partnerName, url } : null;
}

/** A partner course's 'Buy Now' target: the partner's purchase URL, else the course's own link. */
export function courseBuyUrl(course: {
  externalLink: string | null;
  partner: { purchaseUrl: string | null } | null;
}): string | null {
  if (!course.partner) return null;
  return publicUrlOrNull(course.partner.purchaseUrl) ?? publicUrlOrNull(course.externalLink);
}
