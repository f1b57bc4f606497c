import { and, eq } from "drizzle-orm";
import {
  LICENCE_COUNT_LABELS,
  SERVICE_LABELS,
  USE_CASE_LABELS,
  type CourseQuoteInput,
  type EnquiryInput,
  type LicenceInput,
  type Modality,
  type ServiceInterest,
} from "#app/lib/inquiry-schemas.ts";
import type { SpamReason } from "#app/lib/suspected-spam.ts";
import { confirmationAllowed } from "./abuse.server.ts";
import { config } from "./config.server.ts";
import { db } from "./db/client.server.ts";
import { courses, emailOutbox, inquiries } from "./db/schema.ts";
import { queueEmails, type OutgoingEmail } from "./email/outbox.server.ts";
import {
  renderAdminAlert,
  renderVisitorConfirmation,
  type InquiryEmailData,
  type InquiryTypeValue,
} from "./email/templates.server.ts";
import { nudgeOutbox } from "./email/worker.server.ts";
import { containsPattern } from "./db/sql.server.ts";
import { log } from "./log.server.ts";

/**
 * Inquiries from the public forms (spec §5, §7): each is stored with status new, together with
 * its two e-mails (admin alert, visitor confirmation) in the outbox — one transaction, so there
 * is never an inquiry without its e-mails nor an e-mail about an inquiry that was not saved.
 * Suspected spam is stored too, marked and held (decision 0012); releasing it queues the e-mails.
 */

export type InquiryRow = typeof inquiries.$inferSelect;

/**
 * inquiry_type from the chosen service: dark-web-monitoring and security-consultancy →
 * security_consultation; counter-fraud-training → training; file-interrogator →
 * file_interrogator; anything else (other, none, unknown) → general.
 */
export function inquiryTypeForService(service: string | null | undefined): InquiryTypeValue {
  switch (service) {
    case "dark-web-monitoring":
    case "security-consultancy":
      return "security_consultation";
    case "counter-fraud-training":
      return "training";
    case "file-interrogator":
      return "file_interrogator";
    default:
      return "general";
  }
}

/** With a service chosen, the stored message starts with a line naming it, then a blank line. */
export function messageWithServiceInterest(
  message: string,
  service: ServiceInterest | null | undefined,
): string {
  if (!service) return message;
  return `Service Interest: ${SERVICE_LABELS[service]}\n\n${message}`;
}

/** The licence form's choices have no columns of their own: they lead the stored message. */
export function licenceMessage(
  input: Pick<LicenceInput, "licence_count" | "use_case" | "message">,
) {
  const lines = [`Licences: ${LICENCE_COUNT_LABELS[input.licence_count]}`];
  if (input.use_case) lines.push(`Use case: ${USE_CASE_LABELS[input.use_case]}`);
  return input.message ? `${lines.join("\n")}\n\n${input.message}` : lines.join("\n");
}

/** The title of a published course, read from the database (never taken from the browser). */
export async function publishedCourseTitle(courseId: string): Promise<string | null> {
  const [row] = await db()
    .select({ title: courses.title })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.status, "published")))
    .limit(1);
  return row?.title ?? null;
}

type NewInquiry = typeof inquiries.$inferInsert;

interface EmailExtras {
  form: InquiryEmailData["form"];
  serviceInterest?: ServiceInterest | null;
  licenceCount?: LicenceInput["licence_count"] | null;
  useCase?: LicenceInput["use_case"];
}

/** What the e-mail templates need, from a stored inquiry and the form's extra choices. */
function emailDataOf(row: InquiryRow, extras: EmailExtras): InquiryEmailData {
  return {
    inquiryId: row.id,
    inquiryType: row.inquiryType,
    form: extras.form,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    serviceInterest: extras.serviceInterest ?? null,
    courseTitle: row.courseTitleSnapshot,
    modality: row.modality,
    attendees: row.attendees,
    budget: row.budget,
    licenceCount: extras.licenceCount ?? null,
    useCase: extras.useCase ?? null,
    submittedAt: row.createdAt,
  };
}

/** An inquiry's two e-mails: the alert to staff and the confirmation to the visitor. */
function inquiryEmails(
  row: InquiryRow,
  extras: EmailExtras,
  options: { held?: boolean } = {},
): OutgoingEmail[] {
  const data = emailDataOf(row, extras);
  return [
    {
      kind: "admin_alert",
      to: config.adminEmails,
      replyTo: row.email,
      ...renderAdminAlert(data, `${config.publicUrl}/admin/inquiries`, options),
      inquiryId: row.id,
    },
    {
      kind: "visitor_confirmation",
      to: row.email,
      replyTo: config.mailReplyTo,
      ...renderVisitorConfirmation(data),
      inquiryId: row.id,
    },
  ];
}

/**
 * Saves the inquiry and queues its e-mails in one transaction, then nudges the worker.
 * Suspected spam is stored all the same, marked (decision 0012): a honeypot post queues no
 * e-mail; a post whose address has had its hourly confirmations is marked 'recipient_limit' and
 * only staff are told (the alert says the confirmation is held).
 */
async function saveWithEmails(
  values: NewInquiry,
  extras: EmailExtras,
  suspected: SpamReason | null,
): Promise<InquiryRow> {
  const inquiry = await db().transaction(async (tx) => {
    const spamReason =
      suspected ?? ((await confirmationAllowed(tx, values.email)) ? null : "recipient_limit");
    const [row] = await tx
      .insert(inquiries)
      .values({ ...values, spamReason })
      .returning();
    if (!row) throw new Error("the inquiry was not saved");
    if (spamReason === null) {
      await queueEmails(tx, inquiryEmails(row, extras));
    } else if (spamReason === "recipient_limit") {
      const [alert] = inquiryEmails(row, extras, { held: true });
      await queueEmails(tx, [alert!]);
    }
    return row;
  });
  if (inquiry.spamReason !== null) {
    log.warn(
      { inquiryId: inquiry.id, spamReason: inquiry.spamReason },
      "inquiry held as suspected spam",
    );
  }
  if (inquiry.spamReason !== "honeypot") nudgeOutbox();
  return inquiry;
}

/** Home, contact, quote and service-page enquiries. `suspected`: the honeypot's mark, if any. */
export function createEnquiry(
  input: EnquiryInput,
  suspected: SpamReason | null = null,
): Promise<InquiryRow> {
  return saveWithEmails(
    {
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone,
      message: messageWithServiceInterest(input.message, input.service),
      inquiryType: inquiryTypeForService(input.service),
      status: "new",
    },
    { form: "enquiry", serviceInterest: input.service },
    suspected,
  );
}

/** File Interrogator licence quotes. */
export function createLicenceInquiry(
  input: LicenceInput,
  suspected: SpamReason | null = null,
): Promise<InquiryRow> {
  return saveWithEmails(
    {
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone,
      message: licenceMessage(input),
      inquiryType: "file_interrogator",
      status: "new",
    },
    { form: "licence", licenceCount: input.licence_count, useCase: input.use_case },
    suspected,
  );
}

export type CourseQuoteOutcome =
  { ok: true; inquiry: InquiryRow; modality: Modality } | { ok: false; reason: "course_not_found" };

/** Course quote / enrolment dialog: a training inquiry about a published course. */
export async function createCourseInquiry(
  input: CourseQuoteInput,
  suspected: SpamReason | null = null,
): Promise<CourseQuoteOutcome> {
  const title = await publishedCourseTitle(input.course_id);
  if (title === null) return { ok: false, reason: "course_not_found" };
  const inquiry = await saveWithEmails(
    {
      name: input.name,
      email: input.email,
      company: input.company,
      phone: input.phone,
      message: input.message ?? "",
      inquiryType: "training",
      status: "new",
      courseId: input.course_id,
      courseTitleSnapshot: title,
      modality: input.modality,
      attendees: input.attendees,
      budget: input.budget,
    },
    { form: "course_quote" },
    suspected,
  );
  return { ok: true, inquiry, modality: input.modality };
}

/* ------------------------------------------------------------------------------------------
 * Admin reads and updates (the admin area's Dashboard and Inquiries screens). Callers have
 * already passed requireAdmin(). Filters, search, paging and counts run in the database.
 * Import declarations are hoisted; these sit here to keep the admin part in one block.
 * ---------------------------------------------------------------------------------------- */

import * as orm from "drizzle-orm";
import {
  INQUIRY_PAGE_SIZE,
  INQUIRY_STATUSES,
  INQUIRY_STATUS_LABELS,
  INQUIRY_TYPE_LABELS,
  emptyInquiryCounts,
  modalityLabel,
  type AdminInquiry,
  type InquiryCounts,
  type InquiryFilters,
  type InquiryStatus,
  type InquiryUpdate,
} from "#app/lib/admin-inquiries.ts";
import { SPAM_REASON_LABELS } from "#app/lib/suspected-spam.ts";
import { csvResponse, type CsvValue } from "./csv.server.ts";

export function toAdminInquiry(row: InquiryRow): AdminInquiry {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    message: row.message,
    inquiryType: row.inquiryType,
    status: row.status,
    notes: row.notes,
    courseTitle: row.courseTitleSnapshot,
    modality: row.modality,
    attendees: row.attendees,
    budget: row.budget,
    spamReason: row.spamReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What the search box matches: name, e-mail and company in one lower-cased string. The same
 * expression is indexed (trigram GIN, migration 0004) where PostgreSQL has pg_trgm.
 */
const inquirySearchText = orm.sql`lower(${inquiries.name} || ' ' || ${inquiries.email} || ' ' || coalesce(${inquiries.company}, ''))`;

function adminInquiryWhere(filters: Omit<InquiryFilters, "page">): orm.SQL | undefined {
  const conditions: orm.SQL[] = [];
  if (filters.type !== "all") conditions.push(orm.eq(inquiries.inquiryType, filters.type));
  if (filters.status !== "all") conditions.push(orm.eq(inquiries.status, filters.status));
  if (filters.q) conditions.push(orm.sql`${inquirySearchText} like ${containsPattern(filters.q)}`);
  if (filters.spam === "only") conditions.push(orm.isNotNull(inquiries.spamReason));
  if (filters.spam === "none") conditions.push(orm.isNull(inquiries.spamReason));
  return conditions.length ? orm.and(...conditions) : undefined;
}

const newestFirst = [orm.desc(inquiries.createdAt), orm.desc(inquiries.id)] as const;

export interface AdminInquiryPage {
  inquiries: AdminInquiry[];
  /** Inquiries matching the filters. */
  total: number;
  /** The page shown (a page past the end shows the last one). */
  page: number;
  pageCount: number;
}

/**
 * One page of inquiries matching the filters, newest first. `knownTotal` (the matching count,
 * when the caller already has it from the status counts) saves counting again.
 */
export async function listInquiriesForAdmin(
  filters: InquiryFilters,
  knownTotal?: number,
): Promise<AdminInquiryPage> {
  const where = adminInquiryWhere(filters);
  let total = knownTotal;
  if (total === undefined) {
    const [counted] = await db().select({ n: orm.count() }).from(inquiries).where(where);
    total = counted?.n ?? 0;
  }
  const pageCount = Math.max(1, Math.ceil(total / INQUIRY_PAGE_SIZE));
  const page = Math.min(filters.page, pageCount);
  // The page's ids first (the skipped rows are walked in the index only), then their rows.
  const pageIds = db()
    .select({ id: inquiries.id })
    .from(inquiries)
    .where(where)
    .orderBy(...newestFirst)
    .limit(INQUIRY_PAGE_SIZE)
    .offset((page - 1) * INQUIRY_PAGE_SIZE);
  const rows =
    total === 0
      ? []
      : await db()
          .select()
          .from(inquiries)
          .where(orm.inArray(inquiries.id, pageIds))
          .orderBy(...newestFirst);
  return { inquiries: rows.map(toAdminInquiry), total, page, pageCount };
}

/** The Inquiries screen's reads: the status counts, and the page (counted from them when it can). */
export async function inquiriesScreen(
  filters: InquiryFilters,
): Promise<AdminInquiryPage & { counts: InquiryCounts }> {
  const { counts, suspectedByStatus } = await tallyInquiries();
  let known: number | undefined;
  if (filters.type === "all" && !filters.q) {
    const real = filters.status === "all" ? counts.total : counts[filters.status];
    const suspected =
      filters.status === "all" ? counts.suspected : (suspectedByStatus[filters.status] ?? 0);
    known = filters.spam === "only" ? suspected : filters.spam === "none" ? real : real + suspected;
  }
  return { ...(await listInquiriesForAdmin(filters, known)), counts };
}

/**
 * Counts by status and in total over real inquiries (suspected spam left out), the number held
 * as suspected spam, and those by status — one aggregate query.
 */
async function tallyInquiries(): Promise<{
  counts: InquiryCounts;
  suspectedByStatus: Partial<Record<InquiryStatus, number>>;
}> {
  const rows = await db()
    .select({
      status: inquiries.status,
      suspected: orm.sql<boolean>`${inquiries.spamReason} is not null`,
      n: orm.count(),
    })
    .from(inquiries)
    .groupBy(inquiries.status, orm.sql`${inquiries.spamReason} is not null`);
  const counts = emptyInquiryCounts();
  const suspectedByStatus: Partial<Record<InquiryStatus, number>> = {};
  for (const row of rows) {
    const known = (INQUIRY_STATUSES as readonly string[]).includes(row.status);
    if (row.suspected) {
      counts.suspected += row.n;
      if (known) suspectedByStatus[row.status] = (suspectedByStatus[row.status] ?? 0) + row.n;
    } else {
      if (known) counts[row.status] = row.n;
      counts.total += row.n;
    }
  }
  return { counts, suspectedByStatus };
}

/** Counts by status and in total (suspected spam apart), in one aggregate query. */
export async function countInquiriesByStatus(): Promise<InquiryCounts> {
  return (await tallyInquiries()).counts;
}

/** The dashboard's latest inquiries (spec §9: 10); suspected spam waits on the Inquiries screen. */
export async function latestInquiries(limit = 10): Promise<AdminInquiry[]> {
  const rows = await db()
    .select()
    .from(inquiries)
    .where(orm.isNull(inquiries.spamReason))
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(toAdminInquiry);
}

/**
 * The form-specific choices of a stored inquiry, read back from what the row holds (the licence
 * choices and the service lead the stored message, as `licenceMessage` and
 * `messageWithServiceInterest` wrote them): what releasing a held inquiry needs to write the
 * e-mails the normal path would have sent.
 */
export function emailExtrasOf(row: InquiryRow): EmailExtras {
  if (row.courseTitleSnapshot !== null || row.modality !== null) return { form: "course_quote" };
  const [first = "", second] = row.message.split("\n");
  if (row.inquiryType === "file_interrogator" && first.startsWith("Licences: ")) {
    const licenceCount = keyOfLabel(LICENCE_COUNT_LABELS, first.slice("Licences: ".length));
    const useCase = second?.startsWith("Use case: ")
      ? keyOfLabel(USE_CASE_LABELS, second.slice("Use case: ".length))
      : null;
    if (licenceCount) return { form: "licence", licenceCount, useCase };
  }
  const serviceInterest =
    first.startsWith("Service Interest: ") && second === ""
      ? keyOfLabel(SERVICE_LABELS, first.slice("Service Interest: ".length))
      : null;
  return { form: "enquiry", serviceInterest };
}

function keyOfLabel<K extends string>(labels: Record<K, string>, label: string): K | null {
  return (Object.keys(labels) as K[]).find((key) => labels[key] === label) ?? null;
}

/**
 * 'Release' on a suspected-spam inquiry: clears the mark and queues, in the same transaction,
 * the e-mails the normal path sends that have not gone yet (a 'recipient_limit' inquiry's staff
 * alert went at the time; its confirmation goes now). Null when there is no such held inquiry.
 */
export async function releaseInquiry(id: string): Promise<AdminInquiry | null> {
  const released = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(inquiries)
      .set({ spamReason: null, updatedAt: new Date() })
      .where(orm.and(orm.eq(inquiries.id, id), orm.isNotNull(inquiries.spamReason)))
      .returning();
    if (!row) return null;
    const queued = await tx
      .select({ kind: emailOutbox.kind })
      .from(emailOutbox)
      .where(orm.eq(emailOutbox.inquiryId, row.id));
    const already = new Set(queued.map((q) => q.kind));
    await queueEmails(
      tx,
      inquiryEmails(row, emailExtrasOf(row)).filter((m) => !already.has(m.kind)),
    );
    return row;
  });
  if (!released) return null;
  log.info({ inquiryId: released.id }, "suspected-spam inquiry released");
  nudgeOutbox();
  return toAdminInquiry(released);
}

/** 'Delete' on a suspected-spam inquiry (only those: real inquiries are kept). */
export async function deleteSuspectedInquiry(id: string): Promise<boolean> {
  const deleted = await db()
    .delete(inquiries)
    .where(orm.and(orm.eq(inquiries.id, id), orm.isNotNull(inquiries.spamReason)))
    .returning({ id: inquiries.id });
  if (deleted.length > 0) log.info({ inquiryId: id }, "suspected-spam inquiry deleted");
  return deleted.length > 0;
}

/** The update dialog: status and notes, nothing else. Null when there is no such inquiry. */
export async function updateInquiryForAdmin(update: InquiryUpdate): Promise<AdminInquiry | null> {
  const [row] = await db()
    .update(inquiries)
    .set({ status: update.status, notes: update.notes, updatedAt: new Date() })
    .where(orm.eq(inquiries.id, update.id))
    .returning();
  return row ? toAdminInquiry(row) : null;
}

const EXPORT_BATCH = 1000;

/** Every inquiry matching the filters, newest first, read in batches (keyset, not offset). */
async function* inquiryBatches(filters: Omit<InquiryFilters, "page">) {
  const where = adminInquiryWhere(filters);
  // The cursor keeps created_at as PostgreSQL's text: a JS Date would drop the microseconds.
  let cursor: { createdAt: string; id: string } | undefined;
  for (;;) {
    const after = cursor
      ? orm.sql`(${inquiries.createdAt}, ${inquiries.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`
      : undefined;
    const rows = await db()
      .select({ row: inquiries, cursor: orm.sql<string>`${inquiries.createdAt}::text` })
      .from(inquiries)
      .where(orm.and(where, after))
      .orderBy(...newestFirst)
      .limit(EXPORT_BATCH);
    if (rows.length === 0) return;
    yield rows.map((r) => r.row);
    const last = rows.at(-1)!;
    cursor = { createdAt: last.cursor, id: last.row.id };
    if (rows.length < EXPORT_BATCH) return;
  }
}

export const INQUIRY_CSV_HEADER = [
  "Date",
  "Name",
  "Email",
  "Phone",
  "Company",
  "Type",
  "Status",
  "Course",
  "Modality",
  "Attendees",
  "Budget",
  "Message",
  "Notes",
  "Suspected spam",
  "ID",
] as const;

function inquiryCsvValues(row: InquiryRow): CsvValue[] {
  return [
    row.createdAt,
    row.name,
    row.email,
    row.phone,
    row.company,
    INQUIRY_TYPE_LABELS[row.inquiryType],
    INQUIRY_STATUS_LABELS[row.status],
    row.courseTitleSnapshot,
    modalityLabel(row.modality),
    row.attendees,
    row.budget,
    row.message,
    row.notes,
    row.spamReason ? SPAM_REASON_LABELS[row.spamReason] : "",
    row.id,
  ];
}

/** The CSV download of the inquiries the list currently shows (all pages), streamed. */
export function inquiriesCsvResponse(
  filters: Omit<InquiryFilters, "page">,
  fileName: string,
): Response {
  async function* rows() {
    for await (const batch of inquiryBatches(filters)) yield batch.map(inquiryCsvValues);
  }
  return csvResponse(fileName, INQUIRY_CSV_HEADER, rows());
}
