import { eq, sql } from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import type { AuditActor } from "../audit.server.ts";
import { dateAttendees, type DateAttendee } from "../catalogue/date-invitations.server.ts";
import type { Transaction } from "../db/client.server.ts";
import { orderPayments, orderStudents, orders, type courseDates } from "../db/schema.ts";
import type { OutgoingEmail } from "../email/outbox.server.ts";
import type { MoveMoney } from "../email/templates/booking-moved.server.ts";
import { issueCreditNote, issueInvoice, type DocumentRow } from "../invoices/documents.server.ts";
import { reissueInvoice } from "./billing.server.ts";
import { invoiceIssuedEmail } from "./emails.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import { studentsOfOrder, type OrderRow } from "./records.server.ts";
import { transitionInTransaction } from "./state-machine.server.ts";

/**
 * Where a move's places and money go (decision 0038; moves.server.ts decides and records the
 * move): an order's money for a number of places at a price, on its own VAT terms; the places
 * that split off into an order of their own, with their students renumbered, and the money
 * received that moves with them (decision 0046); the moving students who leave the old date (each
 * gets its calendar cancellation); and the documents a move issues: an unsettled invoice credited
 * and re-issued, a paid order re-invoiced after a dearer date or credited after a cheaper one, a
 * split's invoices.
 */

type DateRow = typeof courseDates.$inferSelect;

export interface MoveRefund {
  cents: number;
  /** Owed back by bank transfer, by staff (else to the card through Stripe). */
  byHand: boolean;
  failed: boolean;
}

/** What a move did with the money: for the buyer's letter, the move's outcome and its audit. */
export interface MovedMoney {
  money: MoveMoney;
  /** The numbers of the documents issued. */
  documents: string[];
  /** The split-off places' own invoice, sent with the move's letters. */
  mails: OutgoingEmail[];
  refund: MoveRefund | null;
  /** The order refunded to its card, through Stripe once the move is committed. */
  refundFrom?: string;
  /** A credit note owed back by bank transfer: it rides on the letter that explains it. */
  creditNoteId: string | null;
  /** A paid order moved to a dearer date, or its places split off: what it owes now. */
  owedCents?: number;
}

/** Why money moved, and who moved it. */
export interface MoveContext {
  reason: string;
  actor: AuditActor;
  now: Date;
}

const noMoney = (): MovedMoney => ({
  money: { kind: "none" },
  documents: [],
  mails: [],
  refund: null,
  creditNoteId: null,
});

/**
 * What a paid order had received, in its ledger (decision 0046): a card order's checkout payment
 * is written there first (its PaymentIntent as the reference, so a refund made in Stripe's
 * dashboard is still matched), since the order is settled as an invoice from now on. The caller
 * makes the order paid by invoice in the same transaction.
 */
export async function cardPaymentIntoLedger(
  tx: Transaction,
  order: OrderRow,
  actor: AuditActor,
  now: Date,
): Promise<number> {
  if (order.paymentMethod !== "stripe" || order.totalAmountCents <= 0) {
    return order.receivedAmountCents;
  }
  const receivedOn = londonDate(order.paidAt ?? now);
  await tx.insert(orderPayments).values({
    orderId: order.id,
    amountCents: order.totalAmountCents,
    receivedOn,
    method: "card",
    reference: order.stripePaymentIntentId,
    actor: "system",
  });
  await recordOrderEvent(tx, order.id, "payment_received", actor.email, {
    amountCents: order.totalAmountCents,
    receivedOn,
    method: "card",
    reference: order.stripePaymentIntentId,
    reason: "The card payment at checkout, now counted against an invoice",
  });
  return order.totalAmountCents;
}

/**
 * Money that moves with places split off (decision 0046): out of `from` and into `to`, as a pair
 * of ledger rows dated today, each order's received amount changed to match, on both timelines.
 * Returns both orders as they are now, so the caller need not read them again.
 */
export async function moveMoneyWithPlaces(
  tx: Transaction,
  from: Pick<OrderRow, "id">,
  to: Pick<OrderRow, "id">,
  amountCents: number,
  actor: AuditActor,
  now: Date,
): Promise<{ from: OrderRow; to: OrderRow }> {
  const movedOn = londonDate(now);
  const rows = [
    { order: from, cents: -amountCents, reference: `To ${orderReference(to.id)}` },
    { order: to, cents: amountCents, reference: `From ${orderReference(from.id)}` },
  ];
  const updated: OrderRow[] = [];
  for (const { order, cents, reference } of rows) {
    await tx.insert(orderPayments).values({
      orderId: order.id,
      amountCents: cents,
      receivedOn: movedOn,
      method: "transfer",
      reference,
      actor: actor.email,
    });
    const [row] = await tx
      .update(orders)
      .set({ receivedAmountCents: sql`${orders.receivedAmountCents} + ${cents}`, updatedAt: now })
      .where(eq(orders.id, order.id))
      .returning();
    updated.push(row!);
    await recordOrderEvent(tx, order.id, "payment_moved", actor.email, {
      amountCents: cents,
      receivedOn: movedOn,
      method: "transfer",
      reference,
    });
  }
  return { from: updated[0]!, to: updated[1]! };
}

/** An order's money for `quantity` places at `unitPriceCents`, on its own VAT terms. */
export function amountsFor(order: OrderRow, unitPriceCents: number, quantity: number) {
  const amounts = lineAmounts(unitPriceCents * quantity, {
    rateBasisPoints: order.vatRateBasisPoints,
    pricesIncludeVat: order.pricesIncludeVat,
  });
  return {
    unitPriceCents,
    quantity,
    netAmountCents: amounts.netCents,
    vatAmountCents: amounts.vatCents,
    totalAmountCents: amounts.totalCents,
  };
}

/** The moving places' students booked on the old date (each gets that date's cancellation). */
export async function leavingAttendees(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
): Promise<DateAttendee[]> {
  const onDate = (await dateAttendees(tx, order.courseDateId!)).filter(
    (a) => a.orderId === order.id,
  );
  if (moving.length === order.quantity || order.isBuyerStudent) return onDate;
  const students = await tx
    .select({ position: orderStudents.position, email: orderStudents.email })
    .from(orderStudents)
    .where(eq(orderStudents.orderId, order.id));
  const emails = new Set(
    students
      .filter((s) => moving.includes(s.position + 1))
      .map((s) => s.email.trim().toLowerCase()),
  );
  const staying = new Set(
    students
      .filter((s) => !moving.includes(s.position + 1))
      .map((s) => s.email.trim().toLowerCase()),
  );
  // Someone holding a place that moves and one that stays keeps the old date in their calendar.
  return onDate.filter((a) => {
    const key = a.email.trim().toLowerCase();
    return emails.has(key) && !staying.has(key);
  });
}

/**
 * Some of an order's places split off into a new order on `to`: the same buyer, billing details,
 * payment method and status (unless `own` says otherwise), the moved places' students (numbered
 * from 1 again), their price on the new date, nothing received yet (money that moves with them
 * is moved after: moveMoneyWithPlaces). The order keeps the other places at its own price.
 */
export async function splitOff(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
  to: DateRow,
  unit: number,
  now: Date,
  own: Pick<Partial<typeof orders.$inferInsert>, "status" | "paymentMethod" | "paidAt"> = {},
): Promise<OrderRow> {
  const staying = order.quantity - moving.length;
  await tx
    .update(orders)
    .set({ ...amountsFor(order, order.unitPriceCents, staying), updatedAt: now })
    .where(eq(orders.id, order.id));
  const {
    id: _id,
    createdAt: _created,
    updatedAt: _updated,
    stripeCheckoutSessionId: _session,
    stripePaymentIntentId: _intent,
    paidAt: _paidAt,
    paidAfterCancellationAt: _late,
    refundedAmountCents: _refunded,
    ...kept
  } = order;
  const [created] = await tx
    .insert(orders)
    .values({
      ...kept,
      courseDateId: to.id,
      ...amountsFor(order, unit, moving.length),
      receivedAmountCents: 0,
      ...own,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordOrderEvent(tx, created!.id, "created", "system", {
    method: order.paymentMethod,
    splitFrom: order.id,
  });
  const students = await tx.select().from(orderStudents).where(eq(orderStudents.orderId, order.id));
  if (students.length > 0) {
    await tx.delete(orderStudents).where(eq(orderStudents.orderId, order.id));
    const renumber = (rows: typeof students, orderId: string, places: number[]) =>
      rows
        .filter((s) => places.includes(s.position + 1))
        .map((s) => ({
          orderId,
          position: places.indexOf(s.position + 1),
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
        }));
    const stayingPlaces = Array.from({ length: order.quantity }, (_, i) => i + 1).filter(
      (p) => !moving.includes(p),
    );
    const rows = [
      ...renumber(students, order.id, stayingPlaces),
      ...renumber(students, created!.id, moving),
    ];
    if (rows.length > 0) await tx.insert(orderStudents).values(rows);
  }
  return created!;
}

/**
 * A paid order moved to a dearer date (decision 0046), in the move's transaction: it becomes paid
 * by invoice (a card order's checkout payment written into the ledger first), since the
 * difference is collected as an invoice is; unless what it received already covers the new
 * total, it is invoiced again with `paid_at` cleared. Returns the order's columns that change.
 */
export async function owingAfterMove(
  tx: Transaction,
  order: OrderRow,
  unit: number,
  actor: AuditActor,
  now: Date,
): Promise<Partial<typeof orders.$inferInsert>> {
  const received = await cardPaymentIntoLedger(tx, order, actor, now);
  const total = amountsFor(order, unit, order.quantity).totalAmountCents;
  return {
    paymentMethod: "invoice",
    receivedAmountCents: received,
    ...(total > received ? { status: "invoiced" as const, paidAt: null } : {}),
  };
}

/**
 * The money of an order whose places all moved (`moved`, already on the new date at `unit`): a
 * paid order at a dearer price has its document credited and re-issued for what it owes now; an
 * unsettled invoice repriced is credited and re-issued; a paid order at a cheaper price is owed
 * the difference, by card through Stripe after the commit, else by a credit note that staff
 * refund by bank transfer.
 */
export async function moneyAfterMove(
  tx: Transaction,
  order: OrderRow,
  moved: OrderRow,
  invoice: DocumentRow | null,
  move: MoveContext & { unit: number; paidDearer: boolean; repriced: boolean },
): Promise<MovedMoney> {
  const { reason, actor, unit } = move;
  const out = noMoney();
  if (move.paidDearer && invoice) {
    const reissued = await reissueInvoice(tx, moved, invoice, actor, `Moved: ${reason}`);
    out.documents.push(reissued.creditNote, reissued.invoice);
    const owed = moved.totalAmountCents - moved.receivedAmountCents;
    if (moved.status === "invoiced") {
      out.owedCents = owed;
      await recordOrderEvent(tx, order.id, "invoiced", actor.email, {
        amountCents: owed,
        reason: `Moved to a date costing more: ${reissued.invoice} for the difference`,
      });
    }
    out.money = {
      kind: "owed",
      invoice: reissued.invoice,
      creditNote: reissued.creditNote,
      credited: reissued.replaced,
      owedCents: Math.max(0, owed),
    };
  } else if (move.repriced && invoice) {
    const reissued = await reissueInvoice(tx, moved, invoice, actor, `Moved: ${reason}`);
    out.documents.push(reissued.creditNote, reissued.invoice);
    out.money = { kind: "reissued", invoice: reissued.invoice, creditNote: reissued.creditNote };
  } else if (move.repriced) {
    out.money = { kind: "repriced", totalCents: moved.totalAmountCents };
  } else if (order.status === "paid" && unit < order.unitPriceCents) {
    const owed = order.totalAmountCents - amountsFor(order, unit, order.quantity).totalAmountCents;
    if (order.paymentMethod === "stripe") {
      // Stripe cannot share this transaction: refunded once the move is committed.
      out.refund = { cents: owed, byHand: false, failed: false };
      out.refundFrom = order.id;
      out.money = { kind: "card_refund", cents: owed };
    } else {
      const note = await issueCreditNote(tx, moved, {
        amountCents: owed,
        reason: `Moved to a date costing less: ${reason}`,
        actor: actor.email,
      });
      if (note) {
        out.creditNoteId = note.id;
        out.documents.push(note.number);
        out.refund = { cents: note.totalAmountCents, byHand: true, failed: false };
        out.money = { kind: "bank_refund", cents: note.totalAmountCents, creditNote: note.number };
      }
    }
  }
  return out;
}

/** Places split off with their money: the new order, and what moved into it and what it owes. */
export interface SplitWithMoney {
  order: OrderRow;
  movedCents: number;
  costCents: number;
  owedCents?: number;
}

/**
 * Places split off (splitOff) taking their money with them (decision 0046): money received beyond
 * what the staying places cost moves to the new order, up to what its places cost. A paid order
 * is settled as an invoice from now on, so its money can be split: both orders become paid by
 * invoice, the new one paid when what moved covers its places, else invoiced for the rest.
 */
export async function splitOffWithMoney(
  tx: Transaction,
  order: OrderRow,
  moving: number[],
  to: DateRow,
  move: Omit<MoveContext, "reason"> & { unit: number; paid: boolean },
): Promise<SplitWithMoney> {
  const { unit, paid, actor, now } = move;
  const received = paid
    ? await cardPaymentIntoLedger(tx, order, actor, now)
    : order.receivedAmountCents;
  const cost = amountsFor(order, unit, moving.length).totalAmountCents;
  const staying = amountsFor(order, order.unitPriceCents, order.quantity - moving.length);
  const moved = Math.max(0, Math.min(received - staying.totalAmountCents, cost));
  const settled = paid && moved >= cost;
  const own = settled ? { paidAt: order.paidAt } : { status: "invoiced" as const };
  const settling = paid ? { paymentMethod: "invoice" as const, ...own } : {};
  const created = await splitOff(tx, order, moving, to, unit, now, settling);
  if (paid) {
    await tx
      .update(orders)
      .set({ paymentMethod: "invoice", receivedAmountCents: received })
      .where(eq(orders.id, order.id));
  }
  return {
    order:
      moved > 0 ? (await moveMoneyWithPlaces(tx, order, created, moved, actor, now)).to : created,
    movedCents: moved,
    costCents: cost,
    ...(paid && !settled ? { owedCents: cost - moved } : {}),
  };
}

/**
 * The documents of a split (decision 0046): the old invoice credited and re-issued for the places
 * that stay, the moved places invoiced on their own order (and e-mailed), and an invoiced order
 * whose money now covers the places it kept made paid. Without an invoice, only a new price is
 * told.
 */
export async function moneyAfterSplit(
  tx: Transaction,
  order: OrderRow,
  split: SplitWithMoney,
  invoice: DocumentRow | null,
  to: DateRow,
  move: MoveContext & { unit: number },
): Promise<MovedMoney> {
  const { reason, actor, now } = move;
  const created = split.order;
  const moved = split.movedCents;
  const out = noMoney();
  if (split.owedCents !== undefined) out.owedCents = split.owedCents;
  if (invoice) {
    const [kept] = await tx.select().from(orders).where(eq(orders.id, order.id));
    const reissued = await reissueInvoice(tx, kept!, invoice, actor, `Places moved: ${reason}`);
    const students = await studentsOfOrder(tx, created.id);
    const own = await issueInvoice(tx, created, students, {
      kind: "invoice",
      actor: actor.email,
      now,
    });
    out.documents.push(reissued.creditNote, reissued.invoice, own.number);
    out.mails.push(invoiceIssuedEmail(created, students, own, to));
    out.money = {
      kind: "invoiced",
      invoice: own.number,
      ...(moved > 0 ? { paidCents: moved, owedCents: split.costCents - moved } : {}),
    };
    // What an invoiced order received may now cover the places it kept: paid.
    if (kept!.status === "invoiced" && kept!.receivedAmountCents >= kept!.totalAmountCents) {
      await transitionInTransaction(tx, kept!.id, "paid", {
        source: "admin",
        admin: actor,
        paidAt: now,
      });
    }
  } else if (move.unit !== order.unitPriceCents) {
    out.money = { kind: "repriced", totalCents: created.totalAmountCents };
  }
  return out;
}
