import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import * as paymentsModule from "#app/routes/admin/payments.tsx";
import {
  CANCEL_REASON_MAX,
  CANCEL_REASON_REQUIRED,
  ORDER_NOTE_MAX_LENGTH,
  orderReference,
} from "#app/lib/orders/orders.ts";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { orderEvents, orders } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertOrder, noteCount } from "#tests/support/order-seed.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const orderRoute = throughAdminLayout(orderModule);
const paymentsRoute = throughAdminLayout(paymentsModule);

/**
 * The admin order page's guarded route (decisions 0015, 0016): its loader (an order, a 404 for an
 * unknown one), its note form, a status change refused as a conflict (there and on Payments), and
 * a cancel's reason and buyer notification. What the page reads: order-page.test.ts.
 */

useFreshDatabase();

const ADMIN = { id: "audit-test-admin", email: "finance@example.com" };
const origin = new URL(config.publicUrl).origin;

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
