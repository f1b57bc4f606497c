import { and, asc, gte, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { zipSync } from "fflate";
import type { AdminList } from "#app/lib/admin/list.ts";
import { londonDate, startOfLondonDate, ukDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { orderDocumentHref, type OrderDocumentKind } from "#app/lib/orders/orders.ts";
import { isPastDue } from "#app/lib/orders/order-filters.ts";
import {
  REGISTER_PAGE_SIZE,
  REGISTER_PAYMENT_LABELS,
  registerSums,
  type Amounts,
  type RegisterDocument,
  type RegisterFilters,
  type RegisterMonth,
  type RegisterPaymentState,
  type RegisterSums,
} from "#app/lib/orders/register.ts";
import { newestFirst, readListPage } from "../admin-list.server.ts";
import { config } from "../config.server.ts";
import { csvResponse, type CsvValue } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import { orderDocuments, orders } from "../db/schema.ts";
import type { DocumentRow } from "./documents.server.ts";
import type { DocumentSnapshot } from "./snapshot.server.ts";
import { drawDocumentPdf } from "./pdf.server.ts";
import { documentFilename } from "./pdf-text.server.ts";

/**
 * The document register (docs/decisions/0039-document-register.md): the issued documents of a
 * range of London dates as a screen, its sums by kind and by month, and three exports: the
 * register as CSV, the same documents in Xero's sales-invoice import layout, and their PDFs in a
 * ZIP. Everything printed is read from each document's snapshot, as it was issued; only the
 * payment state is read from its order now.
 */

type Range = Pick<RegisterFilters, "from" | "to">;

function inRange({ from, to }: Range): SQL {
  return and(
    gte(orderDocuments.issuedAt, startOfLondonDate(from)),
    lt(orderDocuments.issuedAt, startOfLondonDate(to, 1)),
  )!;
}

const LIST_ORDER = newestFirst([orderDocuments.issuedAt, orderDocuments.id], "last");

/** Where each document's money stands, from its order and whether a correction replaced it. */
function paymentState(
  document: DocumentRow,
  order: { status: string; refundedCents: number; receivedCents: number } | undefined,
  replaced: boolean,
  now: Date,
): RegisterPaymentState {
  if (document.kind === "credit_note") return "credit";
  if (replaced) return "replaced";
  const refunded = order?.refundedCents ?? 0;
  if (document.kind === "receipt" || order?.status === "paid") {
    if (refunded === 0) return "paid";
    return refunded >= document.totalAmountCents ? "refunded" : "part_refunded";
  }
  if (order?.status === "canceled") return "credited";
  const due = (document.snapshot as DocumentSnapshot).dueDate;
  if (due && isPastDue(due, now)) return "overdue";
  return (order?.receivedCents ?? 0) > 0 ? "part_paid" : "awaiting_payment";
}

async function toRegisterDocuments(
  rows: DocumentRow[],
  now: Date = new Date(),
): Promise<RegisterDocument[]> {
  if (rows.length === 0) return [];
  const orderIds = [...new Set(rows.map((r) => r.orderId))];
  const [orderRows, replacedRows] = await Promise.all([
    db()
      .select({
        id: orders.id,
        status: orders.status,
        refundedCents: orders.refundedAmountCents,
        receivedCents: orders.receivedAmountCents,
      })
      .from(orders)
      .where(inArray(orders.id, orderIds)),
    db()
      .select({ id: orderDocuments.replacesDocumentId })
      .from(orderDocuments)
      .where(
        and(
          isNotNull(orderDocuments.replacesDocumentId),
          inArray(
            orderDocuments.replacesDocumentId,
            rows.map((r) => r.id),
          ),
        ),
      ),
  ]);
  const orderById = new Map(orderRows.map((o) => [o.id, o]));
  const replaced = new Set(replacedRows.map((r) => r.id));
  return rows.map((row) => {
    const s = row.snapshot as DocumentSnapshot;
    return {
      id: row.id,
      number: row.number,
      kind: row.kind as OrderDocumentKind,
      title: s.title,
      issuedAt: row.issuedAt.toISOString(),
      timeOfSupply: row.kind === "credit_note" ? null : s.timeOfSupply,
      dueDate: s.dueDate,
      customer: s.customer.name,
      organisation: s.customer.organisation,
      email: s.customer.email,
      vatNumber: s.customer.vatNumber,
      poNumber: s.customer.poNumber,
      netCents: row.netAmountCents,
      vatCents: row.vatAmountCents,
      totalCents: row.totalAmountCents,
      credits: s.credits?.number ?? null,
      replaces: s.replaces?.number ?? null,
      orderId: row.orderId,
      orderReference: s.orderReference,
      payment: paymentState(row, orderById.get(row.orderId), replaced.has(row.id), now),
      href: orderDocumentHref(row.orderId, row.id),
    };
  });
}

function amountsOf(row: { count: number; net: string; vat: string; total: string }): Amounts {
  return {
    count: Number(row.count),
    netCents: Number(row.net),
    vatCents: Number(row.vat),
    totalCents: Number(row.total),
  };
}

const SUMS = {
  count: sql<number>`count(*)::int`,
  net: sql<string>`coalesce(sum(${orderDocuments.netAmountCents}), 0)::bigint`,
  vat: sql<string>`coalesce(sum(${orderDocuments.vatAmountCents}), 0)::bigint`,
  total: sql<string>`coalesce(sum(${orderDocuments.totalAmountCents}), 0)::bigint`,
};

/** The range's sums by kind, added up by the database. */
export async function registerTotals(range: Range): Promise<RegisterSums> {
  const rows = await db()
    .select({ kind: orderDocuments.kind, ...SUMS })
    .from(orderDocuments)
    .where(inRange(range))
    .groupBy(orderDocuments.kind);
  return registerSums(Object.fromEntries(rows.map((r) => [r.kind, amountsOf(r)])));
}

/** The range's sums by the London month documents were issued in, oldest first. */
export async function registerMonths(range: Range): Promise<RegisterMonth[]> {
  const month = sql<string>`to_char(${orderDocuments.issuedAt} at time zone 'Europe/London', 'YYYY-MM')`;
  const rows = await db()
    .select({ month, kind: orderDocuments.kind, ...SUMS })
    .from(orderDocuments)
    .where(inRange(range))
    .groupBy(month, orderDocuments.kind)
    .orderBy(month);
  const byMonth = new Map<string, Partial<Record<OrderDocumentKind, Amounts>>>();
  for (const row of rows) {
    byMonth.set(row.month, { ...byMonth.get(row.month), [row.kind]: amountsOf(row) });
  }
  return [...byMonth].map(([key, kinds]) => ({ month: key, ...registerSums(kinds) }));
}

export interface RegisterScreen extends AdminList<RegisterDocument> {
  totals: RegisterSums;
  months: RegisterMonth[];
}

/** The register screen: a page of the range's documents, newest first, and its sums. */
export async function documentRegisterScreen(filters: RegisterFilters): Promise<RegisterScreen> {
  const [list, totals, months] = await Promise.all([
    readListPage(orderDocuments, {
      where: inRange(filters),
      order: LIST_ORDER,
      page: filters.page,
      pageSize: REGISTER_PAGE_SIZE,
      toItem: (row) => row,
    }),
    registerTotals(filters),
    registerMonths(filters),
  ]);
  return { ...list, items: await toRegisterDocuments(list.items), totals, months };
}

/** The range's document rows in the order they were issued (the exports' order). */
function issuedIn(range: Range): Promise<DocumentRow[]> {
  return db()
    .select()
    .from(orderDocuments)
    .where(inRange(range))
    .orderBy(asc(orderDocuments.issuedAt), asc(orderDocuments.number));
}

/** The range's documents as the register shows them, in the order they were issued. */
export async function registerDocuments(
  range: Range,
  now: Date = new Date(),
): Promise<RegisterDocument[]> {
  return toRegisterDocuments(await issuedIn(range), now);
}

/** Pounds as a spreadsheet reads them ('1450.00'); credit notes negative, so a column adds up. */
function signedPounds(document: Pick<RegisterDocument, "kind">, cents: number): string {
  return formatPence(document.kind === "credit_note" ? -cents : cents, { plain: true });
}

/** The London day of an instant, 'yyyy-MM-dd', as a spreadsheet sorts it. */
function dayOf(iso: string | null): string | null {
  return iso ? londonDate(new Date(iso)) : null;
}

export const REGISTER_CSV_HEADER = [
  "Number",
  "Type",
  "Date of issue",
  "Time of supply",
  "Due date",
  "Customer",
  "Organisation",
  "Email",
  "Customer VAT number",
  "PO number",
  "Net (GBP)",
  "VAT (GBP)",
  "Total (GBP)",
  "Credits",
  "Replaces",
  "Order reference",
  "Payment state",
] as const;

function registerCsvValues(d: RegisterDocument): CsvValue[] {
  return [
    d.number,
    d.title,
    dayOf(d.issuedAt),
    dayOf(d.timeOfSupply),
    dayOf(d.dueDate),
    d.customer,
    d.organisation,
    d.email,
    d.vatNumber,
    d.poNumber,
    signedPounds(d, d.netCents),
    signedPounds(d, d.vatCents),
    signedPounds(d, d.totalCents),
    d.credits,
    d.replaces,
    d.orderReference,
    REGISTER_PAYMENT_LABELS[d.payment],
  ];
}

async function* once<T>(batch: () => Promise<T[]>): AsyncGenerator<T[]> {
  yield await batch();
}

export function registerCsvResponse(range: Range): Response {
  return csvResponse(
    `documents-${range.from}-to-${range.to}.csv`,
    REGISTER_CSV_HEADER,
    once(async () => (await registerDocuments(range)).map(registerCsvValues)),
  );
}

/**
 * Xero's sales-invoice import template, column for column (an asterisk marks what Xero needs).
 * Amounts are tax exclusive; a credit note's are negative, which Xero imports as a credit note.
 */
export const XERO_CSV_HEADER = [
  "*ContactName",
  "EmailAddress",
  "POAddressLine1",
  "POAddressLine2",
  "POAddressLine3",
  "POAddressLine4",
  "POCity",
  "PORegion",
  "POPostalCode",
  "POCountry",
  "*InvoiceNumber",
  "Reference",
  "*InvoiceDate",
  "*DueDate",
  "InventoryItemCode",
  "*Description",
  "*Quantity",
  "*UnitAmount",
  "Discount",
  "*AccountCode",
  "*TaxType",
  "TrackingName1",
  "TrackingOption1",
  "TrackingName2",
  "TrackingOption2",
  "Currency",
  "BrandingTheme",
] as const;

/** Xero's names of UK VAT rates on sales. */
function xeroTaxType(rateBasisPoints: number): string {
  if (rateBasisPoints === 2000) return "20% (VAT on Income)";
  if (rateBasisPoints === 500) return "5% (VAT on Income)";
  return "No VAT";
}

/** dd/mm/yyyy, the London day, as Xero's UK import reads dates. */
function xeroDate(iso: string): string {
  return ukDate(londonDate(new Date(iso)));
}

function xeroRows(row: DocumentRow, accountCode: string): CsvValue[][] {
  const s = row.snapshot as DocumentSnapshot;
  const sign = row.kind === "credit_note" ? -1 : 1;
  const address = s.customer.addressLines;
  const reference = [s.orderReference, s.customer.poNumber ? `PO ${s.customer.poNumber}` : null]
    .filter(Boolean)
    .join(" ");
  return s.lines.map((line) => {
    // A line whose unit price was rounded (prices including VAT) goes as one unit of its net.
    const exact = line.unitNetCents * line.quantity === line.netCents;
    const quantity = exact ? line.quantity : 1;
    const unit = exact ? line.unitNetCents : line.netCents;
    return [
      s.customer.organisation || s.customer.name,
      s.customer.email,
      address[0],
      address[1],
      address[2],
      address.slice(3).join(", ") || null,
      null,
      null,
      null,
      null,
      row.number,
      reference,
      xeroDate(row.issuedAt.toISOString()),
      xeroDate(s.dueDate ?? row.issuedAt.toISOString()),
      null,
      [line.description, ...line.detail].join(" — "),
      quantity,
      formatPence(sign * unit, { plain: true }),
      null,
      accountCode,
      s.vatRegistered ? xeroTaxType(line.vatRateBasisPoints) : "No VAT",
      null,
      null,
      null,
      null,
      s.currency,
      null,
    ];
  });
}

/** The range's documents as Xero's sales-invoice import, one row per line. */
export function xeroCsvResponse(
  range: Range,
  accountCode: string = config.seller.xeroSalesAccountCode,
): Response {
  return csvResponse(
    `xero-sales-${range.from}-to-${range.to}.csv`,
    XERO_CSV_HEADER,
    once(async () => (await issuedIn(range)).flatMap((row) => xeroRows(row, accountCode))),
  );
}

/** More documents than this in one ZIP is a range to narrow (each PDF is drawn on request). */
export const REGISTER_ZIP_LIMIT = 1000;

/**
 * The range's PDFs in one ZIP, each drawn from its snapshot and named after its number. Stored,
 * not deflated: PDFs are compressed already. Null when the range holds more than the limit.
 */
export async function registerZip(range: Range): Promise<Uint8Array | null> {
  const [counted] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(orderDocuments)
    .where(inRange(range));
  if (Number(counted?.count ?? 0) > REGISTER_ZIP_LIMIT) return null;
  const rows = await db()
    .select({ number: orderDocuments.number, snapshot: orderDocuments.snapshot })
    .from(orderDocuments)
    .where(inRange(range))
    .orderBy(asc(orderDocuments.number));
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const row of rows) {
    const pdf = await drawDocumentPdf(row.snapshot as DocumentSnapshot);
    files[documentFilename(row.number)] = [new Uint8Array(pdf), { level: 0 }];
  }
  return zipSync(files);
}

/** GET /admin/documents/pdfs: the ZIP as a download, or a plain 413 naming the limit. */
export async function registerZipResponse(range: Range): Promise<Response> {
  const zip = await registerZip(range);
  if (!zip) {
    return new Response(
      `This range holds more than ${REGISTER_ZIP_LIMIT} documents: choose a shorter range.`,
      {
        status: 413,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      },
    );
  }
  return new Response(new Blob([zip as Uint8Array<ArrayBuffer>]), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="documents-${range.from}-to-${range.to}.zip"`,
      "Content-Length": String(zip.length),
      "Cache-Control": "no-store",
    },
  });
}
