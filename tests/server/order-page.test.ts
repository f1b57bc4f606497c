import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import * as paymentsModule from "#app/routes/admin/payments.tsx";
import {
  CANCEL_REASON_MAX,
  CANCEL_REASON_REQUIRED,
  ORDER_NOTE_MAX_LENGTH,
  orderReference,
} from "#app/lib/orders/orders.ts";
import { ALL_ORDERS } from "#app/lib/orders/order-filters.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, orderEvents, orderStudents, orders } from "#server/db/schema.ts";
import {
  changeOrderStatusByAdmin,
  listOrders,
  referenceIdRange,
} from "#server/orders/admin.server.ts";
import { orderCsvRows } from "#server/orders/csv.server.ts";
import { recordOrderEvent } from "#server/orders/events.server.ts";
import { addOrderNote, orderPage } from "#server/orders/order-page.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const orderRoute = throughAdminLayout(orderModule);
const paymentsRoute = throughAdminLayout(paymentsModule);

/**
 * The admin order page (decisions 0015, 0016): what its loader reads (details, billing, amounts,
 * timeline with who did what, notes), the note's validation on the server, the order search by
 * reference, company and students, and the page's guarded route.
 */

useFreshDatabase();

const ADMIN = { id: "audit-test-admin", email: "finance@example.com" };
const origin = new URL(config.publicUrl).origin;

interface OrderSeed {
  id?: string;
  first?: string;
  last?: string;
  email?: string;
  company?: string | null;
  organisation?: string | null;
  method?: "invoice" | "stripe";
  students?: { firstName: string; lastName: string; email: string }[];
}

/** An order as the checkout stores it (with its 'created' event), inserted directly. */
async function insertOrder(seed: OrderSeed = {}) {
  const students = seed.students ?? [];
  const quantity = Math.max(1, students.length);
  return db().transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        ...(seed.id ? { id: seed.id } : {}),
        status: "pending",
        paymentMethod: seed.method ?? "invoice",
        buyerFirstName: seed.first ?? "Ada",
        buyerLastName: seed.last ?? "Lovelace",
        buyerEmail: seed.email ?? "ada@example.com",
        buyerPhone: "+44 20 7946 0000",
        buyerCompany: seed.company === undefined ? "Analytical Engines Ltd" : seed.company,
        courseTitleSnapshot: "OSINT Investigations Masterclass",
        unitPriceCents: 100_000,
        quantity,
        isBuyerStudent: students.length === 0,
        netAmountCents: 100_000 * quantity,
        vatAmountCents: 20_000 * quantity,
        vatRateBasisPoints: 2000,
        totalAmountCents: 120_000 * quantity,
        billingOrganisation:
          seed.organisation === undefined ? "Engines Group plc" : seed.organisation,
        billingAddressLine1: "1 Difference Street",
        billingAddressLine2: "Floor 2",
        billingTown: "London",
        billingPostcode: "EC1A 1BB",
        billingCountry: "United Kingdom",
        poNumber: "PO-7781",
        buyerVatNumber: "GB123456789",
      })
      .returning();
    if (students.length) {
      await tx
        .insert(orderStudents)
        .values(students.map((s, i) => ({ ...s, orderId: order!.id, position: i + 1 })));
    }
    await recordOrderEvent(tx, order!.id, "created", "buyer", { paymentMethod: "invoice" });
    return order!;
  });
}

const GRACE = { firstName: "Grace", lastName: "Hopper", email: "grace.hopper@navy.example" };
const ALAN = { firstName: "Alan", lastName: "Turing", email: "alan@bletchley.example" };

async function noteCount(orderId: string) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(orderEvents)
    .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.kind} = 'note'`);
  return Number(row!.n);
}

describe("the order page's data", () => {
  it("details, billing, students, amounts, and a timeline of events and e-mails with who did it", async () => {
    const order = await insertOrder({ students: [GRACE, ALAN] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const t0 = Date.now();
    // Queued with the order (stamped with its transaction's start): the buyer's confirmation
    // went out; a staff alert failed for good.
    await db()
      .insert(emailOutbox)
      .values([
        {
          id: "00000000-0000-4000-8000-0000000000e1",
          kind: "invoice_request_confirmation",
          toAddress: "ada@example.com",
          subject: "Your booking request",
          html: "<p>x</p>",
          text: "x",
          status: "sent",
          orderId: order.id,
          createdAt: order.createdAt,
          sentAt: new Date(t0 + 3),
        },
        {
          id: "00000000-0000-4000-8000-0000000000e2",
          kind: "admin_order_alert",
          toAddress: "sales@example.com",
          subject: "New invoice request",
          html: "<p>x</p>",
          text: "x",
          status: "failed",
          attempts: 8,
          lastError: "550 mailbox unavailable",
          orderId: order.id,
          createdAt: order.createdAt,
          nextAttemptAt: new Date(t0 + 4),
        },
      ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).toMatchObject({ ok: true });
    expect(await addOrderNote(order.id, "  Buyer called: PO follows by Friday.  ", ADMIN)).toEqual({
      ok: true,
    });
    expect(
      await changeOrderStatusByAdmin(
        order.id,
        "canceled",
        { id: "ops-admin", email: "ops@example.com" },
        { notifyBuyer: true },
      ),
    ).toMatchObject({ ok: true });

    const page = await orderPage(order.id);
    expect(page).not.toBeNull();
    expect(page!.order).toMatchObject({
      id: order.id,
      reference: orderReference(order.id),
      status: "canceled",
      paymentMethod: "invoice",
      buyerFirstName: "Ada",
      buyerEmail: "ada@example.com",
      buyerPhone: "+44 20 7946 0000",
      buyerCompany: "Analytical Engines Ltd",
      students: [GRACE, ALAN],
      actions: [],
    });
    expect(page!.billing).toEqual({
      organisation: "Engines Group plc",
      addressLines: ["1 Difference Street", "Floor 2"],
      town: "London",
      postcode: "EC1A 1BB",
      country: "United Kingdom",
      poNumber: "PO-7781",
      vatNumber: "GB123456789",
    });
    expect(page!.amounts).toEqual({
      unitPriceCents: 100_000,
      quantity: 2,
      netCents: 200_000,
      vatCents: 40_000,
      vatRateBasisPoints: 2000,
      pricesIncludeVat: false,
      totalCents: 240_000,
      refundedCents: 0,
      currency: "GBP",
    });
    expect(page!.refundable).toBe(false);
    const timeline = page!.timeline.map((e) => [e.kind, e.actor, e.detail]);
    // Marking it invoiced issued the invoice; canceling it, a credit note for all of it.
    expect(page!.documents.map((d) => [d.kind, d.number, d.totalCents, d.issuedBy])).toEqual([
      ["invoice", expect.stringMatching(/^INV-\d{4}-\d{4}$/), 240_000, ADMIN.email],
      ["credit_note", expect.stringMatching(/^CN-\d{4}-\d{4}$/), 240_000, "ops@example.com"],
    ]);
    expect(timeline).toEqual([
      ["created", "buyer", null],
      ["email_queued", null, "“Your booking request” to ada@example.com"],
      ["email_queued", null, "“New invoice request” to sales@example.com"],
      ["email_sent", null, "“Your booking request” to ada@example.com"],
      ["email_failed", null, "“New invoice request” to sales@example.com: 550 mailbox unavailable"],
      ["invoiced", ADMIN.email, null],
      ["email_queued", null, expect.stringMatching(/^“Your invoice INV-.* to ada@example\.com$/)],
      ["invoice_issued", ADMIN.email, expect.stringMatching(/^INV-/)],
      ["note", ADMIN.email, "Buyer called: PO follows by Friday."],
      ["canceled", "ops@example.com", "Buyer notified by e-mail"],
      ["email_queued", null, expect.stringMatching(/has been cancelled” to ada@example\.com$/)],
      ["credit_note_issued", "ops@example.com", expect.stringMatching(/^CN-/)],
    ]);
    expect(page!.timeline.find((e) => e.kind === "email_failed")!.title).toBe(
      "E-mail failed after 8 attempts",
    );
    // The e-mails the order's creation queued show after it, though stamped a little earlier.
    const created = page!.timeline[0]!;
    expect(page!.timeline[1]!.at <= created.at).toBe(true);
  });

  it("an unknown or malformed id has no page", async () => {
    expect(await orderPage("00000000-0000-4000-8000-000000000000")).toBeNull();
    expect(await orderPage("not-an-id")).toBeNull();
    expect(await orderPage("NW-1A2B3C4D")).toBeNull();
  });
});

describe("notes", () => {
  it("an empty or too long note is refused and nothing is stored", async () => {
    const order = await insertOrder();
    expect(await addOrderNote(order.id, "   \n  ", ADMIN)).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    expect(
      await addOrderNote(order.id, "x".repeat(ORDER_NOTE_MAX_LENGTH + 1), ADMIN),
    ).toMatchObject({ ok: false, reason: "invalid" });
    expect(await addOrderNote("00000000-0000-4000-8000-000000000000", "Hi", ADMIN)).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await noteCount(order.id)).toBe(0);
    expect(await addOrderNote(order.id, "x".repeat(ORDER_NOTE_MAX_LENGTH), ADMIN)).toEqual({
      ok: true,
    });
    expect(await noteCount(order.id)).toBe(1);
  });
});

describe("the Payments search", () => {
  const find = async (search: string) =>
    (await listOrders({ ...ALL_ORDERS, search, status: null, method: null, page: 1 })).items.map(
      (o) => o.buyerFirstName,
    );

  it("finds orders by reference (with or without NW-, any case), student, company, PO", async () => {
    const a = await insertOrder({
      id: "1a2b3c4d-0000-4000-8000-000000000001",
      first: "Alice",
      email: "alice@bank.example",
      company: "Acme Bank",
      organisation: null,
      students: [GRACE, ALAN],
    });
    await insertOrder({
      id: "1a2b3c4e-0000-4000-8000-000000000002",
      first: "Bob",
      email: "bob@police.example",
      company: null,
      organisation: "Thames Valley Police",
    });
    await insertOrder({
      id: "9f000000-0000-4000-8000-000000000003",
      first: "Carol",
      email: "carol@kyc.example",
      company: "KYC Team",
      students: [{ firstName: "Dora", lastName: "Kent", email: "dora@kyc.example" }],
    });

    expect(await find(orderReference(a.id))).toEqual(["Alice"]);
    expect(await find("NW-1A2B3C4D")).toEqual(["Alice"]);
    expect(await find("nw-1a2b3c4d")).toEqual(["Alice"]);
    expect(await find("1A2B3C4D")).toEqual(["Alice"]);
    expect(await find(a.id)).toEqual(["Alice"]);
    // A prefix with NW- matches every reference starting so; newest first.
    expect((await find("NW-1A2B3C")).sort()).toEqual(["Alice", "Bob"]);

    expect(await find("grace")).toEqual(["Alice"]);
    expect(await find("Grace Hopper")).toEqual(["Alice"]);
    expect(await find("alan@bletchley")).toEqual(["Alice"]);
    expect(await find("DORA@KYC.EXAMPLE")).toEqual(["Carol"]);
    expect(await find("acme bank")).toEqual(["Alice"]);
    expect(await find("thames valley")).toEqual(["Bob"]);
    expect(await find("PO-7781")).toHaveLength(3);
    expect(await find("bob@police")).toEqual(["Bob"]);
    expect(await find("nobody at all")).toEqual([]);
    // An order with two matching students is listed once.
    expect(
      (await listOrders({ ...ALL_ORDERS, search: "example", status: null, method: null, page: 1 }))
        .total,
    ).toBe(3);
    // The filters still apply on top of the search.
    expect(
      (await listOrders({ ...ALL_ORDERS, search: "grace", status: "paid", method: null, page: 1 }))
        .items,
    ).toEqual([]);

    // The CSV export reads the same condition.
    const csv: unknown[][] = [];
    for await (const batch of orderCsvRows({
      ...ALL_ORDERS,
      search: "dora",
      status: null,
      method: null,
    }))
      csv.push(...batch);
    expect(csv).toHaveLength(1);
    expect(csv[0]).toContain("Carol");
  });

  it("reads which searches are references", () => {
    expect(referenceIdRange("NW-1A2B3C4D")).toEqual({
      from: "1a2b3c4d-0000-0000-0000-000000000000",
      to: "1a2b3c4d-ffff-ffff-ffff-ffffffffffff",
    });
    expect(referenceIdRange("nw1a")).toEqual({
      from: "1a000000-0000-0000-0000-000000000000",
      to: "1affffff-ffff-ffff-ffff-ffffffffffff",
    });
    // Without NW-, only all eight digits: 'ada' or 'bad' are names, not references.
    expect(referenceIdRange("ada")).toBeNull();
    expect(referenceIdRange("1a2b3c4d9")).toBeNull();
    expect(referenceIdRange("NW-XYZ")).toBeNull();
  });
});

describe("the order page's route", () => {
  const request = (
    path: string,
    init: { method?: string; cookie?: string; body?: FormData } = {},
  ) =>
    new Request(`${origin}${path}`, {
      method: init.method ?? "GET",
      headers: { Origin: origin, ...(init.cookie ? { Cookie: init.cookie } : {}) },
      body: init.body,
    });
  const form = (fields: Record<string, string>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return body;
  };
  const args = (req: Request, orderId: string) =>
    ({ request: req, params: { orderId }, context: {} }) as never;
  /** What a loader or action returned: `data()` (with its status) or a plain object (200). */
  const unwrap = (result: unknown) => {
    const d = result as { type?: string; data?: unknown; init?: { status?: number } | null };
    if (d.type !== "DataWithResponseInit") return { status: 200, body: result };
    return { status: d.init?.status ?? 200, body: d.data as Record<string, unknown> };
  };
  /** `fields` posted to an order's page through `route`'s action, as the signed-in admin. */
  const postAsAdmin = async (
    route: { action: (args: never) => unknown },
    orderId: string,
    cookie: string,
    fields: Record<string, string>,
  ) =>
    unwrap(
      await route.action(
        args(
          request(`/admin/payments/${orderId}`, { method: "POST", cookie, body: form(fields) }),
          orderId,
        ),
      ),
    );

  it("loads an order, 404s an unknown one, stores valid notes only", async () => {
    const cookie = await adminCookie();
    const order = await insertOrder();
    const loaded = await orderRoute.loader(
      args(request(`/admin/payments/${order.id}`, { cookie }), order.id),
    );
    expect(unwrap(loaded).status).toBe(200);
    expect(unwrap(loaded).body).toMatchObject({ page: { order: { id: order.id } } });
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      const missing = unwrap(
        await orderRoute.loader(args(request(`/admin/payments/${id}`, { cookie }), id)),
      );
      expect(missing).toEqual({ status: 404, body: { page: null } });
    }

    const post = (fields: Record<string, string>) =>
      orderRoute.action(
        args(
          request(`/admin/payments/${order.id}`, { method: "POST", cookie, body: form(fields) }),
          order.id,
        ),
      );
    const empty = unwrap(await post({ intent: "note", text: "   " }));
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ ok: false, fieldErrors: { text: "Please write a note" } });
    const long = unwrap(
      await post({ intent: "note", text: "y".repeat(ORDER_NOTE_MAX_LENGTH + 1) }),
    );
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      ok: false,
      fieldErrors: { text: expect.stringMatching(/2,000/) },
    });
    expect(await noteCount(order.id)).toBe(0);

    const added = unwrap(await post({ intent: "note", text: "Chased the PO." }));
    expect(added.body).toMatchObject({ ok: true, form: "note" });
    const [note] = await db().select().from(orderEvents).where(eq(orderEvents.kind, "note"));
    expect(note).toMatchObject({ actor: "staff@example.com", detail: { text: "Chased the PO." } });
  });

  it("a change refused because the order moved on is a 409 naming its real status", async () => {
    const cookie = await adminCookie();
    const order = await insertOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    await changeOrderStatusByAdmin(order.id, "paid", ADMIN);
    for (const route of [orderRoute, paymentsRoute]) {
      const refused = await postAsAdmin(route, order.id, cookie, {
        intent: "status",
        orderId: order.id,
        status: "paid",
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        ok: false,
        reason: "conflict",
        message: `Failed to update order status: order ${orderReference(order.id)} was already marked Paid by someone else.`,
      });
    }
  });

  it("a cancel needs a reason, and passes it and the buyer notification choice on", async () => {
    const cookie = await adminCookie();
    const order = await insertOrder();
    const post = (reason?: string) =>
      postAsAdmin(orderRoute, order.id, cookie, {
        intent: "status",
        orderId: order.id,
        status: "canceled",
        notifyBuyer: "on",
        ...(reason === undefined ? {} : { reason }),
      });
    for (const missing of [undefined, "   "]) {
      const refused = await post(missing);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ ok: false, message: CANCEL_REASON_REQUIRED });
    }
    expect((await post("x".repeat(CANCEL_REASON_MAX + 1))).status).toBe(400);
    const [untouched] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(untouched!.status).toBe("pending");

    const cancel = await post("  Duplicate of another booking  ");
    expect(cancel.body).toMatchObject({ ok: true, status: "canceled" });
    const [row] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(row!.status).toBe("canceled");
    const [event] = await db().select().from(orderEvents).where(eq(orderEvents.kind, "canceled"));
    expect(event!.detail).toEqual({
      cancelReason: "Duplicate of another booking",
      notifyBuyer: true,
    });
    const page = await orderPage(order.id);
    expect(page!.timeline.find((entry) => entry.kind === "canceled")!.detail).toBe(
      "Duplicate of another booking · Buyer notified by e-mail",
    );
  });
});
