import { and, eq } from "drizzle-orm";
import { BILLING_LOCKED } from "#app/lib/orders/billing-form.ts";
import type { BillingDetails } from "#app/lib/orders/orders.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { orderDocuments, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { log } from "../log.server.ts";
import { recordOrderEvent } from "./events.server.ts";

/**
 * Correcting an order's billing details (organisation, address, PO number, the buyer's VAT
 * number) from its admin page, until its invoice is issued: the invoice prints them, and an
 * issued document is never edited (decision 0015). The change is one transaction under a lock on
 * the order, so it cannot slip past an invoice being issued at the same moment; it is recorded on
 * the order's timeline and in the audit log with what it was before.
 */

export type CorrectBillingResult =
  | { ok: true; changed: (keyof BillingDetails)[] }
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

export async function correctBilling(
  admin: AuditActor,
  orderId: string,
  details: BillingDetails,
): Promise<CorrectBillingResult> {
  if (!isUuid(orderId)) return { ok: false, status: 404 };
  const result = await db().transaction(async (tx): Promise<CorrectBillingResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || order.anonymisedAt) return { ok: false, status: 404 };
    const [invoice] = await tx
      .select({ id: orderDocuments.id })
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, order.id), eq(orderDocuments.kind, "invoice")))
      .limit(1);
    if (invoice) return { ok: false, status: 409, message: BILLING_LOCKED };
    const before = storedBilling(order);
    const changed = (Object.keys(details) as (keyof BillingDetails)[]).filter(
      (key) => details[key] !== before[key],
    );
    if (changed.length === 0) return { ok: true, changed };
    await tx
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
      .where(eq(orders.id, order.id));
    const pick = (from: BillingDetails) => Object.fromEntries(changed.map((k) => [k, from[k]]));
    await recordOrderEvent(tx, order.id, "billing_corrected", admin.email, { changed });
    await recordAudit(tx, admin, {
      action: "order.billing",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      before: pick(before),
      after: pick(details),
    });
    return { ok: true, changed };
  });
  if (result.ok && result.changed.length > 0) {
    log.info({ orderId, changed: result.changed }, "order billing details corrected");
  }
  return result;
}
