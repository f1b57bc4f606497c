import { and, sql, type SQL } from "drizzle-orm";
import { formatPence } from "#app/lib/format.ts";
import {
  ORDER_LIST_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  orderListStatus,
  orderReference,
  type OrderFilters,
} from "#app/lib/orders/orders.ts";
import { csvResponse, type CsvValue } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { LIST_ORDER, orderFilterCondition } from "./admin.server.ts";
import { studentsOfOrders, type OrderRow, type OrderStudent } from "./records.server.ts";

/**
 * The Payments screen's CSV download: every order the current filters match (not just the page
 * on screen), newest first, one row per order with its students in one cell.
 */

export const ORDER_CSV_HEADER = [
  "Reference",
  "Order ID",
  "Created (UTC)",
  "Status",
  "Method",
  "Buyer first name",
  "Buyer last name",
  "Buyer email",
  "Buyer phone",
  "Buyer company",
  "Course",
  "Unit price (GBP)",
  "Quantity",
  "Total (GBP)",
  "Refunded (GBP)",
  "Currency",
  "Buyer attends",
  "Students",
] as const;

function csvValues(order: OrderRow, students: OrderStudent[]): CsvValue[] {
  return [
    orderReference(order.id),
    order.id,
    order.createdAt,
    ORDER_LIST_STATUS_LABELS[orderListStatus(order)],
    PAYMENT_METHOD_LABELS[order.paymentMethod],
    order.buyerFirstName,
    order.buyerLastName,
    order.buyerEmail,
    order.buyerPhone,
    order.buyerCompany,
    order.courseTitleSnapshot,
    // Bare figures ('1450.00'): the header names the currency, and a spreadsheet reads a number.
    formatPence(order.unitPriceCents, { plain: true }),
    order.quantity,
    formatPence(order.totalAmountCents, { plain: true }),
    formatPence(order.refundedAmountCents, { plain: true }),
    order.currency,
    order.isBuyerStudent ? "Yes" : "No",
    students.map((s) => `${s.firstName} ${s.lastName} <${s.email}>`).join("; "),
  ];
}

/**
 * The orders matching the filters (every page), newest first, as batches of CSV rows, read by
 * keyset so memory stays flat however many orders there are.
 */
export async function* orderCsvRows(
  filters: Omit<OrderFilters, "page">,
  batchSize = 1000,
): AsyncGenerator<CsvValue[][]> {
  const where = orderFilterCondition(filters);
  let afterId: string | null = null;
  for (;;) {
    // Compared with the stored values (microseconds), not a JavaScript Date (milliseconds).
    const cursor: SQL | undefined = afterId
      ? sql`(${orders.createdAt}, ${orders.id}) < (select o.created_at, o.id from orders o where o.id = ${afterId})`
      : undefined;
    const rows = await db()
      .select()
      .from(orders)
      .where(and(where, cursor))
      .orderBy(...LIST_ORDER.newestFirst)
      .limit(batchSize);
    if (rows.length === 0) return;
    const students = await studentsOfOrders(rows.map((r) => r.id));
    yield rows.map((r) => csvValues(r, students.get(r.id) ?? []));
    afterId = rows[rows.length - 1]!.id;
    if (rows.length < batchSize) return;
  }
}

/** The CSV download of the Payments screen's current filters. */
export function ordersCsvResponse(filters: Omit<OrderFilters, "page">, fileName: string): Response {
  return csvResponse(fileName, ORDER_CSV_HEADER, orderCsvRows(filters));
}
