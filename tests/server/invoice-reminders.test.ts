import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { debtBucket } from "#app/lib/orders/debtors.ts";
import { daysOverdue } from "#app/lib/orders/order-filters.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, invoiceReminders, orderEvents, orders } from "#server/db/schema.ts";
import {
  issueCreditNote,
  issueInvoice,
  type DocumentRow,
} from "#server/invoices/documents.server.ts";
import {
  debtorsScreen,
  dueInvoiceReminder,
  sendInvoiceReminders,
  setInvoiceRemindersPaused,
} from "#server/invoices/debtors.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import type { OrderRow } from "#server/orders/records.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { placeOrder } from "#tests/support/invoices.ts";
import { ADMIN } from "#tests/support/orders.ts";

/**
 * Who owes what, on a real database (PGlite, and PostgreSQL when DATABASE_URL is set): unpaid
 * invoices aged in UK days at the buckets' edges, what credit notes take off, and the reminders
 * on the due date and 14 days after — each once, even when two passes run at once, never while
 * paused, never after payment or cancellation, the invoice attached. The seller is VAT-registered.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

const DAYS = [0, 14];

/** An invoiced order whose invoice was issued at `at` (30 days' terms). */
async function invoicedAt(at: string, email = "ada@example.com") {
  const order = await placeOrder({ email });
  const invoice = (await db().transaction((tx) =>
    issueInvoice(tx, order, [], { kind: "invoice", actor: "system", now: new Date(at) }),
  )) as DocumentRow;
  const [row] = await db()
    .update(orders)
    .set({ status: "invoiced" })
    .where(eq(orders.id, order.id))
    .returning();
  return { order: row as OrderRow, invoice };
}

const remindersOf = (orderId: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, "invoice_reminder")));

describe("ageing in UK days", () => {
  it("counts days from the due date's UK day, and buckets them at their edges", () => {
    const due = "2026-10-31T12:00:00Z";
    expect(daysOverdue(due, new Date("2026-10-30T23:30:00Z"))).toBe(-1);
    expect(daysOverdue(due, new Date("2026-10-31T23:59:00Z"))).toBe(0);
    expect(daysOverdue(due, new Date("2026-11-01T00:00:00Z"))).toBe(1);
    // Across the clocks going forward: 29 March 2027 is still one UK day after the 28th.
    expect(daysOverdue("2027-03-28T00:30:00Z", new Date("2027-03-28T23:30:00Z"))).toBe(1);
    expect([0, 1, 30, 31, 60, 61, 90, 91].map(debtBucket)).toEqual([
      "not_due",
      "days_1_30",
      "days_1_30",
      "days_31_60",
      "days_31_60",
      "days_61_90",
      "days_61_90",
      "over_90",
    ]);
    expect(dueInvoiceReminder(-1, DAYS)).toBeNull();
    expect(dueInvoiceReminder(0, DAYS)).toBe(0);
    expect(dueInvoiceReminder(13, DAYS)).toBe(0);
    expect(dueInvoiceReminder(40, DAYS)).toBe(14);
    expect(dueInvoiceReminder(40, [])).toBeNull();
  });
});

describe("who owes what", () => {
  it("lists invoiced orders by age with what they owe after credits, most overdue first", async () => {
    const now = new Date("2027-01-31T12:00:00Z");
    // Due 30 days after issue: 31, 61 and 91 days overdue on 31 January 2027, and one not due.
    const a = await invoicedAt("2026-10-02T12:00:00Z", "a@example.com");
    const b = await invoicedAt("2026-11-01T12:00:00Z", "b@example.com");
    const c = await invoicedAt("2026-12-01T12:00:00Z", "c@example.com");
    const d = await invoicedAt("2027-01-15T12:00:00Z", "d@example.com");
    await db().transaction((tx) =>
      issueCreditNote(tx, c.order, { amountCents: 10_000, reason: "Moved", actor: "system" }),
    );
    const paid = await invoicedAt("2026-10-02T12:00:00Z", "paid@example.com");
    await changeOrderStatusByAdmin(paid.order.id, "paid", ADMIN);

    const screen = await debtorsScreen(now);
    expect(screen.items.map((i) => [i.email, i.daysOverdue, i.bucket])).toEqual([
      ["a@example.com", 91, "over_90"],
      ["b@example.com", 61, "days_61_90"],
      ["c@example.com", 31, "days_31_60"],
      ["d@example.com", -14, "not_due"],
    ]);
    expect(screen.items.find((i) => i.email === "c@example.com")!.owedCents).toBe(
      c.invoice.totalAmountCents - 10_000,
    );
    const owed = [a, b, d].reduce((sum, x) => sum + x.invoice.totalAmountCents, 0);
    expect(screen.total).toEqual({
      count: 4,
      owedCents: owed + c.invoice.totalAmountCents - 10_000,
    });
    expect(screen.buckets.days_1_30).toEqual({ count: 0, owedCents: 0 });
    expect(screen.buckets.over_90.owedCents).toBe(a.invoice.totalAmountCents);
    expect(Object.values(screen.buckets).reduce((sum, bucket) => sum + bucket.owedCents, 0)).toBe(
      screen.total.owedCents,
    );
  });
});

describe("reminders of unpaid invoices", () => {
  it("on the due date and 14 days after, each once, with the invoice attached", async () => {
    const { order, invoice } = await invoicedAt("2026-10-01T12:00:00Z");
    expect(await sendInvoiceReminders(new Date("2026-10-30T12:00:00Z"), DAYS)).toBe(0);
    // Two passes at once on the due date: one reminder.
    const due = new Date("2026-10-31T09:00:00Z");
    const [x, y] = await Promise.all([
      sendInvoiceReminders(due, DAYS),
      sendInvoiceReminders(due, DAYS),
    ]);
    expect(x + y).toBe(1);
    expect(await sendInvoiceReminders(new Date("2026-11-05T09:00:00Z"), DAYS)).toBe(0);
    const [first] = await remindersOf(order.id);
    expect(first).toMatchObject({
      toAddress: "ada@example.com",
      documentId: invoice.id,
      subject: expect.stringContaining(`invoice ${invoice.number}`),
    });
    expect(first!.subject).toContain("is due today");
    expect(first!.text).toContain("How to pay");

    expect(await sendInvoiceReminders(new Date("2026-11-14T09:00:00Z"), DAYS)).toBe(1);
    expect(await sendInvoiceReminders(new Date("2026-11-30T09:00:00Z"), DAYS)).toBe(0);
    const all = await remindersOf(order.id);
    expect(all).toHaveLength(2);
    const overdue = all.find((m) => m.id !== first!.id)!;
    expect(overdue.subject).toMatch(/^Overdue: invoice/);
    expect(overdue.text).toContain("14 days ago");
    const claims = await db()
      .select()
      .from(invoiceReminders)
      .where(eq(invoiceReminders.invoiceId, invoice.id));
    expect(claims.map((c) => c.daysAfterDue).sort()).toEqual([0, 14]);
    const events = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "invoice_reminder")));
    expect(events).toHaveLength(2);
  });

  it("never while paused (audited), never after payment or cancellation", async () => {
    const paused = await invoicedAt("2026-10-01T12:00:00Z", "paused@example.com");
    const paid = await invoicedAt("2026-10-01T12:00:00Z", "paid@example.com");
    const cancelled = await invoicedAt("2026-10-01T12:00:00Z", "cancelled@example.com");
    expect(await setInvoiceRemindersPaused(paused.order.id, true, ADMIN)).toEqual({
      ok: true,
      paused: true,
    });
    await changeOrderStatusByAdmin(paid.order.id, "paid", ADMIN);
    await changeOrderStatusByAdmin(cancelled.order.id, "canceled", ADMIN, { reason: "Withdrawn" });
    expect(await sendInvoiceReminders(new Date("2026-10-31T09:00:00Z"), DAYS)).toBe(0);
    expect(await setInvoiceRemindersPaused(paid.order.id, true, ADMIN)).toEqual({
      ok: false,
      reason: "not_owed",
    });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "order.reminders"), eq(auditLog.subjectId, paused.order.id)));
    expect(audit).toMatchObject({ after: { remindersPaused: true } });

    // Resumed: the reminder due now goes.
    await setInvoiceRemindersPaused(paused.order.id, false, ADMIN);
    expect(await sendInvoiceReminders(new Date("2026-11-01T09:00:00Z"), DAYS)).toBe(1);
    expect(await remindersOf(paused.order.id)).toHaveLength(1);
    expect(await remindersOf(paid.order.id)).toHaveLength(0);
    expect(await remindersOf(cancelled.order.id)).toHaveLength(0);
  });
});
