/** Shapes the catalogue and course pages render; filled on the server by server/catalogue/courses.server.ts. */

/** The catalogue's `?partner=` filter: every course, the provider's own, or one partner's. */
export type CatalogueFilter =
  { kind: "all" } | { kind: "exclusive" } | { kind: "partner"; name: string };

/** The query value for the partner-less filter. */
export const EXCLUSIVE_FILTER_VALUE = "exclusive";

/** What a course card's badge says about who runs the course. */
export type PartnerBadge =
  { kind: "cifas" } | { kind: "partner"; name: string } | { kind: "exclusive" };

export function partnerBadgeLabel(badge: PartnerBadge): string {
  switch (badge.kind) {
    case "cifas":
      return "CIFAS Partnership";
    case "partner":
      return badge.name;
    case "exclusive":
      return "NightWatch Exclusive Course";
  }
}

export interface CatalogueCourse {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  thumbnailUrl: string | null;
  /** numeric(10,2) as the database returns it, e.g. '1450.00'. */
  price: string | null;
  durationHours: number | null;
  categoryName: string | null;
  partnerName: string | null;
  partnerLogoUrl: string | null;
  createdAt: Date;
  /** When its next scheduled date starts; null when none is to come. */
  nextDateStartsAt: Date | null;
}

export interface CoursePartner {
  id: string;
  name: string;
  purchaseUrl: string | null;
  websiteUrl: string | null;
  logoUrl: string | null;
}

export interface PublishedCourse {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  description: string | null;
  /** Rich-text HTML as stored; sanitise before rendering. */
  content: string | null;
  thumbnailUrl: string | null;
  price: string | null;
  durationHours: number | null;
  /* What a buyer decides from: plain text, shown when filled. */
  audience: string | null;
  learningOutcomes: string | null;
  prerequisites: string | null;
  formatDetails: string | null;
  /** numeric(4,1) as text, e.g. '7.5'. */
  cpdHours: string | null;
  externalLink: string | null;
  categoryName: string | null;
  partner: CoursePartner | null;
  createdAt: Date;
  updatedAt: Date;
}
