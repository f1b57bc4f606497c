import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import * as inquiriesRoute from "#app/routes/admin/inquiries.tsx";
import * as newsletterRoute from "#app/routes/admin/newsletter-subscriptions.tsx";
import * as paymentsRoute from "#app/routes/admin/payments.tsx";
import { HONEYPOT_FIELD } from "#app/lib/inquiry-schemas.ts";
import { parseInquiryFilters } from "#app/lib/admin-inquiries.ts";
import { config } from "#server/config.server.ts";
import {
  courses,
  emailOutbox,
  inquiries,
  newsletterSubscriptions,
  orders,
} from "#server/db/schema.ts";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { createEnquiry } from "#server/inquiries.server.ts";
import { inquiriesScreen, latestInquiries } from "#server/inquiry-admin.server.ts";
import {
  activeSubscriberEmails,
  subscriptionStats,
  subscriptionsScreen,
} from "#server/newsletter.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { adminCookie } from "#tests/support/admin-session.ts";
import { BILLING, BILLING_FORM } from "#tests/support/checkout.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { callAction, formRequest, withGuards } from "#tests/support/forms.ts";

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

const enquiry = (email: string, extra: Record<string, string> = {}) =>
  withGuards({
    form: "enquiry",
    form_id: "contact-form",
    name: "Jane Doe",
    email,
    company: "",
    phone: "",
    service: "dark-web-monitoring",
    message: "Please call me about monitoring.",
    ...extra,
  });

const licence = (email: string, extra: Record<string, string> = {}) =>
  withGuards({
    form: "licence",
    form_id: "licence-form",
    name: "Lee Jones",
    email,
    company: "Police",
    phone: "",
    licence_count: "11-25",
    use_case: "law-enforcement",
    message: "",
    ...extra,
  });

const bot = { [HONEYPOT_FIELD]: "http://cheap-pills.example" };

async function outboxOf(where: { inquiryId?: string; orderId?: string }) {
  const { db } = database();
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(
      where.inquiryId
        ? eq(emailOutbox.inquiryId, where.inquiryId)
        : eq(emailOutbox.orderId, where.orderId!),
    )
    .orderBy(emailOutbox.kind);
  return rows;
}

async function countOf(table: typeof inquiries | typeof emailOutbox | typeof orders) {
  const [row] = await database()
    .db.select({ n: sql<number>`count(*)::int` })
    .from(table);
  return row!.n;
}

async function insertCourse() {
  const [course] = await database()
    .db.insert(courses)
    .values({ slug: "osint", title: "OSINT Masterclass", status: "published", price: "450.00" })
    .returning();
  return course!;
}

/** A posted checkout form: a complete billing address and the terms ticked, unless overridden. */
function checkoutForm(fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries({ ...BILLING_FORM, ...fields })) body.append(k, v);
  return body;
}

/* Admin routes, signed in as an admin (adminCookie). */

type RouteAction = (args: never) => Promise<unknown>;

async function post(
  action: RouteAction,
  path: string,
  cookie: string,
  body: Record<string, string> | string,
): Promise<{ status: number; body: { ok: boolean; message?: string } }> {
  const headers: Record<string, string> = { Origin: origin, Cookie: cookie };
  let payload: BodyInit;
  if (typeof body === "string") {
    headers["Content-Type"] = "application/json";
    payload = body;
  } else {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(body).toString();
  }
  const request = new Request(`${origin}${path}`, { method: "POST", headers, body: payload });
  const result = (await action({ request, params: {}, context: {} } as never)) as {
    data: { ok: boolean; message?: string };
    init?: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, body: result.data };
}

describe("honeypot posts are stored, marked, and send nothing", () => {
  it("enquiry and licence forms: answered as usual, kept with spam_reason 'honeypot'", async () => {
    const a = await callAction(inquiryAction, formRequest({ ...enquiry("a@example.com"), ...bot }));
    const b = await callAction(inquiryAction, formRequest({ ...licence("b@example.com"), ...bot }));
    expect(a).toMatchObject({ status: 200, body: { ok: true, form: "enquiry" } });
    expect(b).toMatchObject({ status: 200, body: { ok: true, form: "licence" } });
    const rows = await database().db.select().from(inquiries).orderBy(inquiries.email);
    expect(rows.map((r) => [r.email, r.spamReason])).toEqual([
      ["a@example.com", "honeypot"],
      ["b@example.com", "honeypot"],
    ]);
    expect(await countOf(emailOutbox)).toBe(0);
  });

  it("a honeypot post with bad fields gets the usual field errors and stores nothing", async () => {
    const res = await callAction(
      inquiryAction,
      formRequest({ ...enquiry("not-an-address"), ...bot }),
    );
    expect(res).toMatchObject({ status: 400, body: { ok: false, reason: "invalid" } });
    expect(await countOf(inquiries)).toBe(0);
  });

  it("newsletter: kept marked, not counted or exported; a real sign-up later clears the mark", async () => {
    const botPost = await callAction(
      newsletterAction,
      formRequest(
        { email: "Reader@Example.com", ...withGuards({}), ...bot },
        { path: "/newsletter" },
      ),
    );
    expect(botPost).toMatchObject({ status: 200, body: { ok: true, form: "newsletter" } });
    const [held] = await database().db.select().from(newsletterSubscriptions);
    expect(held).toMatchObject({ email: "reader@example.com", spamReason: "honeypot" });
    expect(await subscriptionStats()).toMatchObject({ total: 0, active: 0, suspected: 1 });
    expect(await activeSubscriberEmails()).toEqual([]);

    // The same address again from the bot: the row is there, so the usual answer.
    const again = await callAction(
      newsletterAction,
      formRequest(
        { email: "reader@example.com", ...withGuards({}), ...bot },
        { path: "/newsletter" },
      ),
    );
    expect(again).toMatchObject({ status: 409, body: { ok: false, reason: "duplicate" } });

    // A person subscribing the address is subscribed, not told 'already subscribed'.
    const real = await callAction(
      newsletterAction,
      formRequest(withGuards({ email: "READER@example.com" }), { path: "/newsletter" }),
    );
    expect(real).toMatchObject({ status: 200, body: { ok: true, form: "newsletter" } });
    const rows = await database().db.select().from(newsletterSubscriptions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: held!.id, spamReason: null, isActive: true });
    expect(await subscriptionStats()).toMatchObject({ total: 1, active: 1, suspected: 0 });
    expect(await activeSubscriberEmails()).toEqual(["reader@example.com"]);

    // Now it is a real subscription: a second real sign-up is 'already subscribed'.
    const duplicate = await callAction(
      newsletterAction,
      formRequest(withGuards({ email: "reader@example.com" }), { path: "/newsletter" }),
    );
    expect(duplicate).toMatchObject({ status: 409, body: { reason: "duplicate" } });
  });

  it("checkout: a card post with the honeypot filled is an invoice request held, no Stripe session, no e-mail", async () => {
    const course = await insertCourse();
    const stripeCalls = fake.requests.length;
    const outcome = await submitCheckout(
      course.slug,
      checkoutForm({
        intent: "card",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        ...bot,
      }),
      "198.51.100.7",
    );
    expect(outcome.kind).toBe("invoice");
    expect(fake.requests.length).toBe(stripeCalls);
    const [order] = await database().db.select().from(orders);
    expect(order).toMatchObject({
      paymentMethod: "invoice",
      status: "pending",
      spamReason: "honeypot",
      stripeCheckoutSessionId: null,
    });
    expect(await countOf(emailOutbox)).toBe(0);
  });
});

describe("the per-recipient limit on confirmation e-mails", () => {
  it("the 4th confirmation to one address within the hour, from other clients, is held and staff are alerted", async () => {
    const ips = ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"];
    const casings = ["victim@example.com", "Victim@Example.com", "VICTIM@example.com"];
    for (const [i, ip] of ips.entries()) {
      const res = await callAction(
        inquiryAction,
        formRequest(enquiry(casings[i % casings.length]!)),
        ip,
      );
      expect(res).toMatchObject({ status: 200, body: { ok: true } });
    }
    const rows = await database().db.select().from(inquiries).orderBy(inquiries.createdAt);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r.spamReason)).toEqual([null, null, null, "recipient_limit"]);
    for (const row of rows.slice(0, 3)) {
      expect((await outboxOf({ inquiryId: row.id })).map((m) => m.kind)).toEqual([
        "admin_alert",
        "visitor_confirmation",
      ]);
    }
    const held = await outboxOf({ inquiryId: rows[3]!.id });
    expect(held.map((m) => [m.kind, m.toAddress])).toEqual([
      ["admin_alert", config.adminEmails.join(", ")],
    ]);
    expect(held[0]!.subject).toMatch(/^\[Held\] New inquiry/);
    expect(held[0]!.text).toContain("HELD. Held as suspected spam");
    expect(held[0]!.html).toContain("<strong>Held.</strong>");

    // Another address is not affected.
    await callAction(inquiryAction, formRequest(enquiry("someone.else@example.com")));
    const [other] = await database()
      .db.select()
      .from(inquiries)
      .where(eq(inquiries.email, "someone.else@example.com"));
    expect(other!.spamReason).toBeNull();
  });

  it("counts every kind of confirmation: an invoice request after three enquiries is held too", async () => {
    const course = await insertCourse();
    for (let i = 0; i < 3; i++) await createEnquiry(enquiryInput("buyer@example.com"));
    const created = await createOrder({
      courseId: course.id,
      paymentMethod: "invoice",
      values: {
        buyer: {
          firstName: "Bea",
          lastName: "Buyer",
          email: "buyer@example.com",
          phone: "",
          company: "Buyer Ltd",
        },
        billing: BILLING,
        termsAccepted: true,
        studentMode: "self",
        quantity: 1,
        students: [],
      },
    });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.order.spamReason).toBe("recipient_limit");
    const mails = await outboxOf({ orderId: created.order.id });
    expect(mails.map((m) => m.kind)).toEqual(["invoice_request_alert"]);
    expect(mails[0]!.subject).toMatch(/^\[Held\] Invoice requested/);
  });

  it("holds the limit under concurrent posts: six at once give exactly three confirmations", async () => {
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        callAction(inquiryAction, formRequest(enquiry("rush@example.com")), `192.0.2.${20 + i}`),
      ),
    );
    const [confirmations] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "visitor_confirmation"));
    expect(confirmations!.n).toBe(3);
    const held = await database()
      .db.select()
      .from(inquiries)
      .where(eq(inquiries.spamReason, "recipient_limit"));
    expect(held).toHaveLength(3);
  });

  it("a confirmation greets by a short name and does not quote the message; staff get it all", async () => {
    const longName = `Dr ${"Spam".repeat(45)}`;
    const message = "Buy cheap pills at http://pills.example — limited offer!";
    const res = await callAction(
      inquiryAction,
      formRequest(enquiry("reader2@example.com", { name: longName, message })),
    );
    expect(res.status).toBe(200);
    const [row] = await database().db.select().from(inquiries);
    const [alert, confirmation] = await outboxOf({ inquiryId: row!.id });
    expect(confirmation!.kind).toBe("visitor_confirmation");
    expect(confirmation!.text).toContain(`Dear ${longName.slice(0, 39)}…,`);
    expect(confirmation!.text).not.toContain(longName);
    expect(confirmation!.text).not.toContain("pills");
    expect(confirmation!.html).not.toContain("pills");
    expect(alert!.text).toContain(longName);
    expect(alert!.text).toContain(message);
  });
});

function enquiryInput(email: string) {
  return {
    name: "Jane Doe",
    email,
    company: null,
    phone: null,
    service: null,
    message: "Hello",
  };
}

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
