import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  DEBT_BUCKETS,
  debtBucket,
  type Debt,
  type DebtBucket,
  type DebtorsScreen,
} from "#app/lib/orders/debtors.ts";
import { orderDocumentHref, orderReference } from "#app/lib/orders/orders.ts";
import { daysOverdue } from "#app/lib/orders/order-filters.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { invoiceReminders, orderDocuments, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { invoiceReminderEmail } from "../orders/emails.server.ts";
import { recordOrderEvent } from "../orders/events.server.ts";
import { studentsOfOrder, type OrderRow } from "../orders/records.server.ts";
import { inForce, type DocumentRow } from "./documents.server.ts";
import { type DocumentSnapshot } from "./snapshot.server.ts";

/**
 * Who owes what (docs/decisions/0040-who-owes-what.md): the invoiced orders not yet paid, each
 * with its invoice in force (the one no correction replaced) less what credit notes took off it,
 * aged by UK days since it was due; and the reminders to their buyers on the days after the due
 * date that INVOICE_REMINDER_DAYS names, each claimed in `invoice_reminders` in the transaction
 * that queues it, so it goes once. A paid or cancelled order is no longer invoiced: it is never
 * listed or reminded.
 */

/**
 * The reminder due for an invoice `overdue` days past its due date: the latest of `days` it has
 * reached. One claim per number, so each is sent once; one missed while nothing ran is not sent
 * late once a later one is due.
 */
export function dueInvoiceReminder(overdue: number, days: readonly number[]): number | null {
  const reached = days.filter((d) => d <= overdue);
  return reached.length ? Math.max(...reached) : null;
}

const credited = sql<string>`coalesce((select sum(c.total_amount_cents) from ${orderDocuments} c where c.credits_document_id = ${orderDocuments.id}), 0)::bigint`;

interface OpenInvoice {
  order: OrderRow;
  invoice: DocumentRow;
  owedCents: number;
}

/** The invoiced orders (`orderId`: one of them) with their invoice in force and what it owes. */
async function openInvoices(orderId?: string): Promise<OpenInvoice[]> {
  const rows = await db()
    .select({ order: orders, invoice: orderDocuments, credited })
    .from(orders)
    .innerJoin(
      orderDocuments,
      and(eq(orderDocuments.orderId, orders.id), eq(orderDocuments.kind, "invoice"), inForce()),
    )
    .where(and(eq(orders.status, "invoiced"), orderId ? eq(orders.id, orderId) : undefined))
    .orderBy(asc(orderDocuments.issuedAt));
  return rows.map((r) => ({
    order: r.order,
    invoice: r.invoice,
    owedCents: owedOn(r.invoice, r.credited, r.order),
  }));
}

/**
 * What an invoice still asks for: its total, less what credit notes took off it and what the
 * buyer has paid towards it so far (decision 0042).
 */
function owedOn(
  invoice: DocumentRow,
  credited: string | number,
  order: Pick<OrderRow, "receivedAmountCents">,
): number {
  return invoice.totalAmountCents - Number(credited) - order.receivedAmountCents;
}

function dueDateOf(invoice: DocumentRow): string {
  return (invoice.snapshot as DocumentSnapshot).dueDate ?? invoice.issuedAt.toISOString();
}

/** The Debtors screen: every unpaid invoice, most overdue first, and the sums by age. */
export async function debtorsScreen(now: Date = new Date()): Promise<DebtorsScreen> {
  const open = await openInvoices();
  const sent = open.length
    ? await db()
        .select()
        .from(invoiceReminders)
        .where(
          inArray(
            invoiceReminders.invoiceId,
            open.map((o) => o.invoice.id),
          ),
        )
        .orderBy(asc(invoiceReminders.daysAfterDue))
    : [];
  const items: Debt[] = open.map(({ order, invoice, owedCents }) => {
    const snapshot = invoice.snapshot as DocumentSnapshot;
    const dueDate = dueDateOf(invoice);
    const overdue = daysOverdue(dueDate, now);
    return {
      orderId: order.id,
      orderReference: orderReference(order.id),
      customer: snapshot.customer.name,
      organisation: snapshot.customer.organisation,
      email: order.buyerEmail,
      invoiceNumber: invoice.number,
      invoiceHref: orderDocumentHref(order.id, invoice.id),
      issuedAt: invoice.issuedAt.toISOString(),
      dueDate,
      daysOverdue: overdue,
      bucket: debtBucket(overdue),
      owedCents,
      reminders: sent
        .filter((r) => r.invoiceId === invoice.id)
        .map((r) => ({ daysAfterDue: r.daysAfterDue, sentAt: r.sentAt.toISOString() })),
      pausedAt: order.invoiceRemindersPausedAt?.toISOString() ?? null,
    };
  });
  items.sort(
    (a, b) => b.daysOverdue - a.daysOverdue || a.invoiceNumber.localeCompare(b.invoiceNumber),
  );
  const buckets = Object.fromEntries(
    DEBT_BUCKETS.map((bucket) => [bucket, { count: 0, owedCents: 0 }]),
  ) as Record<DebtBucket, { count: number; owedCents: number }>;
  for (const item of items) {
    buckets[item.bucket].count += 1;
    buckets[item.bucket].owedCents += item.owedCents;
  }
  return {
    items,
    buckets,
    total: {
      count: items.length,
      owedCents: items.reduce((sum, item) => sum + item.owedCents, 0),
    },
    reminderDays: [...config.invoiceReminderDays],
  };
}

/**
 * Sends the reminders due at `now` (run by the hourly housekeeping pass): for each invoiced,
 * unpaused order, the one reminder its invoice has reached. Returns how many were queued.
 */
export async function sendInvoiceReminders(
  now: Date = new Date(),
  days: readonly number[] = config.invoiceReminderDays,
): Promise<number> {
  if (days.length === 0) return 0;
  let queued = 0;
  for (const { order, invoice, owedCents } of await openInvoices()) {
    if (order.invoiceRemindersPausedAt || owedCents <= 0) continue;
    const n = dueInvoiceReminder(daysOverdue(dueDateOf(invoice), now), days);
    if (n === null) continue;
    queued += await remindInvoice(order.id, invoice.id, n, now, days);
  }
  if (queued > 0) nudgeOutbox();
  return queued;
}

/**
 * One reminder, in one transaction: the order read again under its row lock (a payment or a
 * cancellation waits, or has committed), then the claim, and only a claim won queues the e-mail
 * with the invoice attached and puts it on the order's timeline.
 */
async function remindInvoice(
  orderId: string,
  invoiceId: string,
  daysAfterDue: number,
  now: Date,
  days: readonly number[],
): Promise<number> {
  return db().transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (
      !order ||
      order.status !== "invoiced" ||
      order.invoiceRemindersPausedAt ||
      order.spamReason ||
      order.anonymisedAt
    ) {
      return 0;
    }
    const [open] = await tx
      .select({ invoice: orderDocuments, credited })
      .from(orderDocuments)
      .where(and(eq(orderDocuments.id, invoiceId), inForce()));
    if (!open) return 0;
    const overdue = daysOverdue(dueDateOf(open.invoice), now);
    if (dueInvoiceReminder(overdue, days) !== daysAfterDue) return 0;
    // Nothing left to ask for (paid in full, the order not yet moved on): no reminder.
    if (owedOn(open.invoice, open.credited, order) <= 0) return 0;
    const claimed = await tx
      .insert(invoiceReminders)
      .values({ invoiceId, daysAfterDue, sentAt: now })
      .onConflictDoNothing()
      .returning({ invoiceId: invoiceReminders.invoiceId });
    if (claimed.length === 0) return 0;
    const owedCents = owedOn(open.invoice, open.credited, order);
    const students = await studentsOfOrder(tx, order.id);
    const date = await bookedDateOf(tx, order.courseDateId);
    await queueEmails(tx, [
      invoiceReminderEmail(
        order,
        students,
        open.invoice,
        { owedCents, daysOverdue: overdue },
        date,
      ),
    ]);
    await recordOrderEvent(tx, order.id, "invoice_reminder", "system", {
      number: open.invoice.number,
      daysAfterDue,
    });
    return 1;
  });
}

export type PauseResult = { ok: true; paused: boolean } | { ok: false; reason: "not_owed" };

/**
 * Staff pause (or resume) the reminders of one invoiced order: on its timeline and in the audit
 * log. Refused for an order that no longer owes its invoice.
 */
export async function setInvoiceRemindersPaused(
  orderId: string,
  paused: boolean,
  admin: AuditActor,
): Promise<PauseResult> {
  if (!isUuid(orderId)) return { ok: false, reason: "not_owed" };
  return db().transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ invoiceRemindersPausedAt: paused ? sql`now()` : null, updatedAt: sql`now()` })
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.status, "invoiced"),
          paused ? isNull(orders.invoiceRemindersPausedAt) : undefined,
        ),
      )
      .returning();
    if (!order) {
      const [still] = await tx
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, orderId));
      // Paused already: the same answer as pausing it now.
      return still?.status === "invoiced"
        ? { ok: true, paused }
        : { ok: false, reason: "not_owed" };
    }
    await recordOrderEvent(
      tx,
      order.id,
      paused ? "reminders_paused" : "reminders_resumed",
      admin.email,
    );
    await recordAudit(tx, admin, {
      action: "order.reminders",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      before: { remindersPaused: !paused },
      after: { remindersPaused: paused },
    });
    return { ok: true, paused };
  });
}
