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
 * A list's order, newest first, and its exact reverse. Both end with the id, so pages never
 * overlap; `nulls` must match the list's index, which PostgreSQL then walks either way.
 */
export interface ListOrder {
  readonly newestFirst: readonly orm.SQL[];
  readonly oldestFirst: readonly orm.SQL[];
}

export function newestFirst(
  columns: readonly [PgColumn, ...PgColumn[]],
  nulls: "first" | "last",
): ListOrder {
  const back = nulls === "first" ? "last" : "first";
  return {
    newestFirst: columns.map((c) => orm.sql`${c} desc nulls ${orm.sql.raw(nulls)}`),
    oldestFirst: columns.map((c) => orm.sql`${c} asc nulls ${orm.sql.raw(back)}`),
  };
}

/**
 * One page of rows matching `where`, newest first, and how many match — counted unless
 * `knownTotal` is given (a screen that has just counted by status knows it); a page past the end
 * shows the last one. Counting apart from the page lets PostgreSQL plan each: the count from a
 * search's index, the page by walking the list's index until it has a page; the first page is
 * read while counting. A page in the older half is read oldest first from the other end, so no
 * page skips more than half the list (the last page of 200,000 inquiries skipped them all). The
 * page's ids are read first (the skipped rows are walked in the index only), then their rows.
 */
export async function readListPage<Table extends TableWithId, Item>(
  table: Table,
  options: {
    where: orm.SQL | undefined;
    order: ListOrder;
    page: number;
    pageSize: number;
    knownTotal?: number;
    toItem: (row: Table["$inferSelect"]) => Item;
  },
): Promise<AdminList<Item>> {
  const { where, order, pageSize } = options;
  const idsFrom = (newest: boolean, offset: number, limit: number) =>
    db()
      .select({ id: table.id })
      .from(table as PgTable)
      .where(where)
      .orderBy(...(newest ? order.newestFirst : order.oldestFirst))
      .limit(limit)
      .offset(offset);
  const counting = async () =>
    (
      await db()
        .select({ n: orm.count() })
        .from(table as PgTable)
        .where(where)
    )[0]?.n ?? 0;
  // The first page (where a search lands) is read while the matches are counted: a search's
  // cost is then the slower of the two, not both.
  const [total, firstIds] =
    options.knownTotal !== undefined
      ? [options.knownTotal, null]
      : options.page <= 1
        ? await Promise.all([counting(), idsFrom(true, 0, pageSize)])
        : [await counting(), null];
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, options.page), pageCount);
  if (total === 0) return { items: [], total, page, pageCount };
  const skipped = (page - 1) * pageSize;
  const fromNewest = skipped <= total / 2;
  const size = Math.min(pageSize, total - skipped);
  const ids =
    page === 1 && firstIds
      ? firstIds
      : await idsFrom(fromNewest, fromNewest ? skipped : total - skipped - size, size);
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
    .orderBy(...order.newestFirst)) as Table["$inferSelect"][];
  return { items: rows.map(options.toItem), total, page, pageCount };
}
