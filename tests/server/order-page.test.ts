import { describe, expect, it } from "vitest";
import { ORDER_NOTE_MAX_LENGTH, orderReference } from "#app/lib/orders/orders.ts";
import { ALL_ORDERS } from "#app/lib/orders/order-filters.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox } from "#server/db/schema.ts";
import {
  changeOrderStatusByAdmin,
  listOrders,
  referenceIdRange,
} from "#server/orders/admin.server.ts";
import { orderCsvRows } from "#server/orders/csv.server.ts";
import { addOrderNote, orderPage } from "#server/orders/order-page.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertOrder, noteCount } from "#tests/support/order-seed.ts";

/**
 * The admin order page (decisions 0015, 0016): what its loader reads (details, billing, amounts,
 * timeline with who did what, notes), the note's validation on the server, and the order search
 * by reference, company and students. The page's guarded route: order-page-route.test.ts.
 */

useFreshDatabase();

const ADMIN = { id: "audit-test-admin", email: "finance@example.com" };

const GRACE = { firstName: "Grace", lastName: "Hopper", email: "grace.hopper@navy.example" };
const ALAN = { firstName: "Alan", lastName: "Turing", email: "alan@bletchley.example" };

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
