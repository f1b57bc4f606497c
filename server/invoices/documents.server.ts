import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { creditedDocumentName, orderReference } from "#app/lib/orders/orders.ts";
import { VAT_TREATMENT_WORDING, type VatTreatment } from "#app/lib/orders/place-of-supply.ts";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import { config, type SellerConfig } from "../config.server.ts";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { documentSequences, orderDocuments } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { recordOrderEvent, type OrderActor } from "../orders/events.server.ts";
import { payByCardUrl } from "../orders/booking-links.server.ts";
import type { OrderRow, OrderStudent } from "../orders/records.server.ts";
import type { DocumentKind, DocumentLine, DocumentSnapshot } from "./snapshot.server.ts";

/**
 * Invoices, VAT receipts and credit notes (decision 0015): numbered without gaps, issued inside the
 * transaction that changes the order, and kept as a snapshot of everything the document prints,
 * so what is drawn as a PDF later (pdf.server.ts) is exactly what was issued. Rows are final: a
 * database trigger refuses UPDATE and DELETE.
 *
 * A full VAT invoice (HMRC VAT Notice 700 §16.3) names: a unique sequential number, the date of
 * issue and the time of supply, the seller's name, address and VAT number, the customer's name
 * and address, a description, the unit price excluding VAT, the quantity, the rate and amount
 * of VAT, and the totals. Without a seller VAT number the documents are plain invoices and
 * receipts, with no VAT.
 */

export type DocumentRow = typeof orderDocuments.$inferSelect;

/** The series each kind is numbered in: invoices and receipts share INV, credit notes have CN. */
const SERIES: Record<DocumentKind, string> = { invoice: "INV", receipt: "INV", credit_note: "CN" };

/**
 * The next number of a series for `year`, taken inside `tx`. The upsert locks the series' row
 * until `tx` ends: a concurrent issuer waits, then sees the new last number; if `tx` rolls back,
 * so does the number. Hence one number each, in order, with no gaps.
 */
export async function allocateDocumentNumber(
  tx: Transaction,
  series: string,
  year: number,
): Promise<string> {
  const [row] = await tx
    .insert(documentSequences)
    .values({ series, year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [documentSequences.series, documentSequences.year],
      set: { lastNumber: sql`${documentSequences.lastNumber} + 1` },
    })
    .returning({ lastNumber: documentSequences.lastNumber });
  return `${series}-${year}-${String(row!.lastNumber).padStart(4, "0")}`;
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

function customerOf(order: OrderRow): DocumentSnapshot["customer"] {
  return {
    name: `${order.buyerFirstName} ${order.buyerLastName}`,
    organisation: order.billingOrganisation ?? order.buyerCompany,
    addressLines: [
      order.billingAddressLine1,
      order.billingAddressLine2,
      order.billingTown,
      order.billingPostcode,
      order.billingCountry,
    ].filter((line): line is string => Boolean(line)),
    email: order.buyerEmail,
    vatNumber: order.buyerVatNumber,
    poNumber: order.poNumber,
  };
}

export function sellerOf(seller: SellerConfig): DocumentSnapshot["seller"] {
  return {
    legalName: seller.legalName,
    addressLines: seller.addressLines,
    companyNumber: seller.companyNumber ?? null,
    vatNumber: seller.vatNumber ?? null,
  };
}

/** The order's one line: the course, its places and students, with the order's own VAT. */
function orderLine(order: OrderRow, students: OrderStudent[]): DocumentLine {
  const unit = lineAmounts(order.unitPriceCents, {
    rateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
  });
  const attendees = order.isBuyerStudent
    ? [`${order.buyerFirstName} ${order.buyerLastName}`]
    : students.map((s) => `${s.firstName} ${s.lastName}`);
  return {
    description: order.courseTitleSnapshot,
    detail: attendees.length ? [`Students: ${attendees.join(", ")}`] : [],
    quantity: order.quantity,
    unitNetCents: unit.netCents,
    netCents: order.netAmountCents,
    vatRateBasisPoints: order.vatRateBasisPoints,
    vatCents: order.vatAmountCents,
  };
}

const TITLES: Record<DocumentKind, [vat: string, plain: string]> = {
  invoice: ["VAT invoice", "Invoice"],
  receipt: ["VAT receipt", "Receipt"],
  credit_note: ["Credit note", "Credit note"],
};

async function insertDocument(
  tx: Transaction,
  values: {
    order: OrderRow;
    kind: DocumentKind;
    number: string;
    issuedAt: Date;
    snapshot: DocumentSnapshot;
    creditsDocumentId?: string;
    replacesDocumentId?: string;
    reason?: string | null;
    actor: OrderActor;
  },
): Promise<DocumentRow> {
  const { snapshot } = values;
  const [row] = await tx
    .insert(orderDocuments)
    .values({
      orderId: values.order.id,
      kind: values.kind,
      number: values.number,
      issuedAt: values.issuedAt,
      netAmountCents: snapshot.netCents,
      vatAmountCents: snapshot.vatCents,
      totalAmountCents: snapshot.totalCents,
      creditsDocumentId: values.creditsDocumentId ?? null,
      replacesDocumentId: values.replacesDocumentId ?? null,
      reason: values.reason ?? null,
      issuedBy: values.actor,
      snapshot,
    })
    .returning();
  await recordOrderEvent(tx, values.order.id, `${values.kind}_issued`, values.actor, {
    documentId: row!.id,
    number: row!.number,
    totalAmountCents: row!.totalAmountCents,
  });
  return row!;
}

/**
 * The condition that the document whose id is `id` is in force: no correction replaced it. One
 * definition for the order page, the Debtors screen and the Payments "Overdue" filter.
 */
export function inForce(id: SQL = sql`${orderDocuments.id}`): SQL {
  return sql`not exists (select 1 from ${orderDocuments} as later where later.replaces_document_id = ${id})`;
}

/** The order's invoice or receipt in force: the one no correction has replaced. */
export async function currentInvoice(
  tx: Transaction | Database,
  orderId: string,
): Promise<DocumentRow | null> {
  const [row] = await tx
    .select()
    .from(orderDocuments)
    .where(
      and(
        eq(orderDocuments.orderId, orderId),
        inArray(orderDocuments.kind, ["invoice", "receipt"]),
        inForce(),
      ),
    );
  return row ?? null;
}

/**
 * Issues the order's invoice (on 'Mark Invoiced') or, for a paid card order, its receipt, in
 * `tx`. At most one per order: the unique index on order_documents refuses a second, so call it
 * in the transaction whose conditional status change won. With `replaces`, the invoice is a
 * corrected one in its place (the caller credits the replaced one in the same transaction): a
 * new number and date, the same time of supply.
 */
export async function issueInvoice(
  tx: Transaction,
  order: OrderRow,
  students: OrderStudent[],
  options: {
    kind: "invoice" | "receipt";
    actor: OrderActor;
    paidAt?: Date;
    now?: Date;
    replaces?: DocumentRow;
  },
): Promise<DocumentRow> {
  const seller = config.seller;
  const issuedAt = options.now ?? new Date();
  const replaced = options.replaces ? (options.replaces.snapshot as DocumentSnapshot) : null;
  const number = await allocateDocumentNumber(tx, SERIES[options.kind], issuedAt.getUTCFullYear());
  const vatRegistered = order.vatRateBasisPoints > 0 || Boolean(seller.vatNumber);
  const reference = orderReference(order.id);
  const snapshot: DocumentSnapshot = {
    kind: options.kind,
    number,
    title: TITLES[options.kind][vatRegistered ? 0 : 1],
    issuedAt: issuedAt.toISOString(),
    timeOfSupply:
      replaced?.timeOfSupply ??
      (options.kind === "receipt" && options.paidAt ? options.paidAt : issuedAt).toISOString(),
    dueDate:
      options.kind === "invoice" ? addDays(issuedAt, seller.paymentTermsDays).toISOString() : null,
    orderId: order.id,
    orderReference: reference,
    currency: order.currency,
    vatRegistered,
    pricesIncludeVat: order.pricesIncludeVat,
    seller: sellerOf(seller),
    customer: customerOf(order),
    lines: [orderLine(order, students)],
    netCents: order.netAmountCents,
    vatCents: order.vatAmountCents,
    totalCents: order.totalAmountCents,
    payment:
      options.kind === "invoice"
        ? {
            termsDays: seller.paymentTermsDays,
            reference,
            bank: seller.bank ?? null,
            instructions: seller.bank ? null : seller.paymentInstructions,
            cardUrl: config.stripe.secretKey ? payByCardUrl(order.id, issuedAt) : null,
            ...(order.receivedAmountCents > 0 ? { receivedCents: order.receivedAmountCents } : {}),
          }
        : null,
    paid:
      options.kind === "receipt"
        ? { at: (options.paidAt ?? issuedAt).toISOString(), method: "Card" }
        : null,
    credits: null,
    replaces: replaced
      ? { number: replaced.number, issuedAt: replaced.issuedAt, title: replaced.title }
      : null,
    vatNote: vatRegistered ? VAT_TREATMENT_WORDING[order.vatTreatment as VatTreatment] : null,
    reason: null,
  };
  return insertDocument(tx, {
    order,
    kind: options.kind,
    number,
    issuedAt,
    snapshot,
    replacesDocumentId: options.replaces?.id,
    actor: options.actor,
  });
}

/**
 * The VAT share of a credited amount, in proportion to the credited document (rounded half up).
 * The credit that takes what is left of the document takes what is left of its VAT, so however
 * a total is refunded in parts, the credit notes' VAT adds up to the document's to the penny.
 */
export function creditAmounts(
  creditedTotalCents: number,
  document: { vatAmountCents: number; totalAmountCents: number },
  alreadyCredited: { totalCents: number; vatCents: number } = { totalCents: 0, vatCents: 0 },
): { netCents: number; vatCents: number; totalCents: number } {
  if (document.totalAmountCents <= 0 || document.vatAmountCents <= 0) {
    return { netCents: creditedTotalCents, vatCents: 0, totalCents: creditedTotalCents };
  }
  const vatLeft = Math.max(0, document.vatAmountCents - alreadyCredited.vatCents);
  const vatCents =
    creditedTotalCents >= document.totalAmountCents - alreadyCredited.totalCents
      ? vatLeft
      : Math.min(
          vatLeft,
          Math.floor(
            (2 * creditedTotalCents * document.vatAmountCents + document.totalAmountCents) /
              (2 * document.totalAmountCents),
          ),
        );
  return { netCents: creditedTotalCents - vatCents, vatCents, totalCents: creditedTotalCents };
}

/**
 * What a credit note's line calls itself: the whole document credited at once, a part of it, or
 * the last part (which leaves nothing of the document uncredited, so it is not called partial).
 */
function creditKind(amountCents: number, documentCents: number, remainingCents: number): string {
  if (amountCents === documentCents) return "Credit for";
  return amountCents === remainingCents ? "Final credit for" : "Partial credit for";
}

/**
 * Issues a credit note against the order's invoice or receipt in force, in `tx`: the whole of it
 * (an invoiced order canceled, or its invoice replaced) or part (a partial refund). Null when the order has no invoice or
 * receipt to credit. Never more than what is still uncredited: the caller checks the refund
 * against the order's total; this checks against the document.
 */
export async function issueCreditNote(
  tx: Transaction,
  order: OrderRow,
  options: { amountCents?: number; reason: string | null; actor: OrderActor; now?: Date },
): Promise<DocumentRow | null> {
  const credited = await currentInvoice(tx, order.id);
  if (!credited) return null;
  const [already] = await tx
    .select({
      total: sql<number>`coalesce(sum(${orderDocuments.totalAmountCents}), 0)::int`,
      vat: sql<number>`coalesce(sum(${orderDocuments.vatAmountCents}), 0)::int`,
    })
    .from(orderDocuments)
    .where(eq(orderDocuments.creditsDocumentId, credited.id));
  const creditedSoFar = {
    totalCents: Number(already?.total ?? 0),
    vatCents: Number(already?.vat ?? 0),
  };
  const remaining = credited.totalAmountCents - creditedSoFar.totalCents;
  const amount = Math.min(options.amountCents ?? remaining, remaining);
  if (amount <= 0) return null;
  const issuedAt = options.now ?? new Date();
  const number = await allocateDocumentNumber(tx, SERIES.credit_note, issuedAt.getUTCFullYear());
  const amounts = creditAmounts(amount, credited, creditedSoFar);
  const original = credited.snapshot as DocumentSnapshot;
  const credits = {
    number: credited.number,
    issuedAt: credited.issuedAt.toISOString(),
    title: original.title,
  };
  const rate = order.vatRateBasisPoints;
  const snapshot: DocumentSnapshot = {
    ...original,
    kind: "credit_note",
    number,
    title: TITLES.credit_note[0],
    issuedAt: issuedAt.toISOString(),
    timeOfSupply: issuedAt.toISOString(),
    dueDate: null,
    lines: [
      {
        description: `${creditKind(amount, credited.totalAmountCents, remaining)} ${creditedDocumentName(credits)}: ${order.courseTitleSnapshot}`,
        detail: options.reason ? [`Reason: ${options.reason}`] : [],
        quantity: 1,
        unitNetCents: amounts.netCents,
        netCents: amounts.netCents,
        vatRateBasisPoints: rate,
        vatCents: amounts.vatCents,
      },
    ],
    netCents: amounts.netCents,
    vatCents: amounts.vatCents,
    totalCents: amounts.totalCents,
    payment: null,
    paid: null,
    credits,
    reason: options.reason,
  };
  return insertDocument(tx, {
    order,
    kind: "credit_note",
    number,
    issuedAt,
    snapshot,
    creditsDocumentId: credited.id,
    reason: options.reason,
    actor: options.actor,
  });
}

/** An order's documents, oldest first (the order page's downloads). */
export function documentsOfOrder(orderId: string): Promise<DocumentRow[]> {
  if (!isUuid(orderId)) return Promise.resolve([]);
  return db()
    .select()
    .from(orderDocuments)
    .where(eq(orderDocuments.orderId, orderId))
    .orderBy(asc(orderDocuments.issuedAt), asc(orderDocuments.number));
}

export async function findDocument(documentId: string): Promise<DocumentRow | null> {
  if (!isUuid(documentId)) return null;
  const [row] = await db().select().from(orderDocuments).where(eq(orderDocuments.id, documentId));
  return row ?? null;
}
