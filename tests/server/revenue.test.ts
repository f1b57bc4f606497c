import { describe, expect, it, vi } from "vitest";
import { orderListStatus, type OrderListStatus } from "#app/lib/orders/orders.ts";
import { ALL_ORDERS } from "#app/lib/orders/order-filters.ts";
import { listOrders, orderStats } from "#server/orders/admin.server.ts";
import { ORDER_CSV_HEADER, orderCsvRows } from "#server/orders/csv.server.ts";
import { monthRevenue } from "#server/orders/dashboard.server.ts";
import { refundOrder } from "#server/payments/refunds.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { ADMIN, insertCourse, orderRow } from "#tests/support/orders.ts";
import { nonce, useFakeStripeForRefunds } from "#tests/support/refunds.ts";

/**
 * One revenue (server/orders/revenue.server.ts): after a partial and a full refund, Payments, the
 * Dashboard and the CSV agree — paid, less refunds, VAT included — and refunded orders read and
 * filter as 'Partly refunded' and 'Refunded', never 'Paid'.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
const { paidCardOrder } = useFakeStripeForRefunds(fake);
useFreshDatabase();

async function refund(orderId: string, amountCents: number) {
  const result = await refundOrder(
    orderId,
    { amountCents, reason: "requested_by_customer", nonce: nonce() },
    ADMIN,
  );
  if (!result.ok) throw new Error(result.message);
}

async function csv() {
  const rows: string[][] = [];
  for await (const batch of orderCsvRows({
    ...ALL_ORDERS,
    search: "",
    status: null,
    method: null,
  })) {
    rows.push(...batch.map((row) => row.map((value) => String(value ?? ""))));
  }
  const column = (name: (typeof ORDER_CSV_HEADER)[number]) => ORDER_CSV_HEADER.indexOf(name);
  return rows.map((row) => ({
    id: row[column("Order ID")]!,
    status: row[column("Status")]!,
    totalPence: Math.round(Number(row[column("Total (GBP)")]) * 100),
    refundedPence: Math.round(Number(row[column("Refunded (GBP)")]) * 100),
  }));
}

describe("one revenue", () => {
  it("is the same on Payments, the Dashboard and the CSV after a partial and a full refund", async () => {
    const course = await insertCourse({ price: "120.00" });
    const kept = (await paidCardOrder(course)).order;
    const partly = (await paidCardOrder(course)).order;
    const wholly = (await paidCardOrder(course)).order;
    await refund(partly.id, 4_000);
    await refund(wholly.id, wholly.totalAmountCents);

    const total = kept.totalAmountCents + partly.totalAmountCents + wholly.totalAmountCents;
    const refunded = 4_000 + wholly.totalAmountCents;
    const stats = await orderStats();
    expect(stats.revenue).toMatchObject({
      paidCents: total,
      refundedCents: refunded,
      revenueCents: total - refunded,
      orderCount: 3,
    });
    // Without VAT: each order's net less the net share of its refunds.
    const net = (order: typeof kept, refundedCents: number) =>
      order.netAmountCents -
      Math.round((order.netAmountCents * refundedCents) / order.totalAmountCents);
    expect(stats.revenue.revenueExVatCents).toBe(
      net(kept, 0) + net(partly, 4_000) + net(wholly, wholly.totalAmountCents),
    );
    expect(await monthRevenue()).toMatchObject(stats.revenue);

    const rows = await csv();
    const csvRevenue = rows
      .filter((r) => r.status !== "Canceled")
      .reduce((sum, r) => sum + r.totalPence - r.refundedPence, 0);
    expect(csvRevenue).toBe(stats.revenue.revenueCents);
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.refundedPence]]))).toEqual({
      [kept.id]: ["Paid", 0],
      [partly.id]: ["Partly refunded", 4_000],
      [wholly.id]: ["Refunded", wholly.totalAmountCents],
    });

    expect(stats).toMatchObject({ paid: 1, refunded: 2 });
    const filtered = async (status: OrderListStatus) =>
      (await listOrders({ ...ALL_ORDERS, search: "", status, method: null, page: 1 })).items.map(
        (o) => o.id,
      );
    expect(await filtered("paid")).toEqual([kept.id]);
    expect(await filtered("partly_refunded")).toEqual([partly.id]);
    expect(await filtered("refunded")).toEqual([wholly.id]);
    const listed = (
      await listOrders({ ...ALL_ORDERS, search: "", status: null, method: null, page: 1 })
    ).items;
    expect(Object.fromEntries(listed.map((o) => [o.id, o.listStatus]))).toEqual({
      [kept.id]: "paid",
      [partly.id]: "partly_refunded",
      [wholly.id]: "refunded",
    });
    expect(orderListStatus(await orderRow(wholly.id))).toBe("refunded");
  });
});
