import { z } from "zod/mini";
import { MODALITY_LABELS, type Modality } from "./schemas.ts";
import { listQuery, oneOf, parsePage, parseSearch } from "../admin/list.ts";
import { parseSpamFilter, type SpamFilter, type SpamReason } from "../admin/suspected-spam.ts";

/**
 * Inquiries as the admin screens show and filter them (docs/rules.md, Enquiries and spam). The
 * queries live in server/inquiries/; this file only names, parses and formats, so it
 * is safe on both sides.
 */

export const INQUIRY_STATUSES = ["new", "in_progress", "replied", "closed"] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

export const INQUIRY_TYPES = [
  "training",
  "file_interrogator",
  "security_consultation",
  "course",
  "general",
] as const;
export type InquiryType = (typeof INQUIRY_TYPES)[number];

/** The list's owner filter (decision 0048): the signed-in admin's, or nobody's. */
export const INQUIRY_OWNER_FILTERS = ["mine", "unassigned"] as const;
export type InquiryOwnerFilter = (typeof INQUIRY_OWNER_FILTERS)[number];

export const INQUIRY_OWNER_FILTER_LABELS: Record<InquiryOwnerFilter, string> = {
  mine: "Mine",
  unassigned: "Nobody yet",
};

/** The list's reply filter (decision 0047): awaiting a reply, or past its due time. */
export const INQUIRY_REPLY_FILTERS = ["awaiting", "overdue"] as const;
export type InquiryReplyFilter = (typeof INQUIRY_REPLY_FILTERS)[number];

export const INQUIRY_REPLY_FILTER_LABELS: Record<InquiryReplyFilter, string> = {
  awaiting: "Awaiting reply",
  overdue: "Overdue",
};

export const INQUIRY_STATUS_LABELS: Record<InquiryStatus, string> = {
  new: "New",
  in_progress: "In Progress",
  replied: "Replied",
  closed: "Closed",
};

export const INQUIRY_TYPE_LABELS: Record<InquiryType, string> = {
  training: "Training",
  file_interrogator: "File Interrogator",
  security_consultation: "Security Consultation",
  course: "Course",
  general: "General",
};

/** Status colours: new blue, in_progress yellow, replied green, closed grey (Badge variants). */
export const INQUIRY_STATUS_BADGE = {
  new: "info",
  in_progress: "warning",
  replied: "success",
  closed: "muted",
} as const satisfies Record<InquiryStatus, string>;

export function modalityLabel(modality: string | null): string | null {
  return modality ? (MODALITY_LABELS[modality as Modality] ?? modality) : null;
}

/** One inquiry as the admin pages receive it (dates as ISO strings). */
export interface AdminInquiry {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  message: string;
  inquiryType: InquiryType;
  status: InquiryStatus;
  notes: string | null;
  courseTitle: string | null;
  modality: string | null;
  attendees: number | null;
  budget: string | null;
  /** Set while held as suspected spam (no e-mails sent yet). */
  spamReason: SpamReason | null;
  createdAt: string;
  /**
   * While it awaits its reply (new or in progress): when the reply is due by the site's promise
   * (decision 0047), and whether that had passed when the page was read. Null otherwise.
   */
  replyDue: { at: string; overdue: boolean } | null;
  /** How long it has awaited its reply ("20 h"), while it does; null otherwise. */
  waiting: string | null;
  /** The message on one line, cut short, for the list. */
  preview: string;
  /** The staff member who answers it (decision 0048), and the day to come back to it. */
  ownerId: string | null;
  followUpOn: string | null;
}

/**
 * The Dashboard's enquiries awaiting a reply that is overdue or due within four hours (decision
 * 0047): the first few, most urgent first, and how many there are (counted up to a cap).
 */
export interface RepliesDue {
  items: AdminInquiry[];
  overdue: number;
  dueSoon: number;
  /** The counts stop here: "1000+". */
  cap: number;
}

/**
 * Counts by status over real inquiries; `total` is every real inquiry, `suspected` those held as
 * suspected spam (counted apart).
 */
export type InquiryCounts = Record<InquiryStatus, number> & { total: number; suspected: number };

/** All zero: before counting, or when the counts could not be read. */
export function emptyInquiryCounts(): InquiryCounts {
  return { new: 0, in_progress: 0, replied: 0, closed: 0, total: 0, suspected: 0 };
}

export const INQUIRY_PAGE_SIZE = 25;

export interface InquiryFilters {
  type: InquiryType | "all";
  status: InquiryStatus | "all";
  /** Awaiting a reply, or overdue (decision 0047). */
  reply: InquiryReplyFilter | "all";
  /** The signed-in admin's, or nobody's (decision 0048). */
  owner: InquiryOwnerFilter | "all";
  /** Matches name, e-mail or company (case-insensitive); '' for none. */
  q: string;
  /** Suspected spam: shown with the rest, alone, or hidden. */
  spam: SpamFilter;
  /** 1-based. */
  page: number;
}

/**
 * The list's filters from the URL (?type=&status=&reply=&owner=&q=&spam=&page=); anything unknown means
 * 'all'.
 */
export function parseInquiryFilters(params: URLSearchParams): InquiryFilters {
  return {
    type: oneOf(INQUIRY_TYPES, params.get("type")),
    status: oneOf(INQUIRY_STATUSES, params.get("status")),
    reply: oneOf(INQUIRY_REPLY_FILTERS, params.get("reply")),
    owner: oneOf(INQUIRY_OWNER_FILTERS, params.get("owner")),
    q: parseSearch(params.get("q")),
    spam: parseSpamFilter(params.get("spam")),
    page: parsePage(params.get("page")),
  };
}

/** The query string for these filters, leaving defaults out so links stay short. */
export function inquiryFiltersQuery(filters: Partial<InquiryFilters>): string {
  const { type, status, reply, owner, q, spam, page } = filters;
  return listQuery({ type, status, reply, owner, q, spam, page });
}

export const NOTES_MAX_LENGTH = 5000;

/** The update dialog: only status and notes can change. */
export const inquiryUpdateSchema = z.object({
  id: z.uuid(),
  status: z.enum(INQUIRY_STATUSES),
  notes: z.pipe(
    z.pipe(
      z.pipe(
        z.optional(z.string()),
        z.transform((v: string | undefined) => (v ?? "").trim()),
      ),
      z.string().check(z.maxLength(NOTES_MAX_LENGTH)),
    ),
    z.transform((v: string) => (v === "" ? null : v)),
  ),
});
export type InquiryUpdate = z.output<typeof inquiryUpdateSchema>;

/** The query parameter that opens one inquiry's details on the Inquiries screen. */
export const OPEN_INQUIRY_PARAM = "inquiry";

/** The Inquiries screen with this inquiry's details open (the Dashboard's rows link here). */
export function inquiryHref(id: string): string {
  return `/admin/inquiries?${OPEN_INQUIRY_PARAM}=${encodeURIComponent(id)}`;
}
