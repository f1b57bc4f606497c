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
  type RepliesDue,
} from "#app/lib/inquiries/admin.ts";
import { messagePreview, waitedFor, type StaffOption } from "#app/lib/inquiries/thread.ts";
import type { AdminList } from "#app/lib/admin/list.ts";
import { SPAM_REASON_LABELS } from "#app/lib/admin/suspected-spam.ts";
import { allOf, newestFirst, readListPage, spamFilterCondition } from "../admin-list.server.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { csvResponse, type CsvValue } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import { inquiries, inquiryNotes } from "../db/schema.ts";
import { staffOptions } from "../staff.server.ts";
import { containsPattern, isUuid } from "../db/sql.server.ts";
import { emailExtrasOf, inquiryEmails, type InquiryRow } from "./inquiries.server.ts";
import {
  awaitingCondition,
  awaitsReply,
  dueByCondition,
  DUE_SOON_MS,
  replyDueAt,
} from "./reply-due.server.ts";
import { queueEmailsNotYetQueued } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";

/**
 * Inquiries in the admin area (Dashboard and Inquiries screens): the list with its filters,
 * search, paging and counts (all run in the database), the update dialog, the CSV export, and
 * suspected spam's release (the held e-mails queued) or deletion (decision 0012). Callers have
 * already passed requireAdmin(). Creating inquiries lives in inquiries.server.ts.
 */

export function toAdminInquiry(row: InquiryRow, now: Date = new Date()): AdminInquiry {
  const due = awaitsReply(row) ? replyDueAt(row.inquiryType, row.createdAt) : null;
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
    replyDue: due ? { at: due.toISOString(), overdue: due <= now } : null,
    waiting: due ? waitedFor(row.createdAt, now) : null,
    preview: messagePreview(row.message),
    ownerId: row.ownerId,
    followUpOn: row.followUpOn,
  };
}

/**
 * What the search box matches: name, e-mail and company in one lower-cased string. The same
 * expression is indexed (trigram GIN, migration 0004) where PostgreSQL has pg_trgm.
 */
const inquirySearchText = orm.sql`lower(${inquiries.name} || ' ' || ${inquiries.email} || ' ' || coalesce(${inquiries.company}, ''))`;

/** Who is reading the list: "Mine" means theirs. */
export interface InquiryViewer {
  adminId: string;
}

function adminInquiryWhere(
  filters: Omit<InquiryFilters, "page">,
  viewer: InquiryViewer | null,
): orm.SQL | undefined {
  return allOf([
    filters.type !== "all" ? orm.eq(inquiries.inquiryType, filters.type) : undefined,
    filters.status !== "all" ? orm.eq(inquiries.status, filters.status) : undefined,
    filters.reply === "awaiting"
      ? awaitingCondition()
      : filters.reply === "overdue"
        ? dueByCondition(new Date())
        : undefined,
    filters.owner === "mine"
      ? orm.eq(inquiries.ownerId, viewer?.adminId ?? "")
      : filters.owner === "unassigned"
        ? orm.isNull(inquiries.ownerId)
        : undefined,
    filters.q ? orm.sql`${inquirySearchText} like ${containsPattern(filters.q)}` : undefined,
    spamFilterCondition(inquiries.spamReason, filters.spam),
  ]);
}

const LIST_ORDER = newestFirst([inquiries.createdAt, inquiries.id], "first");

/**
 * One page of inquiries matching the filters, newest first. `knownTotal` (the matching count,
 * when the caller already has it from the status counts) saves counting again.
 */
export function listInquiriesForAdmin(
  filters: InquiryFilters,
  { viewer = null, knownTotal }: { viewer?: InquiryViewer | null; knownTotal?: number } = {},
): Promise<AdminList<AdminInquiry>> {
  const now = new Date();
  return readListPage(inquiries, {
    where: adminInquiryWhere(filters, viewer),
    order: LIST_ORDER,
    page: filters.page,
    pageSize: INQUIRY_PAGE_SIZE,
    knownTotal,
    toItem: (row) => toAdminInquiry(row, now),
  });
}

/**
 * The Inquiries screen's reads: the status counts, and the page — counted from them when it can
 * (no type or search), else read at the same time as them.
 */
export async function inquiriesScreen(
  filters: InquiryFilters,
  viewer: InquiryViewer | null = null,
): Promise<AdminList<AdminInquiry> & { counts: InquiryCounts; staff: StaffOption[] }> {
  const staff = staffOptions();
  if (filters.type !== "all" || filters.reply !== "all" || filters.owner !== "all" || filters.q) {
    const [{ counts }, list] = await Promise.all([
      tallyInquiries(),
      listInquiriesForAdmin(filters, { viewer }),
    ]);
    return { ...list, counts, staff: await staff };
  }
  const { counts, suspectedByStatus } = await tallyInquiries();
  const real = filters.status === "all" ? counts.total : counts[filters.status];
  const suspected =
    filters.status === "all" ? counts.suspected : (suspectedByStatus[filters.status] ?? 0);
  const known =
    filters.spam === "only" ? suspected : filters.spam === "none" ? real : real + suspected;
  return {
    ...(await listInquiriesForAdmin(filters, { viewer, knownTotal: known })),
    counts,
    staff: await staff,
  };
}

/**
 * Counts by status and in total over real inquiries (suspected spam left out), the number held
 * as suspected spam, and those by status. Two aggregates, each read from an index: all
 * inquiries by status (the status index alone, no table rows), and the held ones (few, through
 * their partial index), taken off.
 */
async function tallyInquiries(): Promise<{
  counts: InquiryCounts;
  suspectedByStatus: Partial<Record<InquiryStatus, number>>;
}> {
  const byStatus = (where?: orm.SQL) =>
    db()
      .select({ status: inquiries.status, n: orm.count() })
      .from(inquiries)
      .where(where)
      .groupBy(inquiries.status);
  const [all, held] = await Promise.all([
    byStatus(),
    byStatus(orm.isNotNull(inquiries.spamReason)),
  ]);
  const counts = emptyInquiryCounts();
  const suspectedByStatus: Partial<Record<InquiryStatus, number>> = {};
  for (const row of held) {
    counts.suspected += row.n;
    suspectedByStatus[row.status] = row.n;
  }
  for (const row of all) {
    const real = row.n - (suspectedByStatus[row.status] ?? 0);
    if ((INQUIRY_STATUSES as readonly string[]).includes(row.status)) counts[row.status] = real;
    counts.total += real;
  }
  return { counts, suspectedByStatus };
}

/** Counts by status and in total (suspected spam apart), in one aggregate query. */
export async function countInquiriesByStatus(): Promise<InquiryCounts> {
  return (await tallyInquiries()).counts;
}

/** The dashboard's 10 latest inquiries; suspected spam waits on the Inquiries screen. */
export async function latestInquiries(limit = 10): Promise<AdminInquiry[]> {
  const rows = await db()
    .select()
    .from(inquiries)
    .where(orm.isNull(inquiries.spamReason))
    .orderBy(...LIST_ORDER.newestFirst)
    .limit(limit);
  return rows.map((row) => toAdminInquiry(row));
}

const REPLIES_DUE_CAP = 1000;

/** How many enquiries match, counting no further than the cap. */
async function countUpTo(where: orm.SQL, cap: number): Promise<number> {
  const matching = db()
    .select({ one: orm.sql`1` })
    .from(inquiries)
    .where(where)
    .limit(cap);
  const [row] = await db()
    .select({ n: orm.sql<number>`count(*)::int` })
    .from(matching.as("matching"));
  return Number(row?.n ?? 0);
}

/**
 * The Dashboard's enquiries whose reply is overdue or due within four hours (decision 0047):
 * the `limit` most urgent, and how many of each there are (up to a cap). Oldest first is nearly
 * most urgent first (a licence enquiry has longer), so a few more are read and sorted by due time.
 */
export async function repliesDue(now: Date = new Date(), limit = 10): Promise<RepliesDue> {
  const soon = new Date(now.getTime() + DUE_SOON_MS);
  const [rows, overdue, dueSoon] = await Promise.all([
    db()
      .select()
      .from(inquiries)
      .where(dueByCondition(soon))
      .orderBy(orm.asc(inquiries.createdAt), orm.asc(inquiries.id))
      .limit(limit * 3),
    countUpTo(dueByCondition(now), REPLIES_DUE_CAP),
    countUpTo(orm.and(dueByCondition(soon), orm.not(dueByCondition(now)))!, REPLIES_DUE_CAP),
  ]);
  const items = rows
    .map((row) => toAdminInquiry(row, now))
    .sort((a, b) => a.replyDue!.at.localeCompare(b.replyDue!.at))
    .slice(0, limit);
  return { items, overdue, dueSoon, cap: REPLIES_DUE_CAP };
}

/**
 * One inquiry by id, for `/admin/inquiries?inquiry=<id>` (the Dashboard's rows link there): null
 * for anything that is not a UUID or names no inquiry. Held ones are found too.
 */
export async function findInquiryForAdmin(id: string): Promise<AdminInquiry | null> {
  if (!isUuid(id)) return null;
  const [row] = await db().select().from(inquiries).where(orm.eq(inquiries.id, id));
  return row ? toAdminInquiry(row) : null;
}

/**
 * The update dialog: status and notes, nothing else. Null when there is no such inquiry. What
 * changed is written to the audit log as the admin's, in the same transaction.
 */
export async function updateInquiryForAdmin(
  update: InquiryUpdate,
  actor: AuditActor,
): Promise<AdminInquiry | null> {
  const row = await db().transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(inquiries)
      .where(orm.eq(inquiries.id, update.id))
      .for("update");
    if (!before) return null;
    const [after] = await tx
      .update(inquiries)
      .set({ status: update.status, notes: update.notes, updatedAt: new Date() })
      .where(orm.eq(inquiries.id, update.id))
      .returning();
    // The dialog's notes field is the latest note (decision 0048): a changed one joins the list.
    if (update.notes !== null && update.notes !== before.notes) {
      await tx.insert(inquiryNotes).values({
        inquiryId: before.id,
        authorId: actor.id,
        author: actor.email,
        body: update.notes,
      });
    }
    const changes = changedFields(before, after!, ["status", "notes"]);
    if (changes) {
      await recordAudit(tx, actor, {
        action: "inquiry.update",
        subjectType: "inquiry",
        subjectId: before.id,
        summary: before.email,
        ...changes,
      });
    }
    return after!;
  });
  return row ? toAdminInquiry(row) : null;
}

const EXPORT_BATCH = 1000;

/** Every inquiry matching the filters, newest first, read in batches (keyset, not offset). */
async function* inquiryBatches(
  filters: Omit<InquiryFilters, "page">,
  viewer: InquiryViewer | null,
) {
  const where = adminInquiryWhere(filters, viewer);
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
      .orderBy(...LIST_ORDER.newestFirst)
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
  viewer: InquiryViewer | null = null,
): Response {
  async function* rows() {
    for await (const batch of inquiryBatches(filters, viewer)) yield batch.map(inquiryCsvValues);
  }
  return csvResponse(fileName, INQUIRY_CSV_HEADER, rows());
}

/* Suspected spam held for review (decision 0012): release sends what was held; delete. */

/**
 * 'Release' on a suspected-spam inquiry: clears the mark and queues, in the same transaction,
 * the e-mails the normal path sends that have not gone yet (a 'recipient_limit' inquiry's staff
 * alert went at the time; its confirmation goes now). Null when there is no such held inquiry.
 */
export async function releaseInquiry(id: string, actor: AuditActor): Promise<AdminInquiry | null> {
  const released = await db().transaction(async (tx) => {
    const [held] = await tx
      .select({ spamReason: inquiries.spamReason })
      .from(inquiries)
      .where(orm.and(orm.eq(inquiries.id, id), orm.isNotNull(inquiries.spamReason)))
      .for("update");
    if (!held) return null;
    const [row] = await tx
      .update(inquiries)
      .set({ spamReason: null, updatedAt: new Date() })
      .where(orm.and(orm.eq(inquiries.id, id), orm.isNotNull(inquiries.spamReason)))
      .returning();
    if (!row) return null;
    await recordAudit(tx, actor, {
      action: "inquiry.release",
      subjectType: "inquiry",
      subjectId: row.id,
      summary: row.email,
      before: { spamReason: held.spamReason },
      after: { spamReason: null },
    });
    await queueEmailsNotYetQueued(
      tx,
      { inquiryId: row.id },
      inquiryEmails(row, emailExtrasOf(row)),
    );
    return row;
  });
  if (!released) return null;
  log.info({ inquiryId: released.id }, "suspected-spam inquiry released");
  nudgeOutbox();
  return toAdminInquiry(released);
}

/** What the audit log keeps of a deleted held inquiry: who wrote, about what (not the message). */
const DELETED_INQUIRY_FIELDS = [
  "name",
  "email",
  "company",
  "inquiryType",
  "spamReason",
  "createdAt",
] as const;

/** 'Delete' on a suspected-spam inquiry (only those: real inquiries are kept). */
export async function deleteSuspectedInquiry(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const rows = await tx
      .delete(inquiries)
      .where(orm.and(orm.eq(inquiries.id, id), orm.isNotNull(inquiries.spamReason)))
      .returning();
    for (const row of rows) {
      await recordAudit(tx, actor, {
        action: "inquiry.delete",
        subjectType: "inquiry",
        subjectId: row.id,
        summary: row.email,
        before: auditSnapshot(row, DELETED_INQUIRY_FIELDS),
      });
    }
    return rows;
  });
  if (deleted.length > 0) log.info({ inquiryId: id }, "suspected-spam inquiry deleted");
  return deleted.length > 0;
}
