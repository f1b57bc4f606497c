import { and, eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  orderListStatus,
  orderReference,
  type OrderListStatus,
  type AdminOrder,
  type OrderStats,
  type OrderStatus,
} from "#app/lib/orders/orders.ts";
import { ORDERS_PAGE_SIZE, type OrderFilters } from "#app/lib/orders/order-filters.ts";
import type { AdminList } from "#app/lib/admin/list.ts";
import { startOfLondonDate, startOfLondonDay } from "#app/lib/admin/time.ts";
import { allOf, newestFirst, readListPage } from "../admin-list.server.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { orderDocuments, orderStudents, orders } from "../db/schema.ts";
import { containsPattern, isUuid } from "../db/sql.server.ts";
import { queueEmailsNotYetQueued } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { inForce } from "../invoices/documents.server.ts";
import { closeCheckoutSession } from "../payments/stripe.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { invoiceRequestEmails } from "./emails.server.ts";
import {
  orderBooking,
  studentsOfOrder,
  studentsOfOrders,
  type OrderRow,
  type OrderStudent,
} from "./records.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { revenueColumns, revenueCondition, toRevenue } from "./revenue.server.ts";
import { adminActions, transitionOrder } from "./state-machine.server.ts";

/**
 * The admin Payments screen: the stat cards, the filtered list, an admin's status
 * change and the release of a suspected-spam order. The CSV export reads the same filter and
 * order as the list (csv.server.ts).
 */

/**
 * Newest first, as the index `orders_created_at_id_idx` (created_at desc nulls last, id desc nulls
 * last) is sorted — a plain DESC means NULLS FIRST and would not match it — so any page of the
 * list is an index walk, and `id` breaks ties so pages never overlap.
 */
export const LIST_ORDER = newestFirst([orders.createdAt, orders.id], "last");

/**
 * What the Payments search looks in: buyer name (first, last, full), e-mail, company and course
 * title, lower-cased in one string. Exactly the expression of the trigram index
 * `orders_search_trgm_idx` (migration 0004), so PostgreSQL with pg_trgm answers from the index.
 */
const orderSearchText = sql`lower(${orders.buyerFirstName} || ' ' || ${orders.buyerLastName} || ' ' || ${orders.buyerEmail} || ' ' || coalesce(${orders.buyerCompany}, '') || ' ' || ${orders.courseTitleSnapshot})`;

/** What a student's name and e-mail are searched as (order_students has no trigram index yet). */
const studentSearchText = sql`lower(${orderStudents.firstName} || ' ' || ${orderStudents.lastName} || ' ' || ${orderStudents.email})`;

/**
 * The id range a search for an order reference covers, or null when the search is not one. The
 * reference is 'NW-' and the id's first eight hex digits (orderReference), so 'NW-1A2B3C4D',
 * 'nw-1a2b' (a prefix, with 'NW-') and '1a2b3c4d' (all eight, without) match the ids starting
 * with those digits — a range of the primary key. A whole order id matches that order.
 */
export function referenceIdRange(search: string): { from: string; to: string } | null {
  const term = search.trim().toLowerCase();
  if (isUuid(term)) return { from: term, to: term };
  const match = /^(?:nw-?([0-9a-f]{1,8})|([0-9a-f]{8}))$/.exec(term);
  const digits = match?.[1] ?? match?.[2];
  if (!digits) return null;
  const bound = (fill: string) => {
    const hex = digits.padEnd(32, fill);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
  return { from: bound("0"), to: bound("f") };
}

/**
 * The Payments search: the orders whose reference, buyer (name, e-mail), company (as typed or
 * as billed), course, PO number or named students (name, e-mail) contain the text, each with
 * when it was placed (the list's order). Written as a UNION rather than one OR, so each part
 * can use its own index: the buyer part is exactly the trigram index's expression, the
 * reference part a range of the primary key.
 */
function orderSearchRows(search: string): SQL {
  const pattern = containsPattern(search);
  const range = referenceIdRange(search);
  const byReference = range
    ? sql` union select ${orders.id}, ${orders.createdAt} from ${orders} where ${orders.id} between ${range.from}::uuid and ${range.to}::uuid`
    : sql``;
  return sql`select ${orders.id}, ${orders.createdAt} from ${orders} where ${orderSearchText} like ${pattern}
    union
    select ${orders.id}, ${orders.createdAt} from ${orders} where lower(coalesce(${orders.billingOrganisation}, '') || ' ' || coalesce(${orders.poNumber}, '')) like ${pattern}
    union
    select ${orderStudents.orderId}, ${orders.createdAt} from ${orderStudents} join ${orders} on ${orders.id} = ${orderStudents.orderId} where ${studentSearchText} like ${pattern}${byReference}`;
}

function orderSearchCondition(search: string): SQL {
  return sql`${orders.id} in (select found.id from (${orderSearchRows(search)}) as found)`;
}

/**
 * A page of a search alone and how many orders it matches, from one pass over what the search
 * finds: the matches carry their date, so the page is sorted from them (a join back to every
 * order to learn the dates was a scan of the table) and counted by the same query. A page past
 * the end shows the last one, as every list does.
 */
async function searchPage(
  search: string,
  requestedPage: number,
  pageSize: number,
): Promise<{ ids: string[]; total: number; page: number; pageCount: number }> {
  const read = (page: number) =>
    db()
      .select({ id: sql<string>`found.id`, total: sql<number>`(count(*) over ())::int` })
      .from(sql`(${orderSearchRows(search)}) as found`)
      .orderBy(sql`found.created_at desc nulls last`, sql`found.id desc nulls last`)
      .limit(pageSize)
      .offset((page - 1) * pageSize);
  const page = Math.max(1, requestedPage);
  let rows = await read(page);
  if (rows.length === 0 && page > 1) {
    // Past the end (or nothing found): count, then read the last page if there is one.
    const [counted] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`(${orderSearchRows(search)}) as found`);
    const total = Number(counted?.n ?? 0);
    const last = Math.max(1, Math.ceil(total / pageSize));
    rows = total > 0 ? await read(last) : [];
  }
  const total = Number(rows[0]?.total ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  return {
    ids: rows.map((r) => r.id),
    total,
    page: Math.min(page, pageCount),
    pageCount,
  };
}

/** The orders of a status as shown (orderListStatus): refunds split the paid ones three ways. */
function listStatusCondition(status: OrderListStatus): SQL {
  switch (status) {
    case "paid":
      return and(eq(orders.status, "paid"), sql`${orders.refundedAmountCents} <= 0`)!;
    case "partly_refunded":
      return and(
        eq(orders.status, "paid"),
        sql`${orders.refundedAmountCents} > 0`,
        sql`${orders.refundedAmountCents} < ${orders.totalAmountCents}`,
      )!;
    case "refunded":
      return and(
        eq(orders.status, "paid"),
        sql`${orders.refundedAmountCents} > 0`,
        sql`${orders.refundedAmountCents} >= ${orders.totalAmountCents}`,
      )!;
    default:
      return eq(orders.status, status);
  }
}

/** The WHERE condition of the Payments screen's status, method and search filters. */
export function orderFilterCondition(
  filters: Omit<OrderFilters, "page">,
  now: Date = new Date(),
): SQL | undefined {
  return allOf([
    filters.status === "overdue"
      ? overdueCondition(now)
      : filters.status
        ? listStatusCondition(filters.status)
        : undefined,
    filters.method ? eq(orders.paymentMethod, filters.method) : undefined,
    filters.search ? orderSearchCondition(filters.search) : undefined,
    dateRangeCondition(filters),
  ]);
}

/**
 * Invoiced orders whose invoice in force (the one no correction replaced) was due before today
 * began in London: overdue from the day after the due date, as the register says.
 */
function overdueCondition(now: Date): SQL {
  const today = startOfLondonDay(now).toISOString();
  return and(
    eq(orders.status, "invoiced"),
    sql`exists (select 1 from ${orderDocuments} d where d.order_id = ${orders.id}
      and d.kind = 'invoice'
      and ${inForce(sql.raw("d.id"))}
      and (d.snapshot ->> 'dueDate')::timestamptz < ${today}::timestamptz)`,
  )!;
}

/**
 * The date range, in London days (both included), on the date chosen: when the order was
 * placed, when it was first invoiced (its first invoice's issue), or when it was paid.
 */
function dateRangeCondition(filters: Pick<OrderFilters, "dates" | "from" | "to">): SQL | undefined {
  if (!filters.from && !filters.to) return undefined;
  const start = filters.from ? startOfLondonDate(filters.from).toISOString() : null;
  const end = filters.to ? startOfLondonDate(filters.to, 1).toISOString() : null;
  const within = (column: SQL | PgColumn) =>
    allOf([
      start ? sql`${column} >= ${start}::timestamptz` : undefined,
      end ? sql`${column} < ${end}::timestamptz` : undefined,
    ])!;
  if (filters.dates === "paid") return within(orders.paidAt);
  if (filters.dates === "invoiced") {
    return sql`exists (select 1 from ${orderDocuments} d where d.order_id = ${orders.id}
      and d.kind = 'invoice' and d.replaces_document_id is null and ${within(sql.raw("d.issued_at"))})`;
  }
  return within(orders.createdAt);
}

/**
 * Counters for the stat cards in one aggregate query (no rows are loaded), and the revenue as
 * revenue.server.ts defines it. 'Paid' counts the paid orders without refunds, as its filter
 * shows them; refunded ones (in part or in full) have their own count.
 */
export async function orderStats(): Promise<OrderStats> {
  const count = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  // One pass over orders_money_idx for the counts and the revenue together.
  const [row] = await db()
    .select({
      total: sql<number>`count(*)::int`,
      pending: count(eq(orders.status, "pending")),
      invoiced: count(eq(orders.status, "invoiced")),
      paid: count(listStatusCondition("paid")),
      refunded: count(and(eq(orders.status, "paid"), sql`${orders.refundedAmountCents} > 0`)!),
      failed: count(eq(orders.status, "failed")),
      canceled: count(eq(orders.status, "canceled")),
      revenue: revenueColumns(revenueCondition()),
    })
    .from(orders);
  return {
    total: Number(row?.total ?? 0),
    pending: Number(row?.pending ?? 0),
    invoiced: Number(row?.invoiced ?? 0),
    paid: Number(row?.paid ?? 0),
    refunded: Number(row?.refunded ?? 0),
    failed: Number(row?.failed ?? 0),
    canceled: Number(row?.canceled ?? 0),
    revenue: toRevenue(row?.revenue),
  };
}

/** An order as the Payments list and the order page show it. */
export function toAdminOrder(order: OrderRow, students: OrderStudent[]): AdminOrder {
  return {
    id: order.id,
    reference: orderReference(order.id),
    status: order.status,
    ...orderBooking(order),
    currency: order.currency,
    spamReason: order.spamReason,
    refundedAmountCents: order.refundedAmountCents,
    listStatus: orderListStatus(order),
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    students,
    actions: adminActions(order),
  };
}

/** One order as the list shows it, its students read afresh (after a change). */
async function adminOrder(order: OrderRow): Promise<AdminOrder> {
  const students = await studentsOfOrders([order.id]);
  return toAdminOrder(order, students.get(order.id) ?? []);
}

/**
 * One page of orders, newest first, filtered and searched in the database, with the page's
 * students (one more query for the whole page).
 */
export async function listOrders(
  filters: OrderFilters,
  pageSize = ORDERS_PAGE_SIZE,
): Promise<AdminList<AdminOrder>> {
  const searchOnly =
    filters.search && !filters.status && !filters.method && !filters.from && !filters.to;
  const list = searchOnly
    ? await searchedOrders(filters.search, filters.page, pageSize)
    : await readListPage(orders, {
        where: orderFilterCondition(filters),
        order: LIST_ORDER,
        page: filters.page,
        pageSize,
        toItem: (row) => row,
      });
  const students = await studentsOfOrders(list.items.map((r) => r.id));
  return { ...list, items: list.items.map((r) => toAdminOrder(r, students.get(r.id) ?? [])) };
}

/** A page of a search alone (searchPage), with its orders' rows. */
async function searchedOrders(
  search: string,
  page: number,
  pageSize: number,
): Promise<AdminList<OrderRow>> {
  const found = await searchPage(search, page, pageSize);
  const items = found.ids.length
    ? await db()
        .select()
        .from(orders)
        .where(inArray(orders.id, found.ids))
        .orderBy(...LIST_ORDER.newestFirst)
    : [];
  return { items, total: found.total, page: found.page, pageCount: found.pageCount };
}

export type AdminStatusChange =
  | { ok: true; order: AdminOrder }
  | { ok: false; reason: "not_found" | "not_allowed"; status?: OrderStatus }
  /** Cancelling a card order: its buyer paid at Stripe first, or Stripe could not be reached. */
  | { ok: false; reason: "paid_at_stripe" | "stripe_unreachable"; status?: undefined };

/**
 * An admin's 'Mark Invoiced' / 'Mark Paid' / 'Cancel'; anything the state machine forbids is
 * refused. Cancelling a pending card order first closes its Checkout Session at Stripe, so the
 * buyer cannot pay for a cancelled order; if the buyer paid first, or Stripe cannot be reached,
 * the order is left as it is.
 */
export async function changeOrderStatusByAdmin(
  orderId: string,
  to: OrderStatus,
  admin: AuditActor,
  /** A cancellation's reason: printed on its credit note, kept on the timeline. */
  options: { notifyBuyer?: boolean; reason?: string } = {},
): Promise<AdminStatusChange> {
  if (to === "canceled" && isUuid(orderId)) {
    const [order] = await db()
      .select({
        status: orders.status,
        sessionId: orders.stripeCheckoutSessionId,
      })
      .from(orders)
      .where(eq(orders.id, orderId));
    if (order?.status === "pending" && order.sessionId) {
      const closed = await closeCheckoutSession(order.sessionId);
      if (closed === "paid") return { ok: false, reason: "paid_at_stripe" };
      if (closed === "error") return { ok: false, reason: "stripe_unreachable" };
    }
  }
  const result = await transitionOrder(orderId, to, {
    source: "admin",
    admin,
    notifyBuyer: options.notifyBuyer,
    reason: options.reason,
  });
  if (result.kind === "not_found" || result.kind === "duplicate_event") {
    return { ok: false, reason: "not_found" };
  }
  if (result.kind === "unchanged")
    return { ok: false, reason: "not_allowed", status: result.order.status };
  return { ok: true, order: await adminOrder(result.order) };
}

/**
 * 'Release' on a suspected-spam order: clears the mark and queues, in the same transaction, the
 * invoice request's e-mails that have not gone yet (a 'recipient_limit' order's staff alert went
 * at the time; the buyer's confirmation goes now). Card orders held by the honeypot never
 * reached Stripe, and are stored as invoice requests (decision 0012). Null when no such order
 * is held.
 */
export async function releaseOrder(orderId: string, admin: AuditActor): Promise<AdminOrder | null> {
  if (!isUuid(orderId)) return null;
  const released = await db().transaction(async (tx) => {
    const [held] = await tx
      .select({ spamReason: orders.spamReason })
      .from(orders)
      .where(and(eq(orders.id, orderId), isNotNull(orders.spamReason)))
      .for("update");
    if (!held) return null;
    const [order] = await tx
      .update(orders)
      .set({ spamReason: null, updatedAt: sql`now()` })
      .where(and(eq(orders.id, orderId), isNotNull(orders.spamReason)))
      .returning();
    if (!order) return null;
    await recordOrderEvent(tx, order.id, "released", admin.email);
    await recordAudit(tx, admin, {
      action: "order.release",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      before: { spamReason: held.spamReason },
      after: { spamReason: null },
    });
    if (order.paymentMethod === "invoice") {
      const students = await studentsOfOrder(tx, order.id);
      await queueEmailsNotYetQueued(
        tx,
        { orderId: order.id },
        invoiceRequestEmails(order, students, {
          date: await bookedDateOf(tx, order.courseDateId),
        }),
      );
    }
    return order;
  });
  if (!released) return null;
  log.info({ orderId }, "suspected-spam order released");
  nudgeOutbox();
  return adminOrder(released);
}
