import { oneOf, parsePage, listQuery } from "./list.ts";
import { parseCalendarDate } from "./time.ts";
import { orderPageHref } from "../orders/orders.ts";

/**
 * The audit log as the admin reads it (decision 0019): the kinds of subject, the words for actions
 * and fields, the screen's filters in the URL. Safe on both sides; the writing is
 * `server/audit.server.ts`.
 */

/** The kinds of subject the log names (the admin's filter lists these). */
export const AUDIT_SUBJECTS = [
  "course",
  "course_date",
  "certificate",
  "waiting_list",
  "category",
  "partner",
  "trainer",
  "about",
  "inquiry",
  "quote",
  "licence",
  "order",
  "subscription",
  "admin",
  "privacy",
  "settings",
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

/** The screen's "Kind" filter: a subject, or 'auth' for the sign-in actions (`auth.*`). */
export const AUDIT_KINDS = [...AUDIT_SUBJECTS, "auth"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AUDIT_KIND_LABELS: Record<AuditKind, string> = {
  course: "Courses",
  course_date: "Course dates",
  certificate: "Certificates",
  waiting_list: "Waiting lists",
  category: "Categories",
  partner: "Partners",
  trainer: "Trainers",
  about: "About page",
  inquiry: "Inquiries",
  quote: "Quotes",
  licence: "Licences",
  order: "Orders",
  subscription: "Newsletter subscriptions",
  admin: "Staff",
  privacy: "Data requests",
  settings: "Settings",
  auth: "Sign-ins",
};

/** The prefix of the sign-in actions (the "Sign-ins" kind). */
export const SIGN_IN_ACTION_PREFIX = "auth.";

export const AUDIT_PAGE_SIZE = 50;

/** The "Person" filter's value for rows no admin made (webhooks, the system, unknown sign-ins). */
export const SYSTEM_PERSON = "system";

export interface AuditFilters {
  /** 'all', SYSTEM_PERSON, or an admin's user id. */
  person: string;
  kind: AuditKind | "all";
  /** Europe/London calendar dates, 'yyyy-MM-dd', inclusive; '' for no bound. */
  from: string;
  to: string;
  /** 1-based. */
  page: number;
}

/** The screen's filters from the URL (?person=&kind=&from=&to=&page=); anything unknown is 'all'. */
export function parseAuditFilters(params: URLSearchParams): AuditFilters {
  const person = (params.get("person") ?? "").trim().slice(0, 100);
  return {
    person: person === "" ? "all" : person,
    kind: oneOf(AUDIT_KINDS, params.get("kind")),
    from: parseCalendarDate(params.get("from")),
    to: parseCalendarDate(params.get("to")),
    page: parsePage(params.get("page")),
  };
}

/** The query string for these filters, defaults left out. */
export function auditFiltersQuery(filters: Partial<AuditFilters>): string {
  const { person, kind, from, to, page } = filters;
  return listQuery({ person, kind, from, to, page });
}

/** One row of the log as the screen shows it. */
export interface AuditEntryView {
  id: string;
  /** ISO instant. */
  at: string;
  actorId: string | null;
  /** Null: the system (a webhook, the success page) or an unknown sign-in. */
  actorEmail: string | null;
  action: string;
  subjectType: string;
  subjectId: string | null;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** The subject's admin page, when it has one and still exists. */
  href: string | null;
}

/** An admin who appears in the log (the "Person" filter). */
export interface AuditPerson {
  id: string;
  email: string;
}

/** The admin page of a subject, for the kinds that have one (the server checks it still exists). */
export function auditSubjectHref(subjectType: string, subjectId: string | null): string | null {
  if (!subjectId) return null;
  if (subjectType === "order") return orderPageHref(subjectId);
  return null;
}

const ACTION_LABELS: Record<string, string> = {
  "course.create": "Created course",
  "course.update": "Updated course",
  "course.delete": "Deleted course",
  "category.create": "Created category",
  "category.update": "Updated category",
  "category.delete": "Deleted category",
  "course_date.create": "Created course date",
  "course_date.update": "Updated course date",
  "course_date.cancel": "Cancelled course date",
  "course_date.attendance": "Marked attendance",
  "certificate.issue": "Issued certificate",
  "certificate.revoke": "Revoked certificate",
  "waiting_list.offer": "Offered waiting list places",
  "waiting_list.remove": "Removed from waiting list",
  "partner.create": "Created partner",
  "partner.update": "Updated partner",
  "partner.delete": "Deleted partner",
  "trainer.create": "Created trainer",
  "trainer.update": "Updated trainer",
  "trainer.delete": "Deleted trainer",
  "about.update": "Updated About page",
  "inquiry.update": "Updated inquiry",
  "inquiry.release": "Released held inquiry",
  "inquiry.delete": "Deleted held inquiry",
  "order.status": "Changed order status",
  "order.note": "Added order note",
  "order.billing": "Corrected billing details",
  "order.reissue": "Corrected and re-issued the invoice",
  "order.refund": "Recorded refund",
  "order.payment": "Recorded payment",
  "settings.seller": "Changed seller settings",
  "order.refund_status": "Refund status changed",
  "order.release": "Released held order",
  "order.student": "Booker changed a student",
  "order.move": "Moved places to another date",
  "order.move_request": "Booker asked to move places",
  "order.move_declined": "Declined a request to move places",
  "order.booking_link": "Sent booking link",
  "order.reminders": "Paused or resumed invoice reminders",
  "order.delete": "Deleted held order",
  "subscription.update": "Updated subscription",
  "subscription.release": "Released held subscription",
  "subscription.delete": "Deleted held subscription",
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Failed sign-in",
  "auth.sign_out": "Signed out",
  "auth.two_factor_failed": "Wrong second-factor code",
  "auth.endpoint_refused": "Refused account endpoint",
};

/** An action in words: "Updated course"; an action without its own words reads "Course: verb". */
export function auditActionLabel(action: string): string {
  const known = ACTION_LABELS[action];
  if (known) return known;
  const [subject = "", ...rest] = action.split(".");
  const verb = rest.join(" ").replaceAll("_", " ");
  const name = subject.charAt(0).toUpperCase() + subject.slice(1).replaceAll("_", " ");
  return verb ? `${name}: ${verb}` : name;
}

/** A recorded field's name in words: "shortDescription" → "Short description". */
export function auditFieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replaceAll("_", " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A recorded value as text: '—' for none, JSON for anything that is not a plain value. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** The fields of a row's before and after, in a stable order (before's first). */
export function auditFieldKeys(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  return [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
}
