import { ALL_ORDERS } from "#app/lib/orders/order-filters.ts";
import { afterAll, describe, expect, it, vi } from "vitest";
import { changeOrderStatusByAdmin, listOrders, orderStats } from "#server/orders/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { orderCsvRows, ordersCsvResponse } from "#server/orders/csv.server.ts";
import { transitionOrder } from "#server/orders/state-machine.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { BILLING } from "#tests/support/checkout.ts";
import { ADMIN, BUYER as buyer, insertCourse, students } from "#tests/support/orders.ts";

/**
 * The admin Payments screen's queries (stat cards, search, filters, paging, transitions, CSV
 * export), on orders placed through the checkout with a fake Stripe API on loopback, set here
 * before the server modules (and their configuration) are imported.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);

afterAll(() => fake.close());

useFreshDatabase();

/** The payments list's first page for a search, unfiltered by status or method. */
const search = (text: string) =>
  listOrders({ ...ALL_ORDERS, search: text, status: null, method: null, page: 1 });

describe("the admin Payments screen's queries", () => {
  async function seedOrders() {
    const course = await insertCourse({ price: "100.00" });
    const make = async (
      first: string,
      method: "stripe" | "invoice",
      quantity: number,
      company = `${first} Ltd`,
    ) => {
      const created = await createOrder({
        courseId: course.id,
        paymentMethod: method,
        values: {
          buyer: {
            ...buyer,
            firstName: first,
            email: `${first.toLowerCase()}@example.com`,
            company,
          },
          billing: BILLING,
          termsAccepted: true,
          studentMode: quantity === 1 ? "self" : "others",
          quantity,
          students: students(quantity),
        },
      });
      if (!created.ok) throw new Error("no order");
      return created.order;
    };
    const a = await make("Alice", "invoice", 2, "Acme 100% Ltd");
    const b = await make("Bob", "invoice", 1);
    const c = await make("Carol", "stripe", 3);
    await make("Dan", "stripe", 1);
    await changeOrderStatusByAdmin(a.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(a.id, "paid", ADMIN);
    await changeOrderStatusByAdmin(b.id, "invoiced", ADMIN);
    await transitionOrder(c.id, "paid", { source: "success_page" });
    return { a, b, c };
  }

  it("stat cards come from one aggregate: revenue is the sum of paid totals", async () => {
    await seedOrders();
    expect(await orderStats()).toEqual({
      total: 4,
      pending: 1,
      invoiced: 1,
      paid: 2,
      refunded: 0,
      failed: 0,
      canceled: 0,
      revenue: expect.objectContaining({
        paidCents: 20000 + 30000,
        refundedCents: 0,
        revenueCents: 20000 + 30000,
      }),
    });
  });

  it("search, filters and paging happen in the database", async () => {
    const { a } = await seedOrders();
    const all = await search("");
    expect(all.total).toBe(4);
    expect(all.items.map((o) => o.buyerFirstName)).toEqual(["Dan", "Carol", "Bob", "Alice"]);
    const alice = all.items.find((o) => o.id === a.id)!;
    expect(alice.students.map((s) => s.email)).toEqual([
      "student1@example.com",
      "student2@example.com",
    ]);
    expect(alice.actions).toEqual([]);
    expect(all.items.find((o) => o.buyerFirstName === "Bob")!.actions).toEqual([
      "paid",
      "canceled",
    ]);
    expect(all.items.find((o) => o.buyerFirstName === "Dan")!.actions).toEqual(["canceled"]);

    const byName = await search("carol");
    expect(byName.items.map((o) => o.buyerFirstName)).toEqual(["Carol"]);
    const byFullName = await search("Bob Lovelace");
    expect(byFullName.items.map((o) => o.buyerFirstName)).toEqual(["Bob"]);
    const byCompany = await search("100%");
    expect(byCompany.items.map((o) => o.buyerFirstName)).toEqual(["Alice"]);
    // % is literal: it does not match everything.
    expect((await search("%")).total).toBe(1);
    const byCourse = await search("osint");
    expect(byCourse.total).toBe(4);
    const byEmail = await search("dan@example");
    expect(byEmail.items.map((o) => o.buyerFirstName)).toEqual(["Dan"]);
    const paidCards = await listOrders({
      ...ALL_ORDERS,
      search: "",
      status: "paid",
      method: "stripe",
      page: 1,
    });
    expect(paidCards.items.map((o) => o.buyerFirstName)).toEqual(["Carol"]);

    const page2 = await listOrders(
      { ...ALL_ORDERS, search: "", status: null, method: null, page: 2 },
      3,
    );
    expect(page2).toMatchObject({ page: 2, pageCount: 2, total: 4 });
    expect(page2.items.map((o) => o.buyerFirstName)).toEqual(["Alice"]);
    const beyond = await listOrders(
      { ...ALL_ORDERS, search: "", status: null, method: null, page: 9 },
      3,
    );
    expect(beyond.page).toBe(2);

    // A search pages the same way, newest first, and past its end shows its last page.
    const searched = (page: number) =>
      listOrders({ ...ALL_ORDERS, search: "osint", status: null, method: null, page }, 3);
    expect((await searched(1)).items.map((o) => o.buyerFirstName)).toEqual(["Dan", "Carol", "Bob"]);
    const searchedBeyond = await searched(9);
    expect(searchedBeyond).toMatchObject({ page: 2, pageCount: 2, total: 4 });
    expect(searchedBeyond.items.map((o) => o.buyerFirstName)).toEqual(["Alice"]);
    expect(await search("nothing like it")).toMatchObject({ items: [], total: 0, page: 1 });
  });

  it("the server refuses every transition the machine forbids", async () => {
    const { a, b, c } = await seedOrders();
    expect(await changeOrderStatusByAdmin(a.id, "canceled", ADMIN)).toMatchObject({
      ok: false,
      reason: "not_allowed",
    });
    expect(await changeOrderStatusByAdmin(b.id, "invoiced", ADMIN)).toMatchObject({ ok: false });
    expect(await changeOrderStatusByAdmin(c.id, "paid", ADMIN)).toMatchObject({ ok: false });
    expect(await changeOrderStatusByAdmin(c.id, "pending", ADMIN)).toMatchObject({ ok: false });
    expect(
      await changeOrderStatusByAdmin("00000000-0000-4000-8000-000000000000", "paid", ADMIN),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await changeOrderStatusByAdmin(b.id, "canceled", ADMIN)).toMatchObject({
      ok: true,
      order: { status: "canceled" },
    });
  });

  it("CSV export: the filtered orders, every page, in batches", async () => {
    await seedOrders();
    const batches: unknown[][][] = [];
    for await (const batch of orderCsvRows(
      { ...ALL_ORDERS, search: "", status: null, method: null },
      1,
    ))
      batches.push(batch);
    expect(batches).toHaveLength(4);
    const response = ordersCsvResponse(
      { ...ALL_ORDERS, search: "", status: null, method: null },
      "orders-2026-01-01.csv",
    );
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="orders-2026-01-01.csv"',
    );
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toMatch(/^Reference,Order ID,Created \(UTC\),Status,Method,/);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain("Dan");
    expect(lines[4]).toContain("Alice");
    expect(lines[4]).toContain(",Paid,Manual Invoice,");
    expect(lines[4]).toContain(",100.00,2,200.00,0.00,GBP,No,");
    const invoiced = await ordersCsvResponse(
      { ...ALL_ORDERS, search: "", status: "invoiced", method: null },
      "x.csv",
    ).text();
    expect(invoiced.trim().split("\r\n")).toHaveLength(2);
  });
});
