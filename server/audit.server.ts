import type { Database, Transaction } from "./db/client.server.ts";
import { auditLog } from "./db/schema.ts";

/**
 * The audit log (issue 17): who did what, when, to what, with the changed fields before and
 * after. Every admin change writes its row with `recordAudit(tx, …)` inside the transaction
 * of the change itself, so the log holds a change if and only if the change committed. The
 * table is append-only (a trigger refuses UPDATE and DELETE).
 */

/** Who acted: the signed-in admin (`requireAdmin`'s answer), or null for the system. */
export interface AuditActor {
  id: string;
  email: string;
}

/** The kinds of subject the log names (the admin's filter lists these). */
export const AUDIT_SUBJECTS = [
  "course",
  "category",
  "partner",
  "inquiry",
  "order",
  "subscription",
  "admin",
  "privacy",
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

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
