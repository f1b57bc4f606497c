import { and, asc, eq, sql } from "drizzle-orm";
import { londonDate, startOfLondonDate, ukDate } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import {
  PAYMENT_MESSAGES,
  type BankRefundMethod,
  type PaymentReceivedMethod,
  type ReceivedPayment,
  type StoredPaymentMethod,
} from "#app/lib/orders/payments.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { orderPayments, orderRefunds, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { creditRefund } from "../payments/refund-records.server.ts";
import { offerFreedPlacesAfter } from "../catalogue/waiting-list-offers.server.ts";
import { recordOrderEvent, type OrderActor } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";
import { transitionInTransaction } from "./state-machine.server.ts";

/**
 * Payments as they arrive (docs/decisions/0042-payments-as-they-arrive.md). Money against an
 * invoice is recorded as it comes: each payment a row, the order's received amount their sum.
 * The payment that brings it to the total pays the order (the ordinary transition: the buyer's
 * receipt e-mail), dated the day the money arrived; more than the total is an overpayment, shown
 * to staff. A refund paid back by bank is recorded on any paid order and credited like a Stripe
 * refund. Each staff form carries a nonce, so the same form sent twice records once.
 */

export interface PaymentInput {
  amountCents: number;
  /** 'yyyy-MM-dd', the UK date the money arrived. */
  receivedOn: string;
  method: PaymentReceivedMethod;
  reference: string | null;
  /** The staff form's nonce, or absent (a card payment is admitted by its Checkout Session). */
  nonce?: string;
  stripeCheckoutSessionId?: string;
}

export type PaymentOutcome =
  | {
      ok: true;
      alreadyRecorded: boolean;
      amountCents: number;
      /** What is still owed after it (negative: overpaid). */
      balanceCents: number;
      order: OrderRow;
    }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: string };

/** What an order is owed now: its total less what was received (an invoice order's balance). */
export function balanceOf(order: Pick<OrderRow, "totalAmountCents" | "receivedAmountCents">) {
  return order.totalAmountCents - order.receivedAmountCents;
}

/** The date checks both forms share, against the server's clock and the order. */
function dateRefusal(order: OrderRow, date: string, now: Date): string | null {
  if (date > londonDate(now)) return PAYMENT_MESSAGES.dateFuture;
  const placed = londonDate(order.createdAt);
  if (date < placed) return PAYMENT_MESSAGES.dateBeforeOrder(ukDate(placed));
  return null;
}

/** When an order paid by a payment on `date` was paid: now if today, else midday of that day. */
function paidAtFor(date: string, now: Date): Date {
  if (date === londonDate(now)) return now;
  return new Date(startOfLondonDate(date).getTime() + 12 * 3600_000);
}

/** The payment this form (or this card payment) recorded before, if any. */
async function recordedBefore(tx: Transaction, orderId: string, input: PaymentInput) {
  const key = input.stripeCheckoutSessionId
    ? eq(orderPayments.stripeCheckoutSessionId, input.stripeCheckoutSessionId)
    : input.nonce
      ? eq(orderPayments.formNonce, input.nonce)
      : undefined;
  if (!key) return undefined;
  const [row] = await tx
    .select({ id: orderPayments.id })
    .from(orderPayments)
    .where(and(eq(orderPayments.orderId, orderId), key));
  return row;
}

/**
 * Records a payment against an invoice order: refused (and nothing recorded) unless the order is
 * paid by invoice and invoiced or paid (money arriving after it is paid is an overpayment), and
 * the date is neither in the future nor before the order was placed. The order's row is locked
 * first, so payments of one order are recorded one at a time and a repeated form is seen.
 */
export async function recordPayment(
  orderId: string,
  input: PaymentInput,
  by: { actor: OrderActor; admin: AuditActor | null },
  now: Date = new Date(),
): Promise<PaymentOutcome> {
  if (!isUuid(orderId)) return { ok: false, status: 404, message: PAYMENT_MESSAGES.notFound };
  const outcome = await db().transaction(async (tx): Promise<PaymentOutcome> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: PAYMENT_MESSAGES.notFound };
    if (order.paymentMethod !== "invoice") {
      return { ok: false, status: 409, message: PAYMENT_MESSAGES.notInvoice };
    }
    if (await recordedBefore(tx, orderId, input)) {
      // The same form (or the same card payment) again: the first one's answer.
      const balanceCents = balanceOf(order);
      return {
        ok: true,
        alreadyRecorded: true,
        amountCents: input.amountCents,
        balanceCents,
        order,
      };
    }
    if (order.status !== "invoiced" && order.status !== "paid") {
      return { ok: false, status: 409, message: PAYMENT_MESSAGES.notOwed };
    }
    const refused = dateRefusal(order, input.receivedOn, now);
    if (refused) return { ok: false, status: 400, message: refused, field: "receivedOn" };

    await tx.insert(orderPayments).values({
      orderId,
      amountCents: input.amountCents,
      receivedOn: input.receivedOn,
      method: input.method,
      reference: input.reference,
      formNonce: input.nonce ?? null,
      stripeCheckoutSessionId: input.stripeCheckoutSessionId ?? null,
      actor: by.actor,
    });
    const received = order.receivedAmountCents + input.amountCents;
    const [updated] = await tx
      .update(orders)
      .set({ receivedAmountCents: received, updatedAt: sql`now()` })
      .where(eq(orders.id, orderId))
      .returning();
    const balanceCents = balanceOf(updated!);
    const detail = {
      amountCents: input.amountCents,
      receivedOn: input.receivedOn,
      method: input.method,
      reference: input.reference,
      balanceCents,
    };
    await recordOrderEvent(tx, orderId, "payment_received", by.actor, detail);
    await recordAudit(tx, by.admin, {
      action: "order.payment",
      subjectType: "order",
      subjectId: orderId,
      summary: orderReference(orderId),
      before: { receivedAmountCents: order.receivedAmountCents, status: order.status },
      after: { ...detail, receivedAmountCents: received },
    });
    let after = updated!;
    if (order.status === "invoiced" && balanceCents <= 0) {
      const paid = await transitionInTransaction(tx, orderId, "paid", {
        source: "admin",
        actor: by.actor,
        ...(by.admin ? { admin: by.admin } : {}),
        paidAt: paidAtFor(input.receivedOn, now),
      });
      if (paid.kind === "transitioned") after = paid.order;
    }
    return {
      ok: true,
      alreadyRecorded: false,
      amountCents: input.amountCents,
      balanceCents,
      order: after,
    };
  });
  if (outcome.ok && !outcome.alreadyRecorded) {
    nudgeOutbox();
    log.info(
      { orderId, amountCents: input.amountCents, balanceCents: outcome.balanceCents },
      "payment recorded",
    );
  }
  return outcome;
}

export interface BankRefundInput {
  amountCents: number;
  refundedOn: string;
  method: BankRefundMethod;
  reference: string | null;
  /** Staff's note: kept on the order, not sent to the buyer. */
  note: string | null;
  nonce: string;
}

export type BankRefundOutcome =
  | {
      ok: true;
      alreadyRecorded: boolean;
      amountCents: number;
      creditNoteNumber: string | null;
      order: OrderRow;
    }
  | { ok: false; status: 400 | 404 | 409; message: string; field?: string };

/** Why an order cannot take a bank refund now, or null. */
export function bankRefundRefusal(order: OrderRow): string | null {
  const paidBefore = order.status === "paid" || order.paidAfterCancellationAt !== null;
  if (!paidBefore && !receivedBeforeCancelling(order)) return PAYMENT_MESSAGES.notRefundable;
  if (bankRefundableCents(order) <= 0) return PAYMENT_MESSAGES.fullyRefunded;
  return null;
}

/** A cancelled invoice order that had received money: what it received is owed back. */
function receivedBeforeCancelling(order: OrderRow): boolean {
  return order.status === "canceled" && order.receivedAmountCents > 0;
}

/**
 * What is left to pay back: on a paid order (or one paid after it was cancelled), its total less
 * what was refunded; on an invoice order cancelled after money arrived, what it received less
 * what was refunded — the cancellation's credit note already took the whole invoice off.
 */
export function bankRefundableCents(order: OrderRow): number {
  const paid = receivedBeforeCancelling(order)
    ? Math.min(order.receivedAmountCents, order.totalAmountCents)
    : order.totalAmountCents;
  return paid - order.refundedAmountCents;
}

/**
 * Records money paid back outside Stripe on a paid order (card or invoice), or on an invoice
 * order cancelled after money arrived: up to what is left to pay back (bankRefundableCents), dated
 * as paid, credited by a credit note e-mailed to the buyer where the sale was not credited yet.
 */
export async function recordBankRefund(
  orderId: string,
  input: BankRefundInput,
  admin: AuditActor,
  now: Date = new Date(),
): Promise<BankRefundOutcome> {
  if (!isUuid(orderId)) return { ok: false, status: 404, message: PAYMENT_MESSAGES.notFound };
  const outcome = await db().transaction(async (tx): Promise<BankRefundOutcome> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: PAYMENT_MESSAGES.notFound };
    const [again] = await tx
      .select()
      .from(orderRefunds)
      .where(and(eq(orderRefunds.orderId, orderId), eq(orderRefunds.formNonce, input.nonce)));
    if (again) {
      return {
        ok: true,
        alreadyRecorded: true,
        amountCents: again.amountCents,
        creditNoteNumber: null,
        order,
      };
    }
    const refusal = bankRefundRefusal(order);
    if (refusal) return { ok: false, status: 409, message: refusal };
    const left = bankRefundableCents(order);
    if (input.amountCents > left) {
      const message = PAYMENT_MESSAGES.refundTooLarge(left);
      return { ok: false, status: 400, message, field: "amountCents" };
    }
    const refused = dateRefusal(order, input.refundedOn, now);
    if (refused) return { ok: false, status: 400, message: refused, field: "refundedOn" };
    const [inserted] = await tx
      .insert(orderRefunds)
      .values({
        orderId,
        stripeRefundId: null,
        amountCents: input.amountCents,
        reason: input.note ? `Refunded by bank: ${input.note}` : "Refunded by bank",
        status: "succeeded",
        method: input.method,
        refundedOn: input.refundedOn,
        reference: input.reference,
        formNonce: input.nonce,
        actor: admin.email,
      })
      .returning();
    const recorded = await creditRefund(tx, order, inserted!, {
      amountCents: input.amountCents,
      reason: null,
      note: input.note,
      status: "succeeded",
      actor: admin.email,
      admin,
      reasonLabel: "Refund",
      paidBack: input.method,
      refundedOn: input.refundedOn,
      reference: input.reference,
    });
    return {
      ok: true,
      alreadyRecorded: false,
      amountCents: input.amountCents,
      creditNoteNumber: recorded.creditNoteNumber,
      order: recorded.order,
    };
  });
  if (outcome.ok && !outcome.alreadyRecorded) {
    nudgeOutbox();
    log.info({ orderId, amountCents: input.amountCents }, "bank refund recorded");
    if (outcome.order.refundedAmountCents >= outcome.order.totalAmountCents) {
      await offerFreedPlacesAfter(outcome.order.courseDateId);
    }
  }
  return outcome;
}

/** The order's payments, oldest first (the order page's list). */
export async function paymentsOf(orderId: string): Promise<ReceivedPayment[]> {
  const rows = await db()
    .select()
    .from(orderPayments)
    .where(eq(orderPayments.orderId, orderId))
    .orderBy(asc(orderPayments.receivedOn), asc(orderPayments.createdAt));
  return rows.map((row) => ({
    id: row.id,
    amountCents: row.amountCents,
    receivedOn: row.receivedOn,
    method: row.method as StoredPaymentMethod,
    reference: row.reference,
    actor: row.actor,
  }));
}
