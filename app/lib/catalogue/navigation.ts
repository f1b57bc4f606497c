/** Shapes the site header and footer render; filled on the server by server/catalogue/navigation.server.ts. */

export interface MenuCourse {
  title: string;
  slug: string;
  partnerName: string | null;
}

/**
 * The header lists every published course of each group (the spec's Training menu; its panel
 * scrolls when long). This bound only guards every page's weight against a runaway catalogue:
 * past it, the rest are a click away in the catalogue, filtered to the group.
 */
export const MENU_COURSES_PER_GROUP = 100;

export interface TrainingMenu {
  /** Published courses with no partner, newest first (at most MENU_COURSES_PER_GROUP). */
  exclusive: MenuCourse[];
  /** How many more partner-less courses the catalogue has. */
  exclusiveMore: number;
  /** One group per partner name, in order of each partner's newest course. */
  partners: { partnerName: string; courses: MenuCourse[]; more: number }[];
}

export interface FooterCourse {
  title: string;
  slug: string;
}

export const SERVICE_LINKS = [
  { to: "/services/dark-web-monitoring", label: "Dark Web Monitoring" },
  { to: "/services/counter-fraud-training", label: "Counter Fraud Training" },
  { to: "/services/security-consultancy", label: "Security Consultancy" },
  { to: "/services/file-interrogator", label: "File Interrogator" },
] as const;

export const CONTACT_EMAIL = "info@nightwatch.co.uk";
/** Mailboxes the legal pages name: privacy questions, contract matters, data protection officer. */
export const PRIVACY_EMAIL = "privacy@nightwatch.co.uk";
export const LEGAL_EMAIL = "legal@nightwatch.co.uk";
export const DPO_EMAIL = "dpo@nightwatch.co.uk";
