import * as orm from "drizzle-orm";
import type { AdminList } from "#app/lib/admin/list.ts";
import { startOfLondonDate } from "#app/lib/admin/time.ts";
import {
  AUDIT_PAGE_SIZE,
  auditSubjectHref,
  SIGN_IN_ACTION_PREFIX,
  SYSTEM_PERSON,
  type AuditEntryView,
  type AuditFilters,
  type AuditPerson,
  type AuditSubject,
} from "#app/lib/admin/audit.ts";
import { allOf, newestFirst, readListPage } from "./admin-list.server.ts";
import { db, type Database, type Transaction } from "./db/client.server.ts";
import { auditLog, orders } from "./db/schema.ts";
import { isUuid } from "./db/sql.server.ts";

/**
 * The audit log (decision 0019): who did what, when, to what, with the changed fields before and
 * after. Every admin change writes its row with `recordAudit(tx, …)` inside the transaction
 * of the change itself, so the log holds a change if and only if the change committed. The
 * table is append-only (a trigger refuses UPDATE and DELETE).
 */

/** Who acted: the signed-in admin (`requireAdmin`'s answer), or null for the system. */
export interface AuditActor {
  id: string;
  email: string;
}

export { AUDIT_SUBJECTS, type AuditSubject } from "#app/lib/admin/audit.ts";

export interface AuditEntry {
  /** `<subject>.<verb>`, e.g. course.update, order.status, auth.sign_in_failed. */
  action: string;
  subjectType: AuditSubject;
  subjectId?: string | null;
  /** A short line for the list: the course title, the order reference, the e-mail. */
  summary: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ipAddress?: string | null;
}

/** Writes one audit row in `tx` (the change's transaction, or the database for sign-ins). */
export async function recordAudit(
  tx: Transaction | Database,
  actor: AuditActor | null,
  entry: AuditEntry,
): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor?.id ?? null,
    actorEmail: actor?.email ?? null,
    action: entry.action,
    subjectType: entry.subjectType,
    subjectId: entry.subjectId ?? null,
    summary: entry.summary.slice(0, 300),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ipAddress: entry.ipAddress ?? null,
  });
}

/**
 * The fields that differ between two versions of a row, as `{ before, after }` holding only
 * those keys (dates as ISO strings, long texts cut): what an update's audit row records.
 * `keys` limits the comparison (e.g. leave out updated_at). Null when nothing changed.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  keys: readonly (keyof T & string)[] = Object.keys(after) as (keyof T & string)[],
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of keys) {
    if (!(key in after)) continue;
    const a = auditValue(before[key]);
    const b = auditValue(after[key]);
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    was[key] = a;
    now[key] = b;
  }
  return Object.keys(now).length ? { before: was, after: now } : null;
}

/** The fields of a row worth recording when it is created or deleted. */
export function auditSnapshot<T extends Record<string, unknown>>(
  row: T,
  keys: readonly (keyof T & string)[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = auditValue(row[key]);
  return out;
}

const MAX_TEXT = 2000;

function auditValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" && value.length > MAX_TEXT)
    return `${value.slice(0, MAX_TEXT)}… (${value.length} characters)`;
  return value;
}

/* ------------------------------------------------------------------------------------------ */
/* Reading the log (the /admin/audit screen)                                                    */

/**
 * Newest first, as the index `audit_log_at_idx` (at desc nulls last, id desc nulls last) is
 * sorted, so any page is an index walk; the id breaks ties so pages never overlap.
 */
const LIST_ORDER = newestFirst([auditLog.at, auditLog.id], "last");

/** The WHERE condition of the screen's filters: person, kind and London dates (inclusive). */
export function auditFilterCondition(filters: Omit<AuditFilters, "page">): orm.SQL | undefined {
  const signIn = orm.like(auditLog.action, `${SIGN_IN_ACTION_PREFIX}%`);
  return allOf([
    filters.person === "all"
      ? undefined
      : filters.person === SYSTEM_PERSON
        ? orm.isNull(auditLog.actorId)
        : orm.eq(auditLog.actorId, filters.person),
    filters.kind === "all"
      ? undefined
      : filters.kind === "auth"
        ? signIn
        : // The kinds are apart: a sign-in recorded on an admin is under "Sign-ins" only.
          orm.and(orm.eq(auditLog.subjectType, filters.kind), orm.not(signIn)),
    filters.from ? orm.gte(auditLog.at, startOfLondonDate(filters.from)) : undefined,
    filters.to ? orm.lt(auditLog.at, startOfLondonDate(filters.to, 1)) : undefined,
  ]);
}

/** The admins who appear in the log, by e-mail (their latest recorded address). */
export async function auditPeople(): Promise<AuditPerson[]> {
  const rows = await db()
    .select({
      id: auditLog.actorId,
      email: orm.sql<string>`(array_agg(${auditLog.actorEmail} order by ${auditLog.at} desc))[1]`,
    })
    .from(auditLog)
    .where(orm.isNotNull(auditLog.actorId))
    .groupBy(auditLog.actorId);
  return rows
    .map((r) => ({ id: r.id!, email: r.email ?? r.id! }))
    .sort((a, b) => a.email.localeCompare(b.email, "en-GB"));
}

/** Of these subjects, the ones that still exist (only kinds with an admin page are looked up). */
async function existingSubjects(
  rows: { subjectType: string; subjectId: string | null }[],
): Promise<Set<string>> {
  const orderIds = [
    ...new Set(
      rows
        .filter((r) => r.subjectType === "order" && r.subjectId && isUuid(r.subjectId))
        .map((r) => r.subjectId!),
    ),
  ];
  if (orderIds.length === 0) return new Set();
  const found = await db()
    .select({ id: orders.id })
    .from(orders)
    .where(orm.inArray(orders.id, orderIds));
  return new Set(found.map((r) => `order:${r.id}`));
}

/** One page of the log, newest first, filtered in the database, and the "Person" choices. */
export async function auditLogScreen(
  filters: AuditFilters,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<AdminList<AuditEntryView> & { people: AuditPerson[] }> {
  const [list, people] = await Promise.all([
    readListPage(auditLog, {
      where: auditFilterCondition(filters),
      order: LIST_ORDER,
      page: filters.page,
      pageSize,
      toItem: (row) => row,
    }),
    auditPeople(),
  ]);
  const existing = await existingSubjects(list.items);
  const items = list.items.map((row): AuditEntryView => ({
    id: row.id,
    at: row.at.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    summary: row.summary,
    before: row.before ?? null,
    after: row.after ?? null,
    href: existing.has(`${row.subjectType}:${row.subjectId}`)
      ? auditSubjectHref(row.subjectType, row.subjectId)
      : null,
  }));
  return { ...list, items, people };
}
