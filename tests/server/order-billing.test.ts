import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import { BILLING_LOCKED } from "#app/lib/orders/billing-form.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, orderEvents } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { STAFF_EMAIL, adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Correcting an order's billing details on its admin page: allowed until the invoice is issued
 * (the invoice prints them; an issued document is never edited), with the checkout's rules,
 * recorded on the timeline and in the audit log; refused after, changing nothing.
 */
useFreshDatabase();

const orderRoute = throughAdminLayout(orderModule);
const origin = new URL(config.publicUrl).origin;

const CORRECTED = {
  intent: "billing",
  organisation: "Harbour Bank plc",
  address_line1: "2 Quay Street",
  address_line2: "",
  town: "Bristol",
  postcode: "bs1 4dj",
  country: "UK",
  po_number: "PO-77120",
  vat_number: "gb 123 456 789",
};

/** The signed-in staff member's session, made once per test (each test has a fresh database). */
let session: Promise<string> | null = null;
beforeEach(() => {
  session = null;
});

/** `fields` posted to the order's page as the signed-in admin: status and body. */
async function post(orderId: string, fields: Record<string, string>) {
  session ??= adminCookie();
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  const request = new Request(`${origin}/admin/payments/${orderId}`, {
    method: "POST",
    headers: { Origin: origin, Cookie: await session },
    body,
  });
  const result = (await orderRoute.action({
    request,
    params: { orderId },
    context: {},
  } as never)) as { type?: string; data?: unknown; init?: { status?: number } | null };
  return result.type === "DataWithResponseInit"
    ? { status: result.init?.status ?? 200, body: result.data as Record<string, unknown> }
    : { status: 200, body: result as unknown as Record<string, unknown> };
}

async function newOrder(method: "invoice" | "stripe" = "invoice") {
  const course = await insertCourse();
  const placed = await placeOrder(course.id, method);
  if (!placed.ok) throw new Error(`order not placed: ${placed.reason}`);
  return placed.order;
}

describe("correcting an order's billing details", () => {
  it("before the invoice: saved tidied, on the timeline and in the audit log", async () => {
    const order = await newOrder();
    const before = await orderRow(order.id);
    const answer = await post(order.id, CORRECTED);
    expect(answer).toMatchObject({ status: 200, body: { ok: true, form: "billing" } });
    const after = await orderRow(order.id);
    expect(after).toMatchObject({
      billingOrganisation: "Harbour Bank plc",
      billingAddressLine1: "2 Quay Street",
      billingAddressLine2: null,
      billingTown: "Bristol",
      billingPostcode: "BS1 4DJ",
      billingCountry: "United Kingdom",
      poNumber: "PO-77120",
      buyerVatNumber: "GB123456789",
      // Nothing else moved: the buyer, the money, the status.
      buyerEmail: before.buyerEmail,
      totalAmountCents: before.totalAmountCents,
      status: "pending",
    });
    const events = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "billing_corrected")));
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toBe(STAFF_EMAIL);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, order.id), eq(auditLog.action, "order.billing")));
    expect(audit!.before).toMatchObject({ poNumber: before.poNumber });
    expect(audit!.after).toMatchObject({ poNumber: "PO-77120", postcode: "BS1 4DJ" });
    const page = await orderPage(order.id);
    expect(page!.billingForm).toMatchObject({ poNumber: "PO-77120" });
    expect(page!.timeline.map((e) => e.title)).toContain("Billing details corrected");

    // The same post again changes nothing and records nothing.
    expect((await post(order.id, CORRECTED)).body).toMatchObject({ ok: true });
    const again = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.kind, "billing_corrected")));
    expect(again).toHaveLength(1);
  });

  it("refuses bad input with the checkout's messages, changing nothing", async () => {
    const order = await newOrder();
    const before = await orderRow(order.id);
    const answer = await post(order.id, {
      ...CORRECTED,
      address_line1: "",
      postcode: "not a postcode",
      vat_number: "12",
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      ok: false,
      fieldErrors: {
        address_line1: "Please enter the first line of the billing address",
        postcode: "Please enter a valid UK postcode, e.g. SW1A 1AA",
        vat_number: "Please enter a valid VAT number, e.g. GB123456789",
      },
      values: { po_number: "PO-77120" },
    });
    expect(await orderRow(order.id)).toEqual(before);
  });

  it("a card order may have no address, but not half of one", async () => {
    const order = await newOrder("stripe");
    const none = { ...CORRECTED, address_line1: "", town: "", postcode: "", country: "" };
    expect((await post(order.id, none)).body).toMatchObject({ ok: true });
    expect(await orderRow(order.id)).toMatchObject({
      billingAddressLine1: null,
      billingCountry: null,
      poNumber: "PO-77120",
    });
    const half = await post(order.id, { ...none, town: "Bristol" });
    expect(half.status).toBe(400);
    expect(half.body).toMatchObject({ fieldErrors: { address_line1: expect.any(String) } });
  });

  it("after the invoice is issued: refused, the invoice's details kept", async () => {
    const order = await newOrder();
    const invoiced = await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    expect(invoiced.ok).toBe(true);
    const before = await orderRow(order.id);
    const answer = await post(order.id, CORRECTED);
    expect(answer).toMatchObject({ status: 409, body: { ok: false, message: BILLING_LOCKED } });
    expect(await orderRow(order.id)).toEqual(before);
    expect((await orderPage(order.id))!.billingForm).toBeNull();
  });

  it("an unknown order is not found", async () => {
    const answer = await post("00000000-0000-4000-8000-000000000000", CORRECTED);
    expect(answer.status).toBe(404);
  });
});
