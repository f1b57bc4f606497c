import { eq } from "drizzle-orm";
import {
  ORDER_NOTE_MAX_LENGTH,
  orderDocumentHref,
  orderReference,
  type AdminOrderPage,
  type OrderDocumentKind,
  type OrderTimelineEntry,
} from "#app/lib/orders/orders.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import type { ReceivedPayment } from "#app/lib/orders/payments.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { documentsOfOrder, type DocumentRow } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { accessDetailsOf, offersAccessDetails } from "./access-details.server.ts";
import { storedBilling } from "./billing.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { toAdminOrder } from "./admin.server.ts";
import { studentsOfOrders, type OrderRow, type OrderStudent } from "./records.server.ts";
import { dateWhere } from "#app/lib/catalogue/course-dates.ts";
import type { MoveOptions } from "#app/lib/orders/moves.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { holdersOf } from "./booking-rules.server.ts";
import { moveRefusal, moveTargets } from "./moves.server.ts";
import { openMoveRequest } from "./move-requests.server.ts";
import {
  balanceOf,
  bankRefundableCents,
  bankRefundRefusal,
  paymentsOf,
} from "./payments.server.ts";
import { orderTimeline } from "./order-timeline.server.ts";

/**
 * The admin order page (decisions 0015, 0016): one order with its buyer, billing details, students,
 * amounts, documents and timeline (order-timeline.server.ts), and the internal notes admins add
 * to it.
 */

function documentLink(document: DocumentRow) {
  return {
    id: document.id,
    kind: document.kind as OrderDocumentKind,
    number: document.number,
    issuedAt: document.issuedAt.toISOString(),
    totalCents: document.totalAmountCents,
    issuedBy: document.issuedBy,
    href: orderDocumentHref(document.orderId, document.id),
  };
}

/**
 * The invoice prints the billing details: before it is issued they are edited; after, an unpaid
 * invoice never credited is corrected by re-issuing it (decision 0015); else they stay as they
 * were.
 */
function correctableBilling(
  order: OrderRow,
  documents: DocumentRow[],
): AdminOrderPage["billingForm"] {
  if (order.anonymisedAt !== null) return null;
  const replaced = new Set(documents.map((d) => d.replacesDocumentId));
  const invoice = documents.find((d) => d.kind === "invoice" && !replaced.has(d.id));
  if (!invoice) return { stored: storedBilling(order), reissues: null };
  const credited = documents.some((d) => d.creditsDocumentId === invoice.id);
  return order.paymentMethod === "invoice" && order.status === "invoiced" && !credited
    ? { stored: storedBilling(order), reissues: invoice.number }
    : null;
}

function pageOf(
  order: OrderRow,
  students: OrderStudent[],
  documents: DocumentRow[],
  timeline: OrderTimelineEntry[],
  access: AdminOrderPage["access"],
  booked: Pick<AdminOrderPage, "date" | "move" | "moveRequest">,
  received: ReceivedPayment[] | null,
): AdminOrderPage {
  return {
    order: toAdminOrder(order, students),
    billing: {
      organisation: order.billingOrganisation,
      addressLines: [order.billingAddressLine1, order.billingAddressLine2].filter(
        (line): line is string => Boolean(line),
      ),
      town: order.billingTown,
      postcode: order.billingPostcode,
      country: order.billingCountry,
      poNumber: order.poNumber,
      vatNumber: order.buyerVatNumber,
    },
    amounts: {
      unitPriceCents: order.unitPriceCents,
      quantity: order.quantity,
      netCents: order.netAmountCents,
      vatCents: order.vatAmountCents,
      vatRateBasisPoints: order.vatRateBasisPoints,
      pricesIncludeVat: order.pricesIncludeVat,
      totalCents: order.totalAmountCents,
      refundedCents: order.refundedAmountCents,
      currency: order.currency,
    },
    refundable:
      order.paymentMethod === "stripe" &&
      (order.status === "paid" || order.paidAfterCancellationAt !== null) &&
      // A payment from before the PaymentIntent was stored is found through its session.
      (order.stripePaymentIntentId !== null || order.stripeCheckoutSessionId !== null) &&
      order.refundedAmountCents < order.totalAmountCents,
    paidAfterCancellationAt: order.paidAfterCancellationAt?.toISOString() ?? null,
    payments: received
      ? {
          received,
          receivedCents: order.receivedAmountCents,
          balanceCents: balanceOf(order),
          recordable: order.status === "invoiced" || order.status === "paid",
        }
      : null,
    today: londonDate(),
    bankRefundableCents: bankRefundRefusal(order) ? null : bankRefundableCents(order),
    billingForm: correctableBilling(order, documents),
    access,
    documents: documents.map(documentLink),
    timeline,
    ...booked,
  };
}

/** The order's date, and the dates with room its places could move to (decision 0038). */
async function bookedAndMoves(
  order: OrderRow,
): Promise<Pick<AdminOrderPage, "date" | "move" | "moveRequest">> {
  const from = await bookedDateOf(db(), order.courseDateId);
  if (!from) return { date: null, move: null, moveRequest: null };
  const date = {
    startsAt: from.startsAt.toISOString(),
    endsAt: from.endsAt.toISOString(),
    where: dateWhere(from),
    cancelled: from.state === "cancelled",
  };
  const refusal = moveRefusal(order, from, new Date());
  if (refusal) return { date, move: { open: false, reason: refusal }, moveRequest: null };
  const [targets, holders, moveRequest] = await Promise.all([
    moveTargets(db(), order),
    holdersOf(db(), order),
    openMoveRequest(db(), order),
  ]);
  const move: MoveOptions = {
    open: true,
    targets,
    places: Array.from({ length: order.quantity }, (_, i) => {
      const holder = holders.get(i + 1);
      return { position: i + 1, name: holder ? `${holder.firstName} ${holder.lastName}` : null };
    }),
  };
  return { date, move, moveRequest };
}

/** Everything the order page shows, or null when there is no such order (or the id is not one). */
export async function orderPage(orderId: string): Promise<AdminOrderPage | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const [students, documents, timeline, access, booked, received] = await Promise.all([
    studentsOfOrders([order.id]),
    documentsOfOrder(order.id),
    orderTimeline(order.id),
    offersAccessDetails(order) ? accessDetailsOf(order.id) : null,
    bookedAndMoves(order),
    order.paymentMethod === "invoice" ? paymentsOf(order.id) : null,
  ]);
  return pageOf(order, students.get(order.id) ?? [], documents, timeline, access, booked, received);
}

export type AddNoteResult =
  | { ok: true }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "invalid"; message: string };

/**
 * An admin's internal note on an order, kept as an order event of kind 'note' with its text and
 * the admin's e-mail. The text was checked by the form's schema; it is checked again here (the
 * rule that counts): non-empty once trimmed, at most ORDER_NOTE_MAX_LENGTH characters.
 */
export async function addOrderNote(
  orderId: string,
  text: string,
  admin: AuditActor,
): Promise<AddNoteResult> {
  const note = text.trim();
  if (note.length === 0) return { ok: false, reason: "invalid", message: "empty" };
  if (note.length > ORDER_NOTE_MAX_LENGTH) {
    return { ok: false, reason: "invalid", message: "too long" };
  }
  if (!isUuid(orderId)) return { ok: false, reason: "not_found" };
  const added = await db().transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
    if (!order) return false;
    await recordOrderEvent(tx, order.id, "note", admin.email, { text: note });
    await recordAudit(tx, admin, {
      action: "order.note",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      after: { note },
    });
    return true;
  });
  if (!added) return { ok: false, reason: "not_found" };
  log.info({ orderId }, "order note added");
  return { ok: true };
}
