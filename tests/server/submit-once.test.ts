import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newSubmissionKey, SUBMISSION_KEY_FIELD } from "#app/lib/forms.ts";
import {
  emailOutbox,
  formSubmissions,
  inquiries,
  newsletterSubscriptions,
  orders,
} from "#server/db/schema.ts";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { removeOldSubmissions } from "#server/forms/submit-once.server.ts";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import { submitCheckout } from "#server/payments/checkout.server.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourse } from "#tests/support/factories.ts";
import { callAction, formRequest, freshIp, withGuards } from "#tests/support/forms.ts";

/**
 * One submission, one result (server/forms/submit-once.server.ts): the same post with the same
 * key — sent three times at once, or again later — creates one order, inquiry or subscription and
 * answers every copy with the first answer; another post, or the same key on different content
 * (a page served from the cache to someone else), is its own.
 */
const database = useFreshDatabase();

const count = async (table: typeof orders | typeof inquiries | typeof emailOutbox) =>
  Number(
    (
      await database()
        .db.select({ n: sql<number>`count(*)::int` })
        .from(table)
    )[0]!.n,
  );

function checkoutForm(key: string, email = "ada@example.com") {
  const form = new FormData();
  const fields = {
    intent: "invoice",
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    ...BILLING_FORM,
    [SUBMISSION_KEY_FIELD]: key,
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe("one submission, one result", () => {
  it("the same checkout posted three times at once: one order, its two e-mails, one answer", async () => {
    const course = await insertCourse({ slug: "once", price: "295.00" });
    const key = newSubmissionKey();
    const client = freshIp();
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => submitCheckout(course.slug, checkoutForm(key), client)),
    );
    expect(await count(orders)).toBe(1);
    // The staff alert and the buyer's confirmation, once.
    expect(await count(emailOutbox)).toBe(2);
    const [order] = await database().db.select({ id: orders.id }).from(orders);
    for (const outcome of outcomes)
      expect(outcome).toEqual({ kind: "invoice", orderId: order!.id });

    // Back and resubmit, later: the same answer still.
    expect(await submitCheckout(course.slug, checkoutForm(key), freshIp())).toEqual({
      kind: "invoice",
      orderId: order!.id,
    });
    expect(await count(orders)).toBe(1);
    // The same key with other content (someone else on the cached page) is another order.
    const other = await submitCheckout(course.slug, checkoutForm(key, "grace@example.com"), client);
    expect(other).toMatchObject({ kind: "invoice" });
    expect(await count(orders)).toBe(2);
  });

  it("a refused post lets its key go: corrected, the same key goes through", async () => {
    const course = await insertCourse({ slug: "once-fix", price: "295.00" });
    const key = newSubmissionKey();
    const broken = checkoutForm(key);
    broken.set("town", "");
    expect(await submitCheckout(course.slug, broken, freshIp())).toMatchObject({
      kind: "problem",
      status: 400,
    });
    expect(await database().db.select().from(formSubmissions)).toHaveLength(0);
    expect(await submitCheckout(course.slug, checkoutForm(key), freshIp())).toMatchObject({
      kind: "invoice",
    });
    expect(await count(orders)).toBe(1);
  });

  it("an enquiry sent three times at once is one inquiry; each copy is told it was sent", async () => {
    const fields = withGuards({
      form: "enquiry",
      form_id: "contact-form",
      name: "Jane",
      email: "jane@example.com",
      service: "counter-fraud-training",
      message: "Hello",
      [SUBMISSION_KEY_FIELD]: newSubmissionKey(),
    });
    const answers = await Promise.all(
      [1, 2, 3].map(() => callAction(inquiryAction, formRequest(fields))),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const answer of answers) {
      expect(answer.body).toMatchObject({ ok: true, form: "enquiry", formId: "contact-form" });
    }
    expect(await count(inquiries)).toBe(1);
    // Without a key (an old page) each post is its own.
    const { [SUBMISSION_KEY_FIELD]: _key, ...keyless } = fields;
    await callAction(inquiryAction, formRequest(keyless));
    expect(await count(inquiries)).toBe(2);
  });

  it("a newsletter sign-up clicked twice is told 'subscribed' twice, not 'already subscribed'", async () => {
    const fields = withGuards({
      email: "reader@example.com",
      consent: "on",
      [SUBMISSION_KEY_FIELD]: newSubmissionKey(),
    });
    const post = () =>
      callAction(newsletterAction as never, formRequest(fields, { path: "/newsletter" }));
    const first = await post();
    const second = await post();
    expect(first.status).toBe(200);
    expect(second).toMatchObject({ status: 200, body: first.body });
    const rows = await database()
      .db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, "reader@example.com"));
    expect(rows).toHaveLength(1);
  });

  it("answers past their day are cleared by the hourly housekeeping; a repeat then creates anew", async () => {
    const course = await insertCourse({ slug: "once-old", price: "295.00" });
    const key = newSubmissionKey();
    expect(await submitCheckout(course.slug, checkoutForm(key), freshIp())).toMatchObject({
      kind: "invoice",
    });
    const { db } = database();
    await db.update(formSubmissions).set({ createdAt: new Date(Date.now() - 25 * 3_600_000) });
    expect(await removeOldSubmissions()).toBe(1);
    expect(await db.select().from(formSubmissions)).toHaveLength(0);
    await submitCheckout(course.slug, checkoutForm(key), freshIp());
    expect(await count(orders)).toBe(2);
  });
});
