import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as inquiriesModule from "#app/routes/admin/inquiries.tsx";
import * as newsletterModule from "#app/routes/admin/newsletter-subscriptions.tsx";
import * as paymentsModule from "#app/routes/admin/payments.tsx";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { config } from "#server/config.server.ts";
import { inquiries, orders } from "#server/db/schema.ts";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { inquiriesScreen, latestInquiries } from "#server/inquiries/admin.server.ts";
import { activeSubscriberEmails, subscriptionsScreen } from "#server/newsletter/admin.server.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";
import { checkoutForm } from "#tests/support/orders.ts";
import {
  bot,
  countOf,
  enquiry,
  insertCourse,
  licence,
  outboxOf,
  post,
} from "#tests/support/suspected-spam.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

const inquiriesRoute = throughAdminLayout(inquiriesModule);
const newsletterRoute = throughAdminLayout(newsletterModule);
const paymentsRoute = throughAdminLayout(paymentsModule);

/**
 * Suspected spam (decision 0012): a honeypot post is stored and marked with no e-mail; a fourth
 * confirmation to one address within the hour is held (stored, marked, staff alerted); admins
 * list, filter, release (which sends what was held) and delete. Card payments point at a fake
 * Stripe, so a honeypot card checkout can be shown not to reach it.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForServerTests(),
);
afterAll(() => fake.close());

const database = useFreshDatabase();
const origin = new URL(config.publicUrl).origin;

describe("admins see, filter, release and delete suspected spam", () => {
  it("the Inquiries screen filters by the mark; counts and the dashboard leave spam out", async () => {
    await callAction(inquiryAction, formRequest(enquiry("real@example.com")));
    await callAction(inquiryAction, formRequest({ ...enquiry("bot@example.com"), ...bot }));
    const screen = async (query: string) =>
      inquiriesScreen(parseInquiryFilters(new URLSearchParams(query)));
    const all = await screen("");
    expect(all.items.map((i) => [i.email, i.spamReason])).toEqual([
      ["bot@example.com", "honeypot"],
      ["real@example.com", null],
    ]);
    expect(all).toMatchObject({ total: 2 });
    expect(all.counts).toMatchObject({ new: 1, total: 1, suspected: 1 });
    const only = await screen("spam=only");
    expect(only.items.map((i) => i.email)).toEqual(["bot@example.com"]);
    expect(only.total).toBe(1);
    const none = await screen("spam=none&status=new");
    expect(none.items.map((i) => i.email)).toEqual(["real@example.com"]);
    expect(none.total).toBe(1);
    expect((await screen("spam=only&q=real")).items).toEqual([]);
    expect((await latestInquiries()).map((i) => i.email)).toEqual(["real@example.com"]);
  });

  it("Release queues the e-mails the normal path sends; Delete removes; bad input is 400", async () => {
    const cookie = await adminCookie();
    await callAction(inquiryAction, formRequest({ ...licence("lee@example.com"), ...bot }));
    const [held] = await database().db.select().from(inquiries);
    expect(await outboxOf({ inquiryId: held!.id })).toEqual([]);

    const released = await post(inquiriesRoute.action, "/admin/inquiries", cookie, {
      intent: "release",
      id: held!.id,
    });
    expect(released).toEqual({
      status: 200,
      body: {
        ok: true,
        form: "release",
        message: "Inquiry released: its e-mails are on their way",
      },
    });
    const [row] = await database().db.select().from(inquiries);
    expect(row!.spamReason).toBeNull();
    const mails = await outboxOf({ inquiryId: held!.id });
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ["admin_alert", config.adminEmails.join(", ")],
      ["visitor_confirmation", "lee@example.com"],
    ]);
    // The licence choices are read back from the row, as the normal path would have written them.
    expect(mails[1]!.subject).toBe("Your File Interrogator licence enquiry – NightWatch");
    expect(mails[0]!.text).toContain("Licences: 11–25 licences");
    expect(mails[0]!.text).toContain("Use case: Law enforcement");

    // Released once: a second release finds nothing held.
    const again = await post(inquiriesRoute.action, "/admin/inquiries", cookie, {
      intent: "release",
      id: held!.id,
    });
    expect(again).toMatchObject({
      status: 404,
      body: { ok: false, message: "Failed to release inquiry" },
    });
    expect(await outboxOf({ inquiryId: held!.id })).toHaveLength(2);

    // Delete: only held inquiries; a real one is kept.
    const notHeld = await post(inquiriesRoute.action, "/admin/inquiries", cookie, {
      intent: "delete",
      id: held!.id,
    });
    expect(notHeld).toMatchObject({ status: 404, body: { message: "Failed to delete inquiry" } });
    await callAction(inquiryAction, formRequest({ ...enquiry("spam@example.com"), ...bot }));
    const [spam] = await database()
      .db.select()
      .from(inquiries)
      .where(eq(inquiries.email, "spam@example.com"));
    const deleted = await post(inquiriesRoute.action, "/admin/inquiries", cookie, {
      intent: "delete",
      id: spam!.id,
    });
    expect(deleted).toEqual({
      status: 200,
      body: { ok: true, form: "delete", message: "Inquiry deleted" },
    });
    expect(await countOf(inquiries)).toBe(1);

    for (const body of [
      { intent: "release", id: "not-a-uuid" },
      { intent: "delete", id: "x\u0000" },
    ]) {
      const bad = await post(inquiriesRoute.action, "/admin/inquiries", cookie, body);
      expect(bad.status).toBe(400);
      expect(bad.body.ok).toBe(false);
    }
    const json = await post(
      inquiriesRoute.action,
      "/admin/inquiries",
      cookie,
      '{"intent":"delete"}',
    );
    expect(json).toMatchObject({ status: 400, body: { ok: false } });
  });

  it("releasing an inquiry held by the recipient limit sends only the confirmation", async () => {
    const cookie = await adminCookie();
    for (let i = 0; i < 4; i++) {
      await callAction(
        inquiryAction,
        formRequest(enquiry("many@example.com")),
        `192.0.2.${40 + i}`,
      );
    }
    const [held] = await database()
      .db.select()
      .from(inquiries)
      .where(eq(inquiries.spamReason, "recipient_limit"));
    const res = await post(inquiriesRoute.action, "/admin/inquiries", cookie, {
      intent: "release",
      id: held!.id,
    });
    expect(res.status).toBe(200);
    expect((await outboxOf({ inquiryId: held!.id })).map((m) => m.kind)).toEqual([
      "admin_alert",
      "visitor_confirmation",
    ]);
  });

  it("the Newsletter screen: filter, release, delete", async () => {
    const cookie = await adminCookie();
    for (const email of ["one@example.com", "two@example.com"]) {
      await callAction(
        newsletterAction,
        formRequest({ email, ...withGuards({}), ...bot }, { path: "/newsletter" }),
      );
    }
    await callAction(
      newsletterAction,
      formRequest(withGuards({ email: "real@example.com" }), { path: "/newsletter" }),
    );
    const only = await subscriptionsScreen({ q: "", spam: "only", page: 1 });
    expect(only.items.map((s) => s.email).sort()).toEqual(["one@example.com", "two@example.com"]);
    expect(only.total).toBe(2);
    expect(only.stats).toMatchObject({ total: 1, suspected: 2 });
    expect((await subscriptionsScreen({ q: "", spam: "all", page: 1 })).total).toBe(3);
    expect(
      (await subscriptionsScreen({ q: "", spam: "none", page: 1 })).items.map((s) => s.email),
    ).toEqual(["real@example.com"]);

    const idOf = (email: string) => only.items.find((s) => s.email === email)!.id;
    const released = await post(newsletterRoute.action, "/admin/newsletter-subscriptions", cookie, {
      intent: "release",
      id: idOf("one@example.com"),
    });
    expect(released).toMatchObject({
      status: 200,
      body: { ok: true, message: "Subscription released" },
    });
    const deleted = await post(newsletterRoute.action, "/admin/newsletter-subscriptions", cookie, {
      intent: "delete",
      id: idOf("two@example.com"),
    });
    expect(deleted).toMatchObject({
      status: 200,
      body: { ok: true, message: "Subscription deleted" },
    });
    expect((await activeSubscriberEmails()).sort()).toEqual([
      "one@example.com",
      "real@example.com",
    ]);
    const bad = await post(newsletterRoute.action, "/admin/newsletter-subscriptions", cookie, {
      intent: "release",
      id: "nope",
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { ok: false, message: "Failed to release subscription" },
    });
  });

  it("the Payments screen lists the mark, and Release sends the invoice request's e-mails", async () => {
    const cookie = await adminCookie();
    const course = await insertCourse();
    await submitCheckout(
      course.slug,
      checkoutForm({
        intent: "invoice",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        ...bot,
      }),
      "198.51.100.8",
    );
    const [order] = await database().db.select().from(orders);
    const listed = (await paymentsRoute.loader({
      request: new Request(`${origin}/admin/payments`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    } as never)) as { items: { id: string; spamReason: string | null }[] };
    expect(listed.items.map((o) => [o.id, o.spamReason])).toEqual([[order!.id, "honeypot"]]);

    const res = await post(paymentsRoute.action, "/admin/payments", cookie, {
      intent: "release",
      orderId: order!.id,
    });
    expect(res).toMatchObject({ status: 200, body: { ok: true, released: true } });
    const mails = await outboxOf({ orderId: order!.id });
    expect(mails.map((m) => [m.kind, m.toAddress])).toEqual([
      ["invoice_request_alert", config.adminEmails.join(", ")],
      ["invoice_request_confirmation", "ada@example.com"],
    ]);
    const [after] = await database().db.select().from(orders);
    expect(after!.spamReason).toBeNull();
    const twice = await post(paymentsRoute.action, "/admin/payments", cookie, {
      intent: "release",
      orderId: order!.id,
    });
    expect(twice).toMatchObject({ status: 404, body: { ok: false } });
  });
});
