/** Shapes the site header and footer render; filled on the server by server/courses.server.ts. */

export interface MenuCourse {
  title: string;
  slug: string;
  partnerName: string | null;
}

export interface TrainingMenu {
  /** Published courses with no partner, newest first. */
  exclusive: MenuCourse[];
  /** One group per partner name, in order of each partner's newest course. */
  partners: { partnerName: string; courses: MenuCourse[] }[];
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
