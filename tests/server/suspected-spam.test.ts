import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { config } from "#server/config.server.ts";
import { emailOutbox, inquiries, newsletterSubscriptions, orders } from "#server/db/schema.ts";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { createEnquiry } from "#server/inquiries/inquiries.server.ts";
import { activeSubscriberEmails, subscriptionStats } from "#server/newsletter/admin.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { BILLING } from "#tests/support/checkout.ts";
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
} from "#tests/support/suspected-spam.ts";

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

/** The footer's newsletter form, posted. */
const postNewsletter = (fields: Parameters<typeof formRequest>[0]) =>
  callAction(newsletterAction, formRequest(fields, { path: "/newsletter" }));

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
    const botPost = await postNewsletter({
      email: "Reader@Example.com",
      ...withGuards({}),
      ...bot,
    });
    expect(botPost).toMatchObject({ status: 200, body: { ok: true, form: "newsletter" } });
    const [held] = await database().db.select().from(newsletterSubscriptions);
    expect(held).toMatchObject({ email: "reader@example.com", spamReason: "honeypot" });
    expect(await subscriptionStats()).toMatchObject({ total: 0, active: 0, suspected: 1 });
    expect(await activeSubscriberEmails()).toEqual([]);

    // The same address again from the bot: the row is there, so the usual answer.
    const again = await postNewsletter({ email: "reader@example.com", ...withGuards({}), ...bot });
    expect(again).toMatchObject({ status: 409, body: { ok: false, reason: "duplicate" } });

    // A person subscribing the address is subscribed, not told 'already subscribed'.
    const real = await postNewsletter(withGuards({ email: "READER@example.com" }));
    expect(real).toMatchObject({ status: 200, body: { ok: true, form: "newsletter" } });
    const rows = await database().db.select().from(newsletterSubscriptions);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: held!.id, spamReason: null, isActive: true });
    expect(await subscriptionStats()).toMatchObject({ total: 1, active: 1, suspected: 0 });
    expect(await activeSubscriberEmails()).toEqual(["reader@example.com"]);

    // Now it is a real subscription: a second real sign-up is 'already subscribed'.
    const duplicate = await postNewsletter(withGuards({ email: "reader@example.com" }));
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

  it("counts one mailbox whatever its +tag: victim+1@, victim+2@ and victim@ share the limit", async () => {
    for (const email of [
      "victim+1@example.com",
      "Victim+news@example.com",
      "victim@example.com",
      "victim+4@example.com",
    ]) {
      await callAction(inquiryAction, formRequest(enquiry(email)), "192.0.2.9");
    }
    const rows = await database().db.select().from(inquiries).orderBy(inquiries.createdAt);
    expect(rows.map((r) => r.spamReason)).toEqual([null, null, null, "recipient_limit"]);
    // Another mailbox at the same domain has a limit of its own.
    await callAction(inquiryAction, formRequest(enquiry("victim2+1@example.com")));
    const [other] = await database()
      .db.select()
      .from(inquiries)
      .where(eq(inquiries.email, "victim2+1@example.com"));
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
