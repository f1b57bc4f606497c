import { eq } from "drizzle-orm";
import {
  BILLING_CORRECTED,
  BILLING_LOCKED,
  REISSUE_CREDITED,
  REISSUE_NOT_INVOICED,
} from "#app/lib/orders/billing-form.ts";
import type { BillingDetails } from "#app/lib/orders/orders.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { orderDocuments, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import {
  currentInvoice,
  issueCreditNote,
  issueInvoice,
  type DocumentRow,
} from "../invoices/documents.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { log } from "../log.server.ts";
import { invoiceReissuedEmails } from "./emails.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { studentsOfOrder } from "./records.server.ts";

/**
 * Correcting an order's billing details (organisation, address, PO number, the buyer's VAT
 * number) from its admin page. Until the invoice is issued they are simply changed. After, an
 * issued document is never edited (decision 0015): "Correct and re-issue" credits the unpaid
 * invoice in full and issues a corrected one in its place, both e-mailed to the buyer. Either is
 * one transaction under a lock on the order, so it cannot slip past an invoice being issued or
 * paid at the same moment; it is recorded on the order's timeline and in the audit log with what
 * it was before.
 */

export type CorrectBillingResult =
  | {
      ok: true;
      changed: (keyof BillingDetails)[];
      /** With a re-issue: the new invoice, and the credit note for the one it replaces. */
      reissued: { invoice: string; creditNote: string; replaced: string } | null;
    }
  | { ok: false; status: 404 | 409; message?: string };

type OrderRow = typeof orders.$inferSelect;

/** An order's billing details as stored. */
export function storedBilling(order: OrderRow): BillingDetails {
  return {
    organisation: order.billingOrganisation,
    addressLine1: order.billingAddressLine1,
    addressLine2: order.billingAddressLine2,
    town: order.billingTown,
    postcode: order.billingPostcode,
    country: order.billingCountry,
    poNumber: order.poNumber,
    vatNumber: order.buyerVatNumber,
  };
}

/** How an order is paid ('invoice' or 'stripe'), or null when there is no such order. */
export async function paymentMethodOf(orderId: string): Promise<"invoice" | "stripe" | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db()
    .select({ paymentMethod: orders.paymentMethod })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order?.paymentMethod ?? null;
}

/**
 * Why an order's invoice cannot be corrected and re-issued, or null when it can: only an unpaid
 * invoice of an order paid by invoice, never partly credited.
 */
export async function reissueRefusal(
  tx: Transaction,
  order: OrderRow,
  invoice: DocumentRow,
): Promise<string | null> {
  if (
    order.paymentMethod !== "invoice" ||
    order.status !== "invoiced" ||
    invoice.kind !== "invoice"
  )
    return REISSUE_NOT_INVOICED;
  const [credit] = await tx
    .select({ id: orderDocuments.id })
    .from(orderDocuments)
    .where(eq(orderDocuments.creditsDocumentId, invoice.id))
    .limit(1);
  return credit ? REISSUE_CREDITED : null;
}

export async function correctBilling(
  admin: AuditActor,
  orderId: string,
  details: BillingDetails,
  options: { reissue?: boolean } = {},
): Promise<CorrectBillingResult> {
  if (!isUuid(orderId)) return { ok: false, status: 404 };
  const result = await db().transaction(async (tx): Promise<CorrectBillingResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || order.anonymisedAt) return { ok: false, status: 404 };
    const invoice = await currentInvoice(tx, order.id);
    const issued = invoice?.kind === "invoice" ? invoice : null;
    if (issued && !options.reissue) return { ok: false, status: 409, message: BILLING_LOCKED };
    const refusal = issued ? await reissueRefusal(tx, order, issued) : null;
    if (refusal) return { ok: false, status: 409, message: refusal };
    const before = storedBilling(order);
    const changed = (Object.keys(details) as (keyof BillingDetails)[]).filter(
      (key) => details[key] !== before[key],
    );
    if (changed.length === 0) return { ok: true, changed, reissued: null };
    const [updated] = await tx
      .update(orders)
      .set({
        billingOrganisation: details.organisation,
        billingAddressLine1: details.addressLine1,
        billingAddressLine2: details.addressLine2,
        billingTown: details.town,
        billingPostcode: details.postcode,
        billingCountry: details.country,
        poNumber: details.poNumber,
        buyerVatNumber: details.vatNumber,
        updatedAt: new Date(),
      })
      .where(eq(orders.id, order.id))
      .returning();
    const reissued = issued
      ? await reissueInvoice(tx, updated!, issued, admin, BILLING_CORRECTED)
      : null;
    const pick = (from: BillingDetails) => Object.fromEntries(changed.map((k) => [k, from[k]]));
    await recordOrderEvent(tx, order.id, "billing_corrected", admin.email, {
      changed,
      ...(reissued ? { reissued } : {}),
    });
    await recordAudit(tx, admin, {
      action: reissued ? "order.reissue" : "order.billing",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      before: { ...pick(before), ...(reissued ? { invoice: reissued.replaced } : {}) },
      after: {
        ...pick(details),
        ...(reissued ? { invoice: reissued.invoice, creditNote: reissued.creditNote } : {}),
      },
    });
    return { ok: true, changed, reissued };
  });
  if (result.ok && result.changed.length > 0) {
    log.info(
      { orderId, changed: result.changed, reissued: result.reissued },
      "order billing details corrected",
    );
    if (result.reissued) nudgeOutbox();
  }
  return result;
}

/**
 * In the correcting transaction (billing details corrected, or the order moved to a date at
 * another price): the old invoice credited in full, the corrected one issued in its place from
 * the order as it now is, and both queued to the buyer.
 */
export async function reissueInvoice(
  tx: Transaction,
  order: OrderRow,
  replaced: DocumentRow,
  admin: AuditActor,
  reason: string,
): Promise<{ invoice: string; creditNote: string; replaced: string }> {
  const creditNote = await issueCreditNote(tx, order, { reason, actor: admin.email });
  const students = await studentsOfOrder(tx, order.id);
  const invoice = await issueInvoice(tx, order, students, {
    kind: "invoice",
    actor: admin.email,
    replaces: replaced,
  });
  const date = await bookedDateOf(tx, order.courseDateId);
  await queueEmails(
    tx,
    invoiceReissuedEmails(order, students, { creditNote: creditNote!, invoice }, date),
  );
  return { invoice: invoice.number, creditNote: creditNote!.number, replaced: replaced.number };
}
