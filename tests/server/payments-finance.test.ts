import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import {
  ALL_ORDERS,
  isPastDue,
  orderFiltersQuery,
  parseOrderFilters,
  type OrderFilters,
} from "#app/lib/orders/order-filters.ts";
import { db } from "#server/db/client.server.ts";
import { orders } from "#server/db/schema.ts";
import { issueCreditNote, issueInvoice } from "#server/invoices/documents.server.ts";
import { listOrders, orderFilterCondition } from "#server/orders/admin.server.ts";
import { ORDER_CSV_HEADER, ordersCsvResponse } from "#server/orders/csv.server.ts";
import type { OrderRow } from "#server/orders/records.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { placeOrder } from "#tests/support/invoices.ts";

/**
 * The Payments screen for finance, on a real database (PGlite, and PostgreSQL when DATABASE_URL
 * is set): a date range on the date placed, invoiced or paid, in London days at their edges;
 * the Overdue filter from the invoice in force's due date; the CSV's finance columns.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

const filters = (values: Partial<OrderFilters>): OrderFilters => ({
  ...ALL_ORDERS,
  page: 1,
  ...values,
});

const emailsOf = async (values: Partial<OrderFilters>, now?: Date) => {
  const where = orderFilterCondition(filters(values), now);
  const rows = await db().select({ email: orders.buyerEmail }).from(orders).where(where);
  return rows.map((r) => r.email).sort();
};

async function setDates(order: OrderRow, values: { createdAt?: string; paidAt?: string }) {
  await db()
    .update(orders)
    .set({
      ...(values.createdAt ? { createdAt: new Date(values.createdAt) } : {}),
      ...(values.paidAt ? { paidAt: new Date(values.paidAt), status: "paid" as const } : {}),
    })
    .where(eq(orders.id, order.id));
}

async function invoiceAt(order: OrderRow, at: string) {
  await db().transaction((tx) =>
    issueInvoice(tx, order, [], { kind: "invoice", actor: "system", now: new Date(at) }),
  );
  await db().update(orders).set({ status: "invoiced" }).where(eq(orders.id, order.id));
}

describe("the Payments screen for finance", () => {
  it("a date range is London days, both included, on the date placed, invoiced or paid", async () => {
    const a = await placeOrder({ email: "a@example.com" });
    const b = await placeOrder({ email: "b@example.com" });
    const c = await placeOrder({ email: "c@example.com" });
    // Placed 00:30 BST on 1 October (30 September in UTC); 23:59 GMT on 31 October; 1 November.
    await setDates(a, { createdAt: "2026-09-30T23:30:00Z" });
    await setDates(b, { createdAt: "2026-10-31T23:59:00Z" });
    await setDates(c, { createdAt: "2026-11-01T00:00:00Z" });
    const october = { from: "2026-10-01", to: "2026-10-31" };
    expect(await emailsOf(october)).toEqual(["a@example.com", "b@example.com"]);
    expect(await emailsOf({ from: "2026-11-01" })).toEqual(["c@example.com"]);
    expect(await emailsOf({ to: "2026-09-30" })).toEqual([]);

    // Invoiced: the first invoice's issue, whatever the order's own dates.
    await invoiceAt(c, "2026-10-15T09:00:00Z");
    expect(await emailsOf({ ...october, dates: "invoiced" })).toEqual(["c@example.com"]);
    // Paid: when it was paid.
    await setDates(a, { paidAt: "2026-11-20T10:00:00Z" });
    expect(await emailsOf({ ...october, dates: "paid" })).toEqual([]);
    expect(await emailsOf({ from: "2026-11-20", to: "2026-11-20", dates: "paid" })).toEqual([
      "a@example.com",
    ]);

    // The screen's list reads the same condition, and counts it.
    const listed = await listOrders(filters({ ...october, search: "example.com" }));
    expect(listed.total).toBe(2);
  });

  it("Overdue: invoiced orders whose invoice in force was due before today (UK day)", async () => {
    const due = await placeOrder({ email: "due@example.com" });
    const fresh = await placeOrder({ email: "fresh@example.com" });
    const paid = await placeOrder({ email: "paid@example.com" });
    // 30 days' terms: issued 1 October 12:00 UTC, due 31 October.
    await invoiceAt(due, "2026-10-01T12:00:00Z");
    await invoiceAt(fresh, "2026-11-01T12:00:00Z");
    await invoiceAt(paid, "2026-10-01T12:00:00Z");
    await setDates(paid, { paidAt: "2026-10-20T12:00:00Z" });
    // On its due day it is not overdue yet; the next UK day it is.
    expect(await emailsOf({ status: "overdue" }, new Date("2026-10-31T22:00:00Z"))).toEqual([]);
    expect(await emailsOf({ status: "overdue" }, new Date("2026-11-01T00:10:00Z"))).toEqual([
      "due@example.com",
    ]);
    expect(isPastDue("2026-10-31T12:00:00Z", new Date("2026-10-31T23:59:00Z"))).toBe(false);
    expect(isPastDue("2026-10-31T12:00:00Z", new Date("2026-11-01T00:00:00Z"))).toBe(true);

    // A cancelled order's credited invoice is not owed.
    const [dueRow] = await db().select().from(orders).where(eq(orders.id, due.id));
    await db().transaction((tx) =>
      issueCreditNote(tx, dueRow!, { reason: "Cancelled", actor: "system" }),
    );
    await db().update(orders).set({ status: "canceled" }).where(eq(orders.id, due.id));
    expect(await emailsOf({ status: "overdue" }, new Date("2026-11-02T12:00:00Z"))).toEqual([]);
  });

  it("the CSV carries net, VAT, the paid day, the documents, the PO and the billing address", async () => {
    const order = await placeOrder({ email: "csv@example.com" });
    await invoiceAt(order, "2026-10-01T12:00:00Z");
    await setDates(order, { paidAt: "2026-10-31T23:30:00Z" });
    const text = await ordersCsvResponse(filters({ search: "csv@example.com" }), "o.csv").text();
    const [header, row] = parse(text, { bom: true }) as string[][];
    expect(header).toEqual([...ORDER_CSV_HEADER]);
    const cell = (name: (typeof ORDER_CSV_HEADER)[number]) => row![header!.indexOf(name)];
    const [stored] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(cell("Net (GBP)")).toBe((stored!.netAmountCents / 100).toFixed(2));
    expect(cell("VAT (GBP)")).toBe((stored!.vatAmountCents / 100).toFixed(2));
    expect(Number(cell("Net (GBP)")) + Number(cell("VAT (GBP)"))).toBeCloseTo(
      Number(cell("Total (GBP)")),
      2,
    );
    expect(cell("Paid (UK date)")).toBe("2026-10-31");
    expect(cell("Invoice or receipt")).toMatch(/^INV-2026-\d{4}$/);
    expect(cell("Due date")).toBe("2026-10-31");
    expect(cell("PO number")).toBe("PO-77812");
    expect(cell("Billing organisation")).toBe("Analytical Engines Ltd");
    expect(cell("Billing address")).toBe(
      "2 Babbage Row, Floor 3, Cambridge, CB2 1TN, United Kingdom",
    );
    expect(cell("Buyer VAT number")).toBe("GB987654321");
  });

  it("the range and filters from the URL, and back", () => {
    const read = parseOrderFilters(
      new URLSearchParams("status=overdue&dates=paid&from=01/10/2026&to=2026-10-31"),
    );
    expect(read).toMatchObject({
      status: "overdue",
      dates: "paid",
      from: "2026-10-01",
      to: "2026-10-31",
    });
    expect(orderFiltersQuery(read)).toBe(
      "?status=overdue&dates=paid&from=2026-10-01&to=2026-10-31",
    );
    // The date a range applies to is left out without a range; nonsense is no filter.
    expect(orderFiltersQuery(parseOrderFilters(new URLSearchParams("dates=paid")))).toBe("");
    expect(
      parseOrderFilters(new URLSearchParams("dates=x&from=31/02/2026&status=owed")),
    ).toMatchObject({ dates: "created", from: "", status: null });
  });
});
