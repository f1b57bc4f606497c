import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { orderReference } from "#app/lib/orders/orders.ts";
import { refundReasonText } from "#app/lib/orders/refunds.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { orderDocuments, orderEvents, orderRefunds, orders } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { inForce, issueCreditNote, issueInvoice } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { recordOrderEvent, type OrderActor } from "../orders/events.server.ts";
import { studentsOfOrder, type OrderRow } from "../orders/records.server.ts";
import {
  refundEmail,
  refundFailedAlert,
  type RefundEmailFacts,
} from "../email/templates/refund.server.ts";

/**
 * Refunds as this site records them (decision 0016), one `order_refunds` row per Stripe refund.
 * Both ways a refund becomes known — the admin's request (refunds.server.ts) and Stripe's webhook
 * (refund.created / refund.updated / refund.failed, for refunds made in Stripe's dashboard too,
 * read by stripe-webhook.server.ts) — call `recordRefund`; the unique refund id admits it once, so
 * the order's refunded amount, its credit note, its timeline entry and the buyer's e-mail happen
 * once, whichever comes first. A refund that later fails or is canceled gives its amount back to
 * what may be refunded.
 */

export type OrderRefundRow = typeof orderRefunds.$inferSelect;

/** Stripe's refund statuses. The first three count as refunded: the money is on its way back. */
export type RefundStatus = "pending" | "requires_action" | "succeeded" | "failed" | "canceled";

export function countsAsRefunded(status: string): boolean {
  return status === "pending" || status === "requires_action" || status === "succeeded";
}

/**
 * How far along a refund is. Stripe's webhooks may arrive in any order: a status never goes
 * back (a late refund.created saying 'pending' does not undo 'succeeded' or 'failed'), and failed
 * or canceled are final (a succeeded card refund can still fail later).
 */
function progress(status: string): number {
  if (status === "failed" || status === "canceled") return 2;
  return status === "succeeded" ? 1 : 0;
}

/** What is known of a refund, from Stripe's answer or its webhook. */
export interface RefundFacts {
  stripeRefundId: string;
  amountCents: number;
  status: string;
  /** Stripe's reason (requested_by_customer, duplicate, fraudulent), or null. */
  reason: string | null;
  /** The admin's note, kept here (and in the refund's metadata at Stripe). */
  note: string | null;
  failureReason?: string | null;
  /** The admin who asked, or 'stripe' for a refund made in Stripe's dashboard. */
  actor: OrderActor;
  /**
   * For the audit log: the signed-in admin whose request this records, or null when Stripe's
   * webhook reports it (the system records it, even for a refund an admin asked for earlier).
   */
  admin: AuditActor | null;
}

/** The audit row of a refund first recorded here, or of its later failure. */
async function auditRefund(
  tx: Transaction,
  admin: AuditActor | null,
  action: "order.refund" | "order.refund_status",
  orderId: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<void> {
  await recordAudit(tx, admin, {
    action,
    subjectType: "order",
    subjectId: orderId,
    summary: orderReference(orderId),
    before,
    after,
  });
}

export interface RecordedRefund {
  /** Whether this call recorded it (false: it was already, by the other path or a replay). */
  created: boolean;
  refund: OrderRefundRow;
  order: OrderRow;
  creditNoteNumber: string | null;
}

/**
 * The document a credit note credits. A paid card order gets its receipt when it is paid; one
 * paid before receipts were issued, or paid after it was cancelled, gets it now, dated from its
 * payment, so that the refund's credit note has a document to refer to.
 */
async function ensureCreditableDocument(tx: Transaction, order: OrderRow): Promise<void> {
  const [document] = await tx
    .select({ id: orderDocuments.id })
    .from(orderDocuments)
    .where(
      and(
        eq(orderDocuments.orderId, order.id),
        inArray(orderDocuments.kind, ["invoice", "receipt"]),
      ),
    );
  if (document) return;
  const [paid] = await tx
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, order.id),
        inArray(orderEvents.kind, ["paid", "paid_after_cancellation"]),
      ),
    )
    .orderBy(asc(orderEvents.createdAt))
    .limit(1);
  const students = await studentsOfOrder(tx, order.id);
  await issueInvoice(tx, order, students, {
    kind: "receipt",
    actor: "system",
    paidAt: paid?.at ?? order.createdAt,
  });
}

/**
 * What the order's credit notes have credited of its invoice or receipt in force: money given
 * back or owed back. A corrected invoice's credit note cancels the invoice it replaced, in full,
 * and is not counted: the refunds of the corrected one are credited against it.
 */
async function creditedSoFar(tx: Transaction, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${orderDocuments.totalAmountCents}), 0)::int` })
    .from(orderDocuments)
    .where(
      and(
        eq(orderDocuments.orderId, orderId),
        eq(orderDocuments.kind, "credit_note"),
        inForce(sql`${orderDocuments.creditsDocumentId}`),
      ),
    );
  return Number(row?.total ?? 0);
}

async function creditNoteNumberOf(tx: Transaction, row: OrderRefundRow): Promise<string | null> {
  if (!row.creditNoteId) return null;
  const [document] = await tx
    .select({ number: orderDocuments.number })
    .from(orderDocuments)
    .where(eq(orderDocuments.id, row.creditNoteId));
  return document?.number ?? null;
}

/**
 * Records a refund of `orderId` inside `tx`, once per Stripe refund id: the row, the order's
 * refunded amount (never above its total), a credit note for the amount not yet credited, the
 * timeline's "refunded" entry and the buyer's e-mail with the credit note attached. Already
 * recorded: only a status that moves forward is applied (see `applyRefundStatus`). Null when the
 * order does not exist.
 */
export async function recordRefund(
  tx: Transaction,
  orderId: string,
  facts: RefundFacts,
): Promise<RecordedRefund | null> {
  // The order's row is locked first: its refunds are recorded one at a time.
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) return null;
  const counted = countsAsRefunded(facts.status);
  const [inserted] = await tx
    .insert(orderRefunds)
    .values({
      orderId,
      stripeRefundId: facts.stripeRefundId,
      amountCents: facts.amountCents,
      reason: refundReasonText(facts.reason, facts.note),
      status: facts.status,
      actor: facts.actor,
    })
    .onConflictDoNothing({ target: orderRefunds.stripeRefundId })
    .returning();

  if (!inserted) {
    const [existing] = await tx
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.stripeRefundId, facts.stripeRefundId));
    if (!existing) throw new Error("refund row vanished while being recorded");
    if (existing.orderId !== orderId) {
      log.error(
        { refundId: facts.stripeRefundId, orderId, recordedFor: existing.orderId },
        "a Stripe refund already recorded for another order: ignored",
      );
      return { created: false, refund: existing, order, creditNoteNumber: null };
    }
    const applied = await applyRefundStatus(tx, order, existing, facts);
    return {
      created: false,
      refund: applied.refund,
      order: applied.order,
      creditNoteNumber: await creditNoteNumberOf(tx, applied.refund),
    };
  }

  const reasonLabel = refundReasonText(facts.reason, null);
  if (!counted) {
    // First heard of when it had already failed: on the timeline, nothing to give back.
    await recordOrderEvent(tx, orderId, "refund_failed", facts.actor, {
      refundId: facts.stripeRefundId,
      amountCents: facts.amountCents,
      status: facts.status,
      failureReason: facts.failureReason ?? null,
    });
    await auditRefund(
      tx,
      facts.admin,
      "order.refund",
      orderId,
      { refundedAmountCents: order.refundedAmountCents },
      {
        refundId: facts.stripeRefundId,
        amountCents: facts.amountCents,
        status: facts.status,
        refundedAmountCents: order.refundedAmountCents,
      },
    );
    return { created: true, refund: inserted, order, creditNoteNumber: null };
  }

  return creditRefund(tx, order, inserted, { ...facts, reasonLabel, paidBack: "stripe" });
}

/**
 * What a refund that counts brings, whichever way it was paid (through Stripe or by bank): the
 * order's refunded amount (never above its total), a credit note for the amount not yet credited,
 * the timeline's "refunded" entry, the audit row and the buyer's e-mail with the credit note.
 */
export async function creditRefund(
  tx: Transaction,
  order: OrderRow,
  inserted: OrderRefundRow,
  facts: Pick<RefundFacts, "amountCents" | "reason" | "note" | "status" | "actor" | "admin"> & {
    reasonLabel: string;
    paidBack: NonNullable<RefundEmailFacts["paidBack"]>;
    /** A refund paid outside Stripe: when and the bank's reference, for the timeline. */
    refundedOn?: string;
    reference?: string | null;
  },
): Promise<RecordedRefund> {
  const orderId = order.id;
  const reasonLabel = facts.reasonLabel;
  const refundId = inserted.stripeRefundId;
  const refundedBefore = order.refundedAmountCents;
  const [updated] = await tx
    .update(orders)
    .set({
      refundedAmountCents: sql`least(${orders.totalAmountCents}, ${orders.refundedAmountCents} + ${facts.amountCents})`,
      updatedAt: sql`now()`,
    })
    .where(eq(orders.id, orderId))
    .returning();
  if (refundedBefore + facts.amountCents > order.totalAmountCents) {
    // Stripe never refunds more than was charged, and the charge is the order's total.
    log.error(
      { orderId, refundId, refundedBefore, amount: facts.amountCents },
      "a refund takes the order past its total: recorded up to the total",
    );
  }
  const after = updated!;

  // Credit what is refunded and not yet credited (a failed refund's credit note stands for the
  // money still owed, so a later refund of it is not credited twice).
  await ensureCreditableDocument(tx, after);
  const toCredit = Math.min(
    facts.amountCents,
    after.refundedAmountCents - (await creditedSoFar(tx, orderId)),
  );
  const creditNote =
    toCredit > 0
      ? await issueCreditNote(tx, after, {
          amountCents: toCredit,
          reason: reasonLabel,
          actor: facts.actor,
        })
      : null;
  const [refund] = creditNote
    ? await tx
        .update(orderRefunds)
        .set({ creditNoteId: creditNote.id })
        .where(eq(orderRefunds.id, inserted.id))
        .returning()
    : [inserted];

  const paidOutside =
    facts.paidBack === "stripe"
      ? {}
      : {
          method: facts.paidBack,
          refundedOn: facts.refundedOn,
          reference: facts.reference ?? null,
        };
  await recordOrderEvent(tx, orderId, "refunded", facts.actor, {
    amountCents: facts.amountCents,
    reason: facts.reason,
    note: facts.note,
    refundId,
    status: facts.status,
    creditNote: creditNote?.number ?? null,
    ...paidOutside,
  });
  await auditRefund(
    tx,
    facts.admin,
    "order.refund",
    orderId,
    { refundedAmountCents: refundedBefore },
    {
      refundId,
      amountCents: facts.amountCents,
      reason: facts.reason,
      note: facts.note,
      status: facts.status,
      refundedAmountCents: after.refundedAmountCents,
      creditNote: creditNote?.number ?? null,
      ...paidOutside,
    },
  );
  await queueEmails(tx, [
    refundEmail(after, {
      amountCents: facts.amountCents,
      refundedAmountCents: after.refundedAmountCents,
      creditNote: creditNote ? { id: creditNote.id, number: creditNote.number } : null,
      reasonLabel,
      paidBack: facts.paidBack,
    }),
  ]);
  return {
    created: true,
    refund: refund!,
    order: after,
    creditNoteNumber: creditNote?.number ?? null,
  };
}

/**
 * A later status of a recorded refund. Forward only; when it stops counting (failed, canceled),
 * its amount is given back to what may be refunded, the timeline says so and staff are told,
 * since the buyer is still owed the money (the credit note, final as every document, stands).
 */
async function applyRefundStatus(
  tx: Transaction,
  order: OrderRow,
  existing: OrderRefundRow,
  facts: RefundFacts,
): Promise<{ refund: OrderRefundRow; order: OrderRow }> {
  if (facts.status === existing.status || progress(facts.status) < progress(existing.status)) {
    return { refund: existing, order };
  }
  if (progress(existing.status) === 2) return { refund: existing, order };
  const [refund] = await tx
    .update(orderRefunds)
    .set({ status: facts.status })
    .where(eq(orderRefunds.id, existing.id))
    .returning();
  if (!(countsAsRefunded(existing.status) && !countsAsRefunded(facts.status))) {
    return { refund: refund!, order };
  }
  const [after] = await tx
    .update(orders)
    .set({
      refundedAmountCents: sql`greatest(0, ${orders.refundedAmountCents} - ${existing.amountCents})`,
      updatedAt: sql`now()`,
    })
    .where(eq(orders.id, order.id))
    .returning();
  const creditNoteNumber = await creditNoteNumberOf(tx, existing);
  await auditRefund(
    tx,
    facts.admin,
    "order.refund_status",
    order.id,
    {
      refundId: existing.stripeRefundId,
      status: existing.status,
      refundedAmountCents: order.refundedAmountCents,
    },
    {
      refundId: existing.stripeRefundId,
      status: facts.status,
      refundedAmountCents: after!.refundedAmountCents,
    },
  );
  // Stripe reports it: whoever asked for the refund, Stripe is who failed it.
  await recordOrderEvent(tx, order.id, "refund_failed", "stripe", {
    refundId: existing.stripeRefundId,
    amountCents: existing.amountCents,
    status: facts.status,
    failureReason: facts.failureReason ?? null,
    creditNote: creditNoteNumber,
  });
  await queueEmails(tx, [
    refundFailedAlert(order, {
      refundId: existing.stripeRefundId ?? existing.id,
      amountCents: existing.amountCents,
      status: facts.status,
      failureReason: facts.failureReason ?? null,
      creditNoteNumber,
    }),
  ]);
  log.warn(
    { orderId: order.id, refundId: existing.stripeRefundId, status: facts.status },
    "a refund failed or was cancelled in Stripe: its amount may be refunded again",
  );
  return { refund: refund!, order: after! };
}
