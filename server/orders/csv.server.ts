import { and, asc, inArray, sql, type SQL } from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import {
  ORDER_LIST_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  orderListStatus,
  orderReference,
} from "#app/lib/orders/orders.ts";
import { type OrderFilters } from "#app/lib/orders/order-filters.ts";
import { csvResponse, type CsvValue } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import { orderDocuments, orders } from "../db/schema.ts";
import { LIST_ORDER, orderFilterCondition } from "./admin.server.ts";
import { studentsOfOrders, type OrderRow, type OrderStudent } from "./records.server.ts";

/**
 * The Payments screen's CSV download: every order the current filters match (not just the page
 * on screen), newest first, one row per order with its students in one cell, and what finance
 * needs of it: net and VAT, the paid date, its documents, PO and billing details.
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
  "Net (GBP)",
  "VAT (GBP)",
  "Paid (UK date)",
  "Invoice or receipt",
  "Due date",
  "Credit notes",
  "PO number",
  "Billing organisation",
  "Billing address",
  "Buyer VAT number",
  "Received on invoice (GBP)",
] as const;

/** An order's documents as the CSV names them: the one in force, its due date, credit notes. */
interface OrderDocumentsCell {
  current: string | null;
  dueDate: string | null;
  credits: string[];
}

async function documentsOfOrders(orderIds: string[]): Promise<Map<string, OrderDocumentsCell>> {
  const found = new Map<string, OrderDocumentsCell>();
  if (orderIds.length === 0) return found;
  const rows = await db()
    .select({
      id: orderDocuments.id,
      orderId: orderDocuments.orderId,
      kind: orderDocuments.kind,
      number: orderDocuments.number,
      replaces: orderDocuments.replacesDocumentId,
      dueDate: sql<string | null>`${orderDocuments.snapshot} ->> 'dueDate'`,
    })
    .from(orderDocuments)
    .where(inArray(orderDocuments.orderId, orderIds))
    .orderBy(asc(orderDocuments.issuedAt), asc(orderDocuments.number));
  const replaced = new Set(rows.map((r) => r.replaces).filter(Boolean));
  for (const row of rows) {
    const cell = found.get(row.orderId) ?? { current: null, dueDate: null, credits: [] };
    if (row.kind === "credit_note") cell.credits.push(row.number);
    else if (!replaced.has(row.id)) {
      cell.current = row.number;
      cell.dueDate = row.dueDate ? londonDate(new Date(row.dueDate)) : null;
    }
    found.set(row.orderId, cell);
  }
  return found;
}

function csvValues(
  order: OrderRow,
  students: OrderStudent[],
  documents: OrderDocumentsCell | undefined,
): CsvValue[] {
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
    formatPence(order.netAmountCents, { plain: true }),
    formatPence(order.vatAmountCents, { plain: true }),
    order.paidAt ? londonDate(order.paidAt) : null,
    documents?.current,
    documents?.dueDate,
    documents?.credits.join(" "),
    order.poNumber,
    order.billingOrganisation,
    [
      order.billingAddressLine1,
      order.billingAddressLine2,
      order.billingTown,
      order.billingPostcode,
      order.billingCountry,
    ]
      .filter(Boolean)
      .join(", "),
    order.buyerVatNumber,
    // Payments recorded against an invoice as they arrived: blank for a card order.
    order.paymentMethod === "invoice"
      ? formatPence(order.receivedAmountCents, { plain: true })
      : null,
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
    const ids = rows.map((r) => r.id);
    const [students, documents] = await Promise.all([
      studentsOfOrders(ids),
      documentsOfOrders(ids),
    ]);
    yield rows.map((r) => csvValues(r, students.get(r.id) ?? [], documents.get(r.id)));
    afterId = rows[rows.length - 1]!.id;
    if (rows.length < batchSize) return;
  }
}

/** The CSV download of the Payments screen's current filters. */
export function ordersCsvResponse(filters: Omit<OrderFilters, "page">, fileName: string): Response {
  return csvResponse(fileName, ORDER_CSV_HEADER, orderCsvRows(filters));
}
