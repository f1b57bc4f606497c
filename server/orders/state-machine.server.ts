import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { orderReference, type OrderStatus, type PaymentMethod } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { orderPayments, orders, stripeEvents } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { issueCreditNote, issueInvoice } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { paidAfterCancellationAlert } from "../email/templates/refund.server.ts";
import { invoiceIssuedEmail, orderCanceledEmail, paidOrderEmails } from "./emails.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { recordOrderEvent, type OrderActor } from "./events.server.ts";
import { studentsOfOrder, type OrderRow } from "./records.server.ts";
import { offerFreedPlacesAfter } from "../catalogue/waiting-list-offers.server.ts";

/**
 * The order state machine (decision 0005; docs/rules.md, Checkout and orders): the one function
 * through which the Stripe webhook, the success page, the checkout and an admin change an order's
 * status, so the rules are written once and races between them have exactly one winner.
 */

/**
 * Who asks for a transition. 'checkout': the checkout itself, when Stripe refused to start;
 * 'move': a paid order moved to a dearer date (moves.server.ts, decision 0046).
 */
export type TransitionSource = "webhook" | "success_page" | "admin" | "checkout" | "move" | "quote";

export interface OrderTransitionRule {
  from: OrderStatus;
  to: OrderStatus;
  /** The payment methods of the orders this rule applies to. */
  methods: readonly PaymentMethod[];
  /** Who may apply it. */
  sources: readonly TransitionSource[];
}

/**
 * Every allowed transition; anything not listed is refused. Card orders are settled by Stripe
 * (webhook or the verified success page) — an admin cannot mark one paid; invoice orders are
 * settled by an admin: pending → invoiced → paid. Either may be canceled while unsettled.
 * failed and canceled are final; paid too, but for a move to a dearer date, which invoices the
 * difference (decision 0046): the move makes that change itself, with its re-issued invoice.
 */
export const ORDER_TRANSITIONS: readonly OrderTransitionRule[] = [
  { from: "pending", to: "paid", methods: ["stripe"], sources: ["webhook", "success_page"] },
  { from: "pending", to: "failed", methods: ["stripe"], sources: ["webhook", "checkout"] },
  { from: "pending", to: "canceled", methods: ["stripe"], sources: ["webhook", "admin"] },
  // A quote accepted online is invoiced at once (decision 0049).
  { from: "pending", to: "invoiced", methods: ["invoice"], sources: ["admin", "quote"] },
  { from: "pending", to: "canceled", methods: ["invoice"], sources: ["admin"] },
  { from: "invoiced", to: "paid", methods: ["invoice"], sources: ["admin"] },
  { from: "invoiced", to: "canceled", methods: ["invoice"], sources: ["admin"] },
  { from: "paid", to: "invoiced", methods: ["invoice", "stripe"], sources: ["move"] },
];

export function canTransition(
  order: { status: OrderStatus; paymentMethod: PaymentMethod },
  to: OrderStatus,
  source: TransitionSource,
): boolean {
  return ORDER_TRANSITIONS.some(
    (rule) =>
      rule.from === order.status &&
      rule.to === to &&
      rule.methods.includes(order.paymentMethod) &&
      rule.sources.includes(source),
  );
}

/** The statuses an admin may move an order to now (the Payments screen's buttons). */
export function adminActions(order: {
  status: OrderStatus;
  paymentMethod: PaymentMethod;
}): OrderStatus[] {
  const targets = ORDER_TRANSITIONS.filter(
    (rule) =>
      rule.from === order.status &&
      rule.methods.includes(order.paymentMethod) &&
      rule.sources.includes("admin"),
  ).map((rule) => rule.to);
  return [...new Set(targets)];
}

/** The WHERE condition matching the orders a source may move to `to`: (status, method) pairs. */
function allowedFromCondition(to: OrderStatus, source: TransitionSource): SQL | undefined {
  const rules = ORDER_TRANSITIONS.filter((r) => r.to === to && r.sources.includes(source));
  if (rules.length === 0) return undefined;
  return or(
    ...rules.map((r) =>
      and(eq(orders.status, r.from), inArray(orders.paymentMethod, [...r.methods])),
    ),
  );
}

const DEFAULT_ACTORS: Record<TransitionSource, OrderActor> = {
  webhook: "stripe",
  success_page: "stripe",
  checkout: "system",
  admin: "admin",
  move: "admin",
  quote: "buyer",
};

/**
 * Records a Stripe event as applied, in the transaction that applies it: false when it was
 * recorded before (a replay: nothing more to do). Without an event id (not from the webhook),
 * there is nothing to record.
 */
async function admitStripeEvent(
  tx: Transaction,
  event: { eventId?: string; eventType?: string },
  orderId: string | null,
): Promise<boolean> {
  if (!event.eventId) return true;
  const recorded = await tx
    .insert(stripeEvents)
    .values({ eventId: event.eventId, type: event.eventType ?? "unknown", orderId })
    .onConflictDoNothing()
    .returning({ eventId: stripeEvents.eventId });
  return recorded.length > 0;
}

export type TransitionResult =
  /** This call moved the order; its e-mails are queued. */
  | { kind: "transitioned"; order: OrderRow }
  /** Not allowed from the order's current status (or already there, e.g. a lost race). */
  | { kind: "unchanged"; order: OrderRow }
  /** The webhook event was applied before; nothing was done. */
  | { kind: "duplicate_event" }
  | { kind: "not_found" };

/**
 * "Mark Paid" on an invoice with a balance left (decision 0042): the balance is recorded as
 * received on the day, so an order's payments always add up to what it was paid.
 */
async function recordBalanceReceived(
  tx: Transaction,
  order: OrderRow,
  actor: OrderActor,
  paidAt: Date,
): Promise<number> {
  const balance = order.totalAmountCents - order.receivedAmountCents;
  if (balance <= 0) return 0;
  await tx.insert(orderPayments).values({
    orderId: order.id,
    amountCents: balance,
    receivedOn: londonDate(paidAt),
    method: "other",
    reference: "Marked paid",
    actor,
  });
  await tx
    .update(orders)
    .set({ receivedAmountCents: order.totalAmountCents })
    .where(eq(orders.id, order.id));
  order.receivedAmountCents = order.totalAmountCents;
  return balance;
}

/**
 * A cancellation's timeline detail: staff's reason (under its own key, so erasure redacts it
 * like any free text: it may name someone) and whether the buyer was told.
 */
function cancelDetail(
  to: OrderStatus,
  options: { notifyBuyer?: boolean; reason?: string },
): Record<string, unknown> | undefined {
  if (to !== "canceled") return undefined;
  const reason = options.reason?.trim();
  const detail = {
    ...(reason ? { cancelReason: reason } : {}),
    ...(options.notifyBuyer ? { notifyBuyer: true } : {}),
  };
  return Object.keys(detail).length ? detail : undefined;
}

export type TransitionOptions = {
  source: TransitionSource;
  eventId?: string;
  eventType?: string;
  /** Who did it, for the order's timeline: an admin's e-mail (default: from the source). */
  actor?: OrderActor;
  /**
   * The admin who asked (source 'admin'), for the audit log; the timeline's actor is their
   * e-mail unless `actor` says otherwise. Absent: the system did it (webhook, success page).
   */
  admin?: AuditActor;
  /** An admin's cancellation: tell the buyer by e-mail (the order page's checkbox). */
  notifyBuyer?: boolean;
  /** A cancellation's reason, printed on the credit note (default 'Order cancelled'). */
  reason?: string;
  /** When an invoice order was paid, if not now: the day its last payment arrived. */
  paidAt?: Date;
};

/**
 * `transitionOrder` inside a transaction of the caller's (recording a payment that settles the
 * balance pays the order in the same transaction). The caller nudges the outbox after commit.
 */
export async function transitionInTransaction(
  tx: Transaction,
  orderId: string,
  to: OrderStatus,
  options: TransitionOptions,
): Promise<TransitionResult> {
  // Locked, so the status read here is the one this transition replaces (the audit's "before").
  const [exists] = await tx
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("update");
  if (!(await admitStripeEvent(tx, options, exists ? orderId : null))) {
    return { kind: "duplicate_event" };
  }
  if (!exists) return { kind: "not_found" };
  const allowed = allowedFromCondition(to, options.source);
  const [updated] = allowed
    ? await tx
        .update(orders)
        .set({
          status: to,
          updatedAt: sql`now()`,
          ...(to === "paid" ? { paidAt: options.paidAt ?? sql`now()` } : {}),
        })
        .where(and(eq(orders.id, orderId), allowed))
        .returning()
    : [];
  if (!updated) {
    const [current] = await tx.select().from(orders).where(eq(orders.id, orderId));
    return current ? { kind: "unchanged", order: current } : { kind: "not_found" };
  }
  const actor = options.actor ?? options.admin?.email ?? DEFAULT_ACTORS[options.source];
  const issued: Record<string, unknown> = {};
  await recordOrderEvent(
    tx,
    orderId,
    to,
    actor,
    options.eventId ? { stripeEventId: options.eventId } : cancelDetail(to, options),
  );
  if (to === "invoiced") {
    const students = await studentsOfOrder(tx, updated.id);
    const invoice = await issueInvoice(tx, updated, students, { kind: "invoice", actor });
    issued.invoice = invoice.number;
    const date = await bookedDateOf(tx, updated.courseDateId);
    await queueEmails(tx, [invoiceIssuedEmail(updated, students, invoice, date)]);
  } else if (to === "paid") {
    const paidAt = options.paidAt ?? new Date();
    if (updated.paymentMethod === "invoice") {
      const balance = await recordBalanceReceived(tx, updated, actor, paidAt);
      if (balance) issued.balanceReceivedCents = balance;
    }
    const receipt =
      updated.paymentMethod === "stripe"
        ? await issueInvoice(tx, updated, await studentsOfOrder(tx, updated.id), {
            kind: "receipt",
            actor,
            paidAt,
            now: paidAt,
          })
        : null;
    if (receipt) issued.receipt = receipt.number;
    await queueEmails(tx, await paidOrderEmails(tx, updated, { receipt, paidAt }));
  } else if (to === "canceled") {
    // Null unless an invoice was issued (only an invoiced order has one to credit).
    const creditNote = await issueCreditNote(tx, updated, {
      reason: options.reason?.trim() || "Order cancelled",
      actor,
    });
    if (creditNote) issued.creditNote = creditNote.number;
    if (options.notifyBuyer) {
      const students = await studentsOfOrder(tx, updated.id);
      const date = await bookedDateOf(tx, updated.courseDateId);
      await queueEmails(tx, [orderCanceledEmail(updated, students, creditNote, date)]);
    }
  }
  await recordAudit(tx, options.admin ?? null, {
    action: "order.status",
    subjectType: "order",
    subjectId: updated.id,
    summary: orderReference(updated.id),
    before: { status: exists.status },
    after: {
      status: to,
      ...issued,
      ...(options.source === "admin" ? {} : { source: options.source }),
      ...(options.eventId ? { stripeEvent: options.eventId } : {}),
      ...(to === "canceled" && options.notifyBuyer ? { notifyBuyer: true } : {}),
    },
  });
  return { kind: "transitioned", order: updated };
}

/**
 * Moves an order along the state machine, or does nothing. One transaction holds: the webhook
 * event id (when given — inserted first, so a replay stops here), a conditional UPDATE … WHERE
 * status IN (allowed) (so of concurrent callers exactly one changes the row; the others see 0
 * rows), and what the new status brings (decision 0015), so it exists exactly when the change does:
 *
 * - invoiced: the invoice is issued (numbered) and e-mailed to the buyer, the PDF attached;
 * - paid: the receipt e-mail and joining details; a card order's VAT receipt is issued and
 *   attached to the receipt e-mail;
 * - canceled: an invoiced order's invoice is credited in full by a credit note; with
 *   `notifyBuyer`, the buyer is told by e-mail (the credit note attached, when there is one).
 *
 * Safe to call any number of times, concurrently.
 */
export async function transitionOrder(
  orderId: string,
  to: OrderStatus,
  options: TransitionOptions,
): Promise<TransitionResult> {
  if (!isUuid(orderId)) return { kind: "not_found" };
  const result = await db().transaction((tx) => transitionInTransaction(tx, orderId, to, options));
  if (result.kind === "transitioned") {
    log.info(
      { orderId, status: to, source: options.source, eventId: options.eventId },
      "order status changed",
    );
    nudgeOutbox();
    // Places given back go to the date's waiting list first (decision 0034).
    if (to === "canceled" || to === "failed") {
      await offerFreedPlacesAfter(result.order.courseDateId);
    }
  } else if (result.kind === "unchanged" && result.order.status !== to) {
    log.warn(
      { orderId, status: result.order.status, wanted: to, source: options.source },
      "order transition refused",
    );
  }
  return result;
}

export type LatePaymentResult =
  /** Recorded now: the timeline entry, the audit row and the staff alert exist. */
  | { kind: "recorded"; order: OrderRow }
  /** Recorded before (a replay, or the other path got there first). */
  | { kind: "already_recorded" }
  /** The webhook event was applied before. */
  | { kind: "duplicate_event" }
  /** Not a cancelled card order (it may have been paid the ordinary way meanwhile). */
  | { kind: "not_cancelled"; order: OrderRow }
  | { kind: "not_found" };

/**
 * A card payment that arrived for an order already cancelled — its buyer paid on a Checkout page
 * that was still open (docs/rules.md, Checkout and orders). The order stays cancelled; the payment
 * is recorded on it (`paid_after_cancellation_at`, which the order page and the Dashboard show
 * and which lets staff refund it), on its timeline and in the audit log, and staff are alerted
 * by e-mail. Once per order, in one transaction, whichever event or page reports it.
 */
export async function recordPaymentAfterCancellation(
  orderId: string,
  options: { eventId?: string; eventType?: string } = {},
): Promise<LatePaymentResult> {
  if (!isUuid(orderId)) return { kind: "not_found" };
  const result = await db().transaction(async (tx): Promise<LatePaymentResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!(await admitStripeEvent(tx, options, order ? orderId : null))) {
      return { kind: "duplicate_event" };
    }
    if (!order) return { kind: "not_found" };
    if (order.status !== "canceled" || order.paymentMethod !== "stripe") {
      return { kind: "not_cancelled", order };
    }
    if (order.paidAfterCancellationAt) return { kind: "already_recorded" };
    const [updated] = await tx
      .update(orders)
      .set({ paidAfterCancellationAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(orders.id, orderId))
      .returning();
    await recordOrderEvent(tx, orderId, "paid_after_cancellation", "stripe", {
      amountCents: updated!.totalAmountCents,
      ...(options.eventId ? { stripeEventId: options.eventId } : {}),
    });
    await queueEmails(tx, [paidAfterCancellationAlert(updated!)]);
    await recordAudit(tx, null, {
      action: "order.paid_after_cancellation",
      subjectType: "order",
      subjectId: orderId,
      summary: orderReference(orderId),
      before: { status: "canceled" },
      after: {
        status: "canceled",
        paidAfterCancellation: true,
        amountCents: updated!.totalAmountCents,
        ...(options.eventId ? { stripeEvent: options.eventId } : {}),
      },
    });
    return { kind: "recorded", order: updated! };
  });
  if (result.kind === "recorded") {
    log.error(
      { orderId, eventId: options.eventId },
      "a cancelled order was paid at Stripe: recorded on the order for staff to refund",
    );
    nudgeOutbox();
  }
  return result;
}
