import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as dashboardModule from "#app/routes/admin/dashboard.tsx";
import * as inquiriesModule from "#app/routes/admin/inquiries.tsx";
import { inquiryHref } from "#app/lib/inquiries/admin.ts";
import { londonMonth } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { inquiries, orderEvents, orders } from "#server/db/schema.ts";
import { latestOrders, monthRevenue } from "#server/orders/dashboard.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const dashboardRoute = throughAdminLayout(dashboardModule);
const inquiriesRoute = throughAdminLayout(inquiriesModule);

/**
 * The admin Dashboard's orders (decision 0024): this month's revenue — paid orders' totals less
 * their refunds, paid within the London calendar month — against orders in every state, either side
 * of a month boundary in summer time, with refunds, in another currency and from before events were
 * recorded; the latest orders' order and limit; and the page's loader, which only logs what it
 * cannot read.
 */

const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;

type Status = "pending" | "invoiced" | "paid" | "failed" | "canceled";

interface Seed {
  status?: Status;
  totalCents?: number;
  refundedCents?: number;
  currency?: string;
  createdAt?: Date;
  /** When its 'paid' event was recorded; omitted: no event (an order from before events). */
  paidAt?: Date;
  spam?: boolean;
  first?: string;
  company?: string | null;
  organisation?: string | null;
}

let seq = 0;

async function insertOrder(seed: Seed = {}): Promise<string> {
  const total = seed.totalCents ?? 10_000;
  const [order] = await db()
    .insert(orders)
    .values({
      status: seed.status ?? "paid",
      paymentMethod: "invoice",
      buyerFirstName: seed.first ?? `Buyer${++seq}`,
      buyerLastName: "Lovelace",
      buyerEmail: `buyer${seq}@example.com`,
      buyerCompany: seed.company === undefined ? "Typed Company Ltd" : seed.company,
      billingOrganisation: seed.organisation === undefined ? null : seed.organisation,
      courseTitleSnapshot: "Introduction to Counter Fraud",
      unitPriceCents: total,
      quantity: 1,
      totalAmountCents: total,
      netAmountCents: total,
      refundedAmountCents: seed.refundedCents ?? 0,
      currency: seed.currency ?? "GBP",
      spamReason: seed.spam ? "honeypot" : null,
      ...(seed.createdAt ? { createdAt: seed.createdAt } : {}),
      // As the transition to paid sets it (with its 'paid' event, below).
      paidAt: seed.paidAt ?? null,
    })
    .returning({ id: orders.id });
  if (seed.paidAt) {
    await db()
      .insert(orderEvents)
      .values({ orderId: order!.id, kind: "paid", actor: "system", createdAt: seed.paidAt });
  }
  return order!.id;
}

// April 2026 in London starts at 2026-03-31T23:00Z (BST) and ends at 2026-04-30T23:00Z.
const NOW = new Date("2026-04-15T12:00:00Z");
const APRIL_START = new Date("2026-03-31T23:00:00Z");
const MAY_START = new Date("2026-04-30T23:00:00Z");
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

describe("this month's revenue", () => {
  it("the London month: midnight on the 1st, GMT or BST", () => {
    expect(londonMonth(NOW)).toEqual({ start: APRIL_START, end: MAY_START });
    expect(londonMonth(new Date("2026-01-31T23:59:59Z"))).toEqual({
      start: new Date("2026-01-01T00:00:00Z"),
      end: new Date("2026-02-01T00:00:00Z"),
    });
    // 00:30 on 1 April in London is still 31 March in UTC: it is April's.
    expect(londonMonth(minutes(APRIL_START, 30)).start).toEqual(APRIL_START);
  });

  it("sums paid orders' totals less their refunds, paid within the London month", async () => {
    const early = new Date("2026-03-01T10:00:00Z");
    // Counted: paid this month (at its first instant, mid-month, at its last minute).
    await insertOrder({ totalCents: 29_500, createdAt: early, paidAt: APRIL_START });
    await insertOrder({
      totalCents: 145_000,
      createdAt: early,
      paidAt: NOW,
      refundedCents: 45_000,
    });
    await insertOrder({ totalCents: 1_000, createdAt: early, paidAt: minutes(MAY_START, -1) });
    // Placed this month and paid this month, refunded in full: counts as an order, adds nothing.
    await insertOrder({ totalCents: 50_000, createdAt: NOW, paidAt: NOW, refundedCents: 50_000 });
    // Not counted: paid a minute before the month began (23:59 BST on 31 March, 22:59 UTC), or
    // at the first instant of next month.
    await insertOrder({ totalCents: 70_000, createdAt: early, paidAt: minutes(APRIL_START, -1) });
    await insertOrder({ totalCents: 80_000, createdAt: early, paidAt: MAY_START });
    // Not paid (whatever their dates): pending, invoiced, failed, canceled.
    for (const status of ["pending", "invoiced", "failed", "canceled"] as const) {
      await insertOrder({ status, totalCents: 99_900, createdAt: NOW });
    }
    // Paid this month but in another currency.
    await insertOrder({ totalCents: 12_300, currency: "EUR", createdAt: early, paidAt: NOW });

    expect(await monthRevenue(NOW)).toEqual({
      monthStart: APRIL_START.toISOString(),
      paidCents: 29_500 + 145_000 + 1_000 + 50_000,
      refundedCents: 45_000 + 50_000,
      revenueCents: 29_500 + 100_000 + 1_000,
      // These orders are seeded without VAT: net and total are the same.
      revenueExVatCents: 29_500 + 100_000 + 1_000,
      orderCount: 4,
    });
    // The same orders seen from March and from May.
    expect((await monthRevenue(new Date("2026-03-20T12:00:00Z"))).revenueCents).toBe(70_000);
    expect((await monthRevenue(new Date("2026-05-02T12:00:00Z"))).revenueCents).toBe(80_000);
  });

  it("an order paid before events were recorded is dated from when it was placed", async () => {
    await insertOrder({ totalCents: 20_000, createdAt: minutes(APRIL_START, 5) });
    await insertOrder({ totalCents: 30_000, createdAt: minutes(APRIL_START, -5) });
    // An event wins over the placing date: placed in March, paid in April.
    await insertOrder({ totalCents: 40_000, createdAt: minutes(APRIL_START, -5), paidAt: NOW });
    const april = await monthRevenue(NOW);
    expect(april.revenueCents).toBe(60_000);
    expect(april.orderCount).toBe(2);
  });

  it("a held order that was paid counts; an empty month is zero", async () => {
    expect(await monthRevenue(NOW)).toMatchObject({ paidCents: 0, revenueCents: 0, orderCount: 0 });
    await insertOrder({ totalCents: 5_000, spam: true, paidAt: NOW, createdAt: NOW });
    expect((await monthRevenue(NOW)).revenueCents).toBe(5_000);
  });
});

describe("latest orders", () => {
  it("the five newest, newest first, held ones left out, with what the row shows", async () => {
    const base = Date.parse("2026-04-01T09:00:00Z");
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        await insertOrder({
          status: i % 2 ? "pending" : "paid",
          createdAt: new Date(base + i * 3_600_000),
          first: `Buyer${i}`,
          organisation: i === 6 ? "Billing Organisation plc" : null,
          company: i === 5 ? null : "Typed Company Ltd",
          totalCents: 1_000 * (i + 1),
        }),
      );
    }
    // The newest of all is held as suspected spam: it waits on the Payments screen.
    await insertOrder({ createdAt: new Date(base + 10 * 3_600_000), spam: true });

    const latest = await latestOrders();
    expect(latest.map((o) => o.id)).toEqual([ids[6], ids[5], ids[4], ids[3], ids[2]]);
    expect(latest[0]).toEqual({
      id: ids[6],
      reference: orderReference(ids[6]!),
      buyerName: "Buyer6 Lovelace",
      organisation: "Billing Organisation plc",
      courseTitle: "Introduction to Counter Fraud",
      totalAmountCents: 7_000,
      status: "paid",
      listStatus: "paid",
      createdAt: new Date(base + 6 * 3_600_000).toISOString(),
    });
    expect(latest[1]).toMatchObject({ organisation: null, status: "pending" });
    expect(latest[2]).toMatchObject({ organisation: "Typed Company Ltd" });
    expect(await latestOrders(2)).toHaveLength(2);
  });
});

/** A general inquiry from Grace Hopper, the one the Dashboard's latest list should show. */
async function insertGraceInquiry() {
  await db().insert(inquiries).values({
    name: "Grace Hopper",
    email: "grace@example.com",
    message: "Hello",
    inquiryType: "general",
  });
}

describe("the Dashboard's loader", () => {
  const load = async () =>
    dashboardRoute.loader({
      request: new Request(`${origin}/admin/dashboard`, {
        headers: { Cookie: await adminCookie() },
      }),
      params: {},
      context: {},
    } as never);

  it("reads inquiries, the latest orders and the month's revenue", async () => {
    await insertGraceInquiry();
    const id = await insertOrder({ createdAt: new Date(), paidAt: new Date(), totalCents: 29_500 });
    const data = await load();
    expect(data.latest.map((i) => i.name)).toEqual(["Grace Hopper"]);
    expect(data.orders.map((o) => o.id)).toEqual([id]);
    expect(data.revenue.revenueCents).toBe(29_500);
  });

  it("what cannot be read is only logged: the rest of the page still loads", async () => {
    await insertGraceInquiry();
    await insertOrder({ createdAt: new Date(), paidAt: new Date() });
    await database().db.execute(sql.raw("alter table orders rename to orders_away"));
    const data = await load();
    expect(data.orders).toEqual([]);
    expect(data.revenue).toMatchObject({ revenueCents: 0, orderCount: 0 });
    expect(data.latest.map((i) => i.name)).toEqual(["Grace Hopper"]);
  });
});

describe("a Dashboard inquiry row's link", () => {
  let cookie: string | undefined;
  const open = async (href: string) => {
    cookie ??= await adminCookie();
    return inquiriesRoute.loader({
      request: new Request(`${origin}${href}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never);
  };
  beforeEach(() => {
    cookie = undefined;
  });

  it("opens that inquiry on the Inquiries screen, wherever it is in the list", async () => {
    const [grace] = await db()
      .insert(inquiries)
      .values({ name: "Grace Hopper", email: "grace@example.com", message: "Hello" })
      .returning({ id: inquiries.id });
    // Held as suspected spam, and left out by the list's filter: found all the same.
    const [held] = await db()
      .insert(inquiries)
      .values({ name: "Held", email: "held@example.com", message: "Buy", spamReason: "honeypot" })
      .returning({ id: inquiries.id });
    expect(inquiryHref(grace!.id)).toBe(`/admin/inquiries?inquiry=${grace!.id}`);
    const data = await open(inquiryHref(grace!.id));
    expect(data.opened).toMatchObject({ id: grace!.id, name: "Grace Hopper" });
    expect(data.openNotFound).toBe(false);
    expect((await open(`${inquiryHref(held!.id)}&spam=none`)).opened?.name).toBe("Held");
  });

  it("checks the id on the server: a bad or unknown one opens nothing", async () => {
    for (const id of ["not-a-uuid", "1' or '1'='1", "00000000-0000-4000-8000-000000000000"]) {
      const data = await open(`/admin/inquiries?inquiry=${encodeURIComponent(id)}`);
      expect(data.opened, id).toBeNull();
      expect(data.openNotFound, id).toBe(true);
    }
    const plain = await open("/admin/inquiries");
    expect(plain.opened).toBeNull();
    expect(plain.openNotFound).toBe(false);
  });
});
