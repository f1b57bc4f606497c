import { z } from "zod/mini";

/**
 * Data-protection requests (decision 0020): what the admin's /admin/privacy screen
 * shows about one e-mail address, the one schema its search and erase forms use on both sides,
 * and the sentences that name what an erasure does. No server imports here.
 */

export const PRIVACY_EMAIL_MAX = 320;
export const PRIVACY_EMAIL_REQUIRED = "Please enter an e-mail address";
export const PRIVACY_EMAIL_INVALID = "Please enter an e-mail address (it must contain @)";

/** The address a request is about: trimmed and lower-cased (every match is case-insensitive). */
export const privacyEmailField = z.pipe(
  z.pipe(
    z.string({ error: PRIVACY_EMAIL_REQUIRED }),
    z.transform((v: string) => v.trim().toLowerCase()),
  ),
  z.string().check(
    z.minLength(1, PRIVACY_EMAIL_REQUIRED),
    z.maxLength(PRIVACY_EMAIL_MAX, `Please keep this to ${PRIVACY_EMAIL_MAX} characters or fewer`),
    z.refine((v) => v.includes("@") && !/[\s,]/.test(v), PRIVACY_EMAIL_INVALID),
  ),
);

/** The search (GET ?email=) and the erase form (POST intent=erase, email). */
export const privacySearchSchema = z.object({ email: privacyEmailField });
export const privacyEraseSchema = z.object({ email: privacyEmailField });

export const PRIVACY_EXPORT_FORMATS = ["json", "csv"] as const;
export type PrivacyExportFormat = (typeof PRIVACY_EXPORT_FORMATS)[number];

export function privacySearchHref(email: string): string {
  return `/admin/privacy?${new URLSearchParams({ email }).toString()}`;
}

export function privacyExportHref(email: string, format: PrivacyExportFormat): string {
  return `/admin/privacy/export?${new URLSearchParams({ email, format }).toString()}`;
}

export interface PersonalInquiry {
  id: string;
  createdAt: string;
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  inquiryType: string;
  status: string;
  courseTitle: string | null;
  budget: string | null;
  message: string;
  notes: string | null;
  /** Replies staff sent from its page, and their notes about it (decision 0048). */
  replies: { createdAt: string; author: string; subject: string; body: string }[];
  noteList: { createdAt: string; author: string; body: string }[];
}

export interface PersonalStudent {
  id: string;
  position: number;
  firstName: string;
  lastName: string;
  email: string;
}

export interface PersonalOrder {
  id: string;
  reference: string;
  createdAt: string;
  status: string;
  paymentMethod: string;
  buyerFirstName: string;
  buyerLastName: string;
  buyerEmail: string;
  buyerPhone: string | null;
  buyerCompany: string | null;
  billingOrganisation: string | null;
  billingAddressLine1: string | null;
  billingAddressLine2: string | null;
  billingTown: string | null;
  billingPostcode: string | null;
  billingCountry: string | null;
  poNumber: string | null;
  buyerVatNumber: string | null;
  courseTitle: string;
  quantity: number;
  totalAmountCents: number;
  currency: string;
  students: PersonalStudent[];
  /** Issued invoices, receipts and credit notes: kept unchanged by an erasure. */
  documents: { number: string; kind: string; issuedAt: string }[];
}

/** A student place on someone else's order. */
export interface PersonalStudentRecord extends PersonalStudent {
  orderId: string;
  orderReference: string;
  orderCreatedAt: string;
  orderStatus: string;
  courseTitle: string;
}

export interface PersonalSubscription {
  id: string;
  email: string;
  isActive: boolean;
  source: string | null;
  subscribedAt: string;
  consentAt: string | null;
  consentPage: string | null;
  consentText: string | null;
  unsubscribedAt: string | null;
}

/** A place on a waiting list, or a request to hear of a course's next date (decision 0034). */
export interface PersonalWaitingListEntry {
  id: string;
  createdAt: string;
  firstName: string;
  lastName: string;
  email: string;
  organisation: string | null;
  places: number;
  state: string;
  courseTitle: string | null;
  /** The date waited for (ISO); null: any new date of the course. */
  dateStartsAt: string | null;
  consentAt: string;
}

/** A certificate of attendance issued to the person (decision 0036). */
export interface PersonalCertificate {
  id: string;
  number: string;
  holderName: string | null;
  holderEmail: string | null;
  courseTitle: string;
  startsAt: string;
  issuedAt: string;
  revokedAt: string | null;
}

export interface PersonalEmail {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  status: string;
  createdAt: string;
  sentAt: string | null;
  text: string;
}

/** Everything held about one address. */
/**
 * A line of history that names the person: an audit row (what an admin changed about their
 * inquiry, subscription or order, or any row whose text holds the address), or an entry of one
 * of their orders' timelines (a note, an event).
 */
export interface PersonalRecord {
  id: string;
  kind: "audit" | "order_event";
  at: string;
  /** The audit action, or the timeline entry's kind ('note', 'canceled', …). */
  what: string;
  /** What it says, as text (a note's words, an audit row's summary and values). */
  text: string;
}

/** A quote made out to the person (decision 0049). */
export interface PersonalQuote {
  id: string;
  number: string | null;
  status: string;
  createdAt: string;
  organisation: string;
  contactName: string;
  contactEmail: string;
  totalCents: number;
}

/** A File Interrogator licence with the person as its contact (decision 0050). */
export interface PersonalLicence {
  id: string;
  reference: string;
  organisation: string;
  contactName: string;
  contactEmail: string;
  seats: number;
  startsOn: string;
  endsOn: string;
}

export interface PersonalData {
  email: string;
  inquiries: PersonalInquiry[];
  quotes: PersonalQuote[];
  licences: PersonalLicence[];
  orders: PersonalOrder[];
  studentRecords: PersonalStudentRecord[];
  subscriptions: PersonalSubscription[];
  waitingList: PersonalWaitingListEntry[];
  certificates: PersonalCertificate[];
  emails: PersonalEmail[];
  records: PersonalRecord[];
}

/** What the screen lists: everything but the stored e-mails' bodies (those are for the export). */
export type PersonalDataSummary = Omit<PersonalData, "emails"> & {
  emails: Omit<PersonalEmail, "text">[];
};

/** What an erasure does (or did), counted. */
export interface ErasureCounts {
  inquiries: number;
  subscriptions: number;
  /** Waiting list entries (deleted). */
  waitingList: number;
  orders: number;
  /** Certificates of attendance (revoked, and their holder's details and PDF cleared). */
  certificates: number;
  students: number;
  emails: number;
  /** Audit rows and order timeline entries redacted. */
  records: number;
  /** Quotes and licences: the contact's name and address replaced (their numbers stay). */
  quotes: number;
  licences: number;
}

export const NO_ERASURE: ErasureCounts = {
  inquiries: 0,
  subscriptions: 0,
  waitingList: 0,
  orders: 0,
  certificates: 0,
  students: 0,
  emails: 0,
  records: 0,
  quotes: 0,
  licences: 0,
};

/**
 * The student records an erasure anonymises: the person's own places, on their orders or on
 * others'. Colleagues they booked keep theirs (their own data, and who attended a course).
 */
export function studentsToErase(data: PersonalDataSummary): string[] {
  const address = data.email.trim().toLowerCase();
  return [
    ...data.orders.flatMap((order) =>
      order.students.filter((s) => s.email.trim().toLowerCase() === address).map((s) => s.id),
    ),
    ...data.studentRecords.map((s) => s.id),
  ];
}

/** What erasing `data` would do, counted. */
export function plannedErasure(data: PersonalDataSummary): ErasureCounts {
  return {
    inquiries: data.inquiries.length,
    subscriptions: data.subscriptions.length,
    waitingList: data.waitingList.length,
    orders: data.orders.length,
    certificates: data.certificates.length,
    students: studentsToErase(data).length,
    emails: data.emails.length,
    records: data.records.length,
    quotes: data.quotes.length,
    licences: data.licences.length,
  };
}

export function isNothing(counts: ErasureCounts): boolean {
  return Object.values(counts).every((n) => n === 0);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export const TAX_RECORDS_NOTE =
  "amounts, dates and invoice numbers are kept for 6 years, as UK tax law requires";

/**
 * The erasure in one sentence per kind of change, e.g. "Delete 2 inquiries and 1 newsletter
 * subscription; anonymise 1 order and 3 student records (…); delete 5 stored e-mails."
 * `past` words it as done (the toast).
 */
export function describeErasure(counts: ErasureCounts, past = false): string {
  const del = past ? "deleted" : "delete";
  const anon = past ? "anonymised" : "anonymise";
  const clauses: string[] = [];
  const deleted = [
    counts.inquiries ? plural(counts.inquiries, "inquiry", "inquiries") : "",
    counts.subscriptions ? plural(counts.subscriptions, "newsletter subscription") : "",
    counts.waitingList
      ? plural(counts.waitingList, "waiting list entry", "waiting list entries")
      : "",
  ].filter(Boolean);
  if (deleted.length) clauses.push(`${del} ${joinAnd(deleted)}`);
  const anonymised = [
    counts.orders ? plural(counts.orders, "order") : "",
    counts.students ? plural(counts.students, "student record") : "",
    counts.quotes ? plural(counts.quotes, "quote") : "",
    counts.licences ? plural(counts.licences, "licence") : "",
  ].filter(Boolean);
  if (anonymised.length) {
    clauses.push(`${anon} ${joinAnd(anonymised)}${counts.orders ? ` (${TAX_RECORDS_NOTE})` : ""}`);
  }
  if (counts.certificates) {
    clauses.push(
      `${past ? "revoked and anonymised" : "revoke and anonymise"} ${plural(counts.certificates, "certificate")} of attendance`,
    );
  }
  if (counts.emails) clauses.push(`${del} ${plural(counts.emails, "stored e-mail")}`);
  if (counts.records) {
    clauses.push(
      `${past ? "redacted" : "redact"} ${plural(counts.records, "history record")} (audit log, order notes and timeline)`,
    );
  }
  if (!clauses.length) return past ? "Nothing was held: nothing changed." : "Nothing to erase.";
  const sentence = clauses.join("; ");
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** The page's and the download's query: `?email=` (and `format=` for the download). */
export type PrivacyQuery =
  | { state: "empty" }
  | { state: "invalid"; typed: string; error: string }
  | {
      state: "ok";
      email: string;
      format: PrivacyExportFormat;
      /** `confirm=erase`: the erase question as a panel (the page reached without JavaScript). */
      confirmErase: boolean;
    };

export function parsePrivacyQuery(params: URLSearchParams): PrivacyQuery {
  const typed = params.get("email");
  if (typed === null || typed.trim() === "") return { state: "empty" };
  const parsed = privacySearchSchema.safeParse({ email: typed });
  if (!parsed.success) {
    return {
      state: "invalid",
      typed: typed.slice(0, PRIVACY_EMAIL_MAX),
      error: parsed.error.issues[0]?.message ?? PRIVACY_EMAIL_INVALID,
    };
  }
  const format = params.get("format") === "csv" ? "csv" : "json";
  return {
    state: "ok",
    email: parsed.data.email,
    format,
    confirmErase: params.get("confirm") === "erase",
  };
}
