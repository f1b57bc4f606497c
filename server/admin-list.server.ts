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
 * overlap), and how many match — unless `knownTotal` is given (a screen that has just counted by
 * status knows it); a page past the end shows the last one. The page's ids are read first (the
 * skipped rows are walked in the index only), then their rows. Without a known total the ids come
 * with `count(*) over ()`: a search is run once, not once to count and again for its page (at
 * volume that halves a search's time).
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
  const { where, order, pageSize, knownTotal } = options;
  // Counted with the page only when not known: the window reads every match.
  const counting =
    knownTotal === undefined ? orm.sql<number>`count(*) over ()` : orm.sql<number>`0`;
  const idsOfPage = (page: number) =>
    db()
      .select({ id: table.id, total: counting })
      .from(table as PgTable)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  const lastPage = (total: number) => Math.max(1, Math.ceil(total / pageSize));

  let page = knownTotal === undefined ? options.page : Math.min(options.page, lastPage(knownTotal));
  let ids = knownTotal === 0 ? [] : await idsOfPage(page);
  let total = knownTotal ?? Number(ids[0]?.total ?? 0);
  if (knownTotal === undefined && ids.length === 0 && page > 1) {
    // Past the end: count, and show the last page instead.
    const [counted] = await db()
      .select({ n: orm.count() })
      .from(table as PgTable)
      .where(where);
    total = counted?.n ?? 0;
    page = lastPage(total);
    ids = total > 0 ? await idsOfPage(page) : [];
  }
  const pageCount = lastPage(total);
  if (ids.length === 0) return { items: [], total, page, pageCount };
  const rows = (await db()
    .select()
    .from(table as PgTable)
    .where(
      orm.inArray(
        table.id,
        ids.map((r) => r.id),
      ),
    )
    .orderBy(...order)) as Table["$inferSelect"][];
  return { items: rows.map(options.toItem), total, page, pageCount };
}
