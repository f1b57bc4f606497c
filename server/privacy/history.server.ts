import * as orm from "drizzle-orm";
import type { PersonalRecord } from "#app/lib/admin/privacy.ts";
import { auditLog, orderEvents } from "../db/schema.ts";
import { type Executor, iso } from "./matching.server.ts";

/**
 * A person in the site's history (decision 0020): the audit rows and order timeline entries that
 * name them — found for the privacy search and export, and redacted by an erasure. The rows stay
 * (when, who, what kind of change, amounts and statuses); what identifies the person goes:
 * - a row about one of their inquiries, subscriptions or orders loses every text value but the
 *   few that only classify (status, type, source…), and an inquiry's or subscription's summary
 *   (their address);
 * - a note on one of their orders loses its words;
 * - any other row or entry loses the address wherever it appears.
 */

export const REDACTED = "[erased]";

/** Values that say what kind of thing changed, never who: kept in a redacted row. */
const CLASSIFYING_KEYS = new Set([
  "status",
  "inquiryType",
  "isActive",
  "source",
  "reason",
  "method",
  "kind",
  "currency",
  "modality",
  "notifyBuyer",
  "paymentMethod",
]);

/** The person's own records, whose rows are about them through and through. */
export interface PersonsRecords {
  inquiryIds: string[];
  subscriptionIds: string[];
  orderIds: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function withoutAddress(text: string, address: string): string {
  return text.replace(new RegExp(escapeRegExp(address), "gi"), REDACTED);
}

/** A JSON value redacted: every text (but classifying ones) when `whole`, else the address. */
function redactJson(value: unknown, address: string, whole: boolean, key = ""): unknown {
  if (typeof value === "string") {
    if (whole && !CLASSIFYING_KEYS.has(key)) return value === "" ? value : REDACTED;
    return withoutAddress(value, address);
  }
  if (Array.isArray(value)) return value.map((v) => redactJson(v, address, whole, key));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactJson(v, address, whole, k)]),
    );
  }
  return value;
}

type AuditRow = typeof auditLog.$inferSelect;
type EventRow = typeof orderEvents.$inferSelect;

export interface HistoryRedaction {
  audit: { row: AuditRow; summary: string; before: unknown; after: unknown }[];
  events: { row: EventRow; detail: Record<string, unknown> | null }[];
}

const contains = (column: orm.AnyColumn, address: string) =>
  orm.sql`strpos(lower(coalesce(${column}::text, '')), ${address}) > 0`;

/**
 * The history rows naming the person, each with what it becomes once redacted; only rows the
 * redaction changes are listed (an order's status change names nobody).
 */
export async function historyOf(
  executor: Executor,
  address: string,
  records: PersonsRecords,
): Promise<HistoryRedaction> {
  const about = (type: string, ids: string[]) =>
    ids.length
      ? orm.and(orm.eq(auditLog.subjectType, type), orm.inArray(auditLog.subjectId, ids))
      : undefined;
  const personal = [
    about("inquiry", records.inquiryIds),
    about("subscription", records.subscriptionIds),
    about("order", records.orderIds),
  ].filter((c): c is orm.SQL => Boolean(c));
  const auditRows = await executor
    .select()
    .from(auditLog)
    .where(
      orm.and(
        orm.ne(auditLog.subjectType, "privacy"),
        orm.or(
          ...personal,
          contains(auditLog.summary, address),
          contains(auditLog.before, address),
          contains(auditLog.after, address),
        ),
      ),
    )
    .orderBy(auditLog.at);
  const eventRows = await executor
    .select()
    .from(orderEvents)
    .where(
      orm.or(
        records.orderIds.length ? orm.inArray(orderEvents.orderId, records.orderIds) : undefined,
        contains(orderEvents.detail, address),
      ),
    )
    .orderBy(orderEvents.createdAt);

  const isPersonal = (row: AuditRow) =>
    (row.subjectType === "inquiry" && records.inquiryIds.includes(row.subjectId ?? "")) ||
    (row.subjectType === "subscription" && records.subscriptionIds.includes(row.subjectId ?? "")) ||
    (row.subjectType === "order" && records.orderIds.includes(row.subjectId ?? ""));

  const audit = auditRows.flatMap((row) => {
    const whole = isPersonal(row);
    // An order's summary is its reference; an inquiry's or a subscription's is the address.
    const summary =
      whole && row.subjectType !== "order" ? REDACTED : withoutAddress(row.summary, address);
    const before = redactJson(row.before, address, whole);
    const after = redactJson(row.after, address, whole);
    const changed =
      summary !== row.summary ||
      JSON.stringify(before) !== JSON.stringify(row.before) ||
      JSON.stringify(after) !== JSON.stringify(row.after);
    return changed ? [{ row, summary, before, after }] : [];
  });
  const events = eventRows.flatMap((row) => {
    const own = records.orderIds.includes(row.orderId);
    // On the person's own order a note is about them; elsewhere only the address goes.
    const detail = row.detail
      ? (redactJson(row.detail, address, own && row.kind === "note") as Record<string, unknown>)
      : null;
    return JSON.stringify(detail) !== JSON.stringify(row.detail) ? [{ row, detail }] : [];
  });
  return { audit, events };
}

/** The history rows as the privacy screen and export list them (as they are now). */
export function personalRecords(history: HistoryRedaction): PersonalRecord[] {
  return [
    ...history.audit.map(({ row }) => ({
      id: row.id,
      kind: "audit" as const,
      at: iso(row.at),
      what: row.action,
      text: [
        row.summary,
        row.before && JSON.stringify(row.before),
        row.after && JSON.stringify(row.after),
      ]
        .filter(Boolean)
        .join(" "),
    })),
    ...history.events.map(({ row }) => ({
      id: row.id,
      kind: "order_event" as const,
      at: iso(row.createdAt),
      what: row.kind,
      text: row.detail ? JSON.stringify(row.detail) : "",
    })),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/**
 * Applies the redaction, inside the erasure's transaction. The audit log is append-only; its
 * trigger lets these rows' summary and values change only while this transaction says it is an
 * erasure (`nightwatch.erasure`), and the erasure writes its own audit row.
 */
export async function redactHistory(executor: Executor, history: HistoryRedaction): Promise<void> {
  if (history.audit.length) {
    await executor.execute(orm.sql`select set_config('nightwatch.erasure', 'on', true)`);
    for (const { row, summary, before, after } of history.audit) {
      await executor
        .update(auditLog)
        .set({
          summary,
          before: before as Record<string, unknown> | null,
          after: after as Record<string, unknown> | null,
        })
        .where(orm.eq(auditLog.id, row.id));
    }
    await executor.execute(orm.sql`select set_config('nightwatch.erasure', 'off', true)`);
  }
  for (const { row, detail } of history.events) {
    await executor.update(orderEvents).set({ detail }).where(orm.eq(orderEvents.id, row.id));
  }
}
