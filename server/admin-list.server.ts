import * as orm from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { AdminList } from "#app/lib/admin/list.ts";
import type { SpamFilter } from "#app/lib/admin/suspected-spam.ts";
import { db } from "./db/client.server.ts";

/**
 * What the admin list screens' queries share (Inquiries, Newsletter, Payments): the spam filter
 * and reading one page. Callers have already passed requireAdmin().
 */

/** The `spam` filter as a condition on a table's `spam_reason`: all, only held rows, or none. */
export function spamFilterCondition(spamReason: PgColumn, spam: SpamFilter): orm.SQL | undefined {
  if (spam === "only") return orm.isNotNull(spamReason);
  if (spam === "none") return orm.isNull(spamReason);
  return undefined;
}

/** The conditions that are set, joined with AND; undefined for none. */
export function allOf(conditions: (orm.SQL | undefined)[]): orm.SQL | undefined {
  const set = conditions.filter((c): c is orm.SQL => c !== undefined);
  return set.length ? orm.and(...set) : undefined;
}

type TableWithId = PgTable & { id: PgColumn };

/**
 * One page of rows matching `where`, in `order` (which must end with the id, so pages never
 * overlap). Counts the matches unless `knownTotal` is given (a screen that has just counted by
 * status knows it); a page past the end shows the last one. The page's ids are read first (the
 * skipped rows are walked in the index only), then their rows.
 */
export async function readListPage<Table extends TableWithId, Item>(
  table: Table,
  options: {
    where: orm.SQL | undefined;
    order: readonly orm.SQL[];
    page: number;
    pageSize: number;
    knownTotal?: number;
    toItem: (row: Table["$inferSelect"]) => Item;
  },
): Promise<AdminList<Item>> {
  const { where, order, pageSize } = options;
  let total = options.knownTotal;
  if (total === undefined) {
    const [counted] = await db()
      .select({ n: orm.count() })
      .from(table as PgTable)
      .where(where);
    total = counted?.n ?? 0;
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(options.page, pageCount);
  if (total === 0) return { items: [], total, page, pageCount };
  const pageIds = db()
    .select({ id: table.id })
    .from(table as PgTable)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const rows = (await db()
    .select()
    .from(table as PgTable)
    .where(orm.inArray(table.id, pageIds))
    .orderBy(...order)) as Table["$inferSelect"][];
  return { items: rows.map(options.toItem), total, page, pageCount };
}
