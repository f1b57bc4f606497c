import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import { ACCESS_MESSAGES } from "#app/lib/orders/access-details.ts";
import { db } from "#server/db/client.server.ts";
import { accessDetails, auditLog, emailOutbox } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, insertCourse, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Access details of on-demand courses, from the order page: e-mailed to a student from the text
 * staff completed, or recorded as sent another way; only for a paid order without a date, only
 * to a student the order names; kept per place, on the timeline and in the audit log.
 */
useFreshDatabase();

const orderRoute = throughAdminLayout(orderModule);

const posts = useAdminPosts();

function post(orderId: string, fields: Record<string, string>) {
  return posts(orderRoute, `/admin/payments/${orderId}`, { orderId }, fields);
}

let courses = 0;

async function paidOrder(quantity: number, dated = false) {
  const course = await insertCourse({ title: "OSINT on Demand", slug: `osint-${++courses}` });
  const date = dated ? await insertCourseDate(course.id) : null;
  const placed = await placeOrder(course.id, "invoice", { quantity }, date?.id ?? null);
  if (!placed.ok) throw new Error("not placed");
  expect((await changeOrderStatusByAdmin(placed.order.id, "invoiced", ADMIN)).ok).toBe(true);
  expect((await changeOrderStatusByAdmin(placed.order.id, "paid", ADMIN)).ok).toBe(true);
  return placed.order;
}

describe("access details of an on-demand order", () => {
  it("e-mails a student the completed text, or records it sent another way", async () => {
    const order = await paidOrder(2);
    expect((await orderPage(order.id))!.access).toEqual({});

    const text = "Dear Student2,\n\nLink: https://learn.example.com/osint\nUsername: s2 <b>";
    const emailed = await post(order.id, { intent: "access", position: "2", mode: "email", text });
    expect(emailed).toMatchObject({
      status: 200,
      body: { ok: true, message: ACCESS_MESSAGES.emailed, position: "2" },
    });
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "access_details"));
    expect(mail).toMatchObject({ toAddress: "student2@example.com", orderId: order.id });
    expect(mail!.subject).toContain("OSINT on Demand");
    expect(mail!.text).toContain("Username: s2 <b>");
    expect(mail!.html).toContain("Username: s2 &lt;b&gt;");

    const recorded = await post(order.id, { intent: "access", position: "1", mode: "record" });
    expect(recorded.body).toMatchObject({ ok: true, message: ACCESS_MESSAGES.recorded });
    const page = (await orderPage(order.id))!;
    expect(page.access).toEqual({
      1: { sentAt: expect.any(String), sentBy: STAFF_EMAIL, emailed: false },
      2: { sentAt: expect.any(String), sentBy: STAFF_EMAIL, emailed: true },
    });
    expect(page.timeline.filter((e) => e.title === "Access details sent")).toHaveLength(2);
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "order.access"));
    expect(audits).toHaveLength(2);

    // Sent again: one row per place, the last sending standing.
    await post(order.id, { intent: "access", position: "1", mode: "email", text: "Again" });
    expect(await db().select().from(accessDetails)).toHaveLength(2);
    expect((await orderPage(order.id))!.access![1]).toMatchObject({ emailed: true });
  });

  it("refuses an empty e-mail, a place the order lacks, a dated or unpaid order; nothing sent", async () => {
    const order = await paidOrder(2);
    const empty = await post(order.id, {
      intent: "access",
      position: "1",
      mode: "email",
      text: " ",
    });
    expect(empty).toMatchObject({
      status: 400,
      body: { fieldErrors: { text: ACCESS_MESSAGES.textMissing }, values: { position: "1" } },
    });
    const beyond = await post(order.id, { intent: "access", position: "3", mode: "record" });
    expect(beyond).toMatchObject({ status: 409, body: { message: ACCESS_MESSAGES.unknownPlace } });

    const dated = await paidOrder(1, true);
    expect((await orderPage(dated.id))!.access).toBeNull();
    const onDate = await post(dated.id, { intent: "access", position: "1", mode: "record" });
    expect(onDate).toMatchObject({ status: 409, body: { message: ACCESS_MESSAGES.notOffered } });

    const course = await insertCourse({ slug: "unpaid-course" });
    const unpaid = await placeOrder(course.id, "invoice");
    if (!unpaid.ok) throw new Error("not placed");
    const early = await post(unpaid.order.id, { intent: "access", position: "1", mode: "record" });
    expect(early.status).toBe(409);
    expect(await db().select().from(accessDetails)).toEqual([]);
    expect(
      await db().select().from(emailOutbox).where(eq(emailOutbox.kind, "access_details")),
    ).toEqual([]);
  });

  it("the buyer attending themself is place 1", async () => {
    const order = await paidOrder(1);
    const answer = await post(order.id, {
      intent: "access",
      position: "1",
      mode: "email",
      text: "Your login",
    });
    expect(answer.body).toMatchObject({ ok: true });
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "access_details"));
    expect(mail!.toAddress).toBe(order.buyerEmail);
  });
});
