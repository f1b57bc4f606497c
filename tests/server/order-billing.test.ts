import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as orderModule from "#app/routes/admin/order.tsx";
import {
  BILLING_LOCKED,
  REISSUE_CONFIRM_MESSAGE,
  REISSUE_NOT_INVOICED,
} from "#app/lib/orders/billing-form.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, orderDocuments, orderEvents } from "#server/db/schema.ts";
import { currentInvoice } from "#server/invoices/documents.server.ts";
import { type DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { drawDocumentPdf } from "#server/invoices/pdf.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { orderPage } from "#server/orders/order-page.server.ts";
import { STAFF_EMAIL, useAdminPosts } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { pdfText } from "#tests/support/pdf-text.ts";
import { ADMIN, insertCourse, orderRow, placeOrder } from "#tests/support/orders.ts";
import { throughAdminLayout } from "#tests/support/route-middleware.ts";

/**
 * Correcting an order's billing details on its admin page: edited until the invoice is issued
 * (the invoice prints them; an issued document is never edited), with the checkout's rules,
 * recorded on the timeline and in the audit log. After, only "Correct and re-issue": the unpaid
 * invoice credited in full and a corrected one issued in its place, both e-mailed.
 */
useFreshDatabase();

const orderRoute = throughAdminLayout(orderModule);

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

const posts = useAdminPosts();

/** `fields` posted to the order's page as the signed-in admin: status and body. */
function post(orderId: string, fields: Record<string, string>) {
  return posts(orderRoute, `/admin/payments/${orderId}`, { orderId }, fields);
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
    expect(page!.billingForm).toMatchObject({ stored: { poNumber: "PO-77120" }, reissues: null });
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

  it("after the invoice is issued: a plain edit is refused, the invoice's details kept", async () => {
    const order = await newOrder();
    const invoiced = await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    expect(invoiced.ok).toBe(true);
    const before = await orderRow(order.id);
    const answer = await post(order.id, CORRECTED);
    expect(answer).toMatchObject({ status: 409, body: { ok: false, message: BILLING_LOCKED } });
    expect(await orderRow(order.id)).toEqual(before);
    const invoice = await currentInvoice(db(), order.id);
    expect((await orderPage(order.id))!.billingForm).toMatchObject({ reissues: invoice!.number });
  });

  it("correct and re-issue: the invoice credited in full, a corrected one in its place, both e-mailed", async () => {
    const order = await newOrder();
    expect((await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).ok).toBe(true);
    const first = (await currentInvoice(db(), order.id))!;
    const REISSUE = { ...CORRECTED, reissue: "1" };

    // Not confirmed: refused with its message, nothing issued.
    const unconfirmed = await post(order.id, REISSUE);
    expect(unconfirmed).toMatchObject({
      status: 400,
      body: { ok: false, fieldErrors: { confirm_reissue: REISSUE_CONFIRM_MESSAGE } },
    });
    expect((await currentInvoice(db(), order.id))!.id).toBe(first.id);

    const answer = await post(order.id, { ...REISSUE, confirm_reissue: "on" });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, form: "billing" } });
    const second = (await currentInvoice(db(), order.id))!;
    expect(second.id).not.toBe(first.id);
    expect(answer.body.message).toBe(
      `Invoice ${second.number} issued in place of ${first.number} (credited by ${
        (await creditNotesOf(first.id))[0]!.number
      }) and e-mailed to the buyer`,
    );
    // The new invoice: the corrected details, the same money and time of supply.
    const old = first.snapshot as DocumentSnapshot;
    const now = second.snapshot as DocumentSnapshot;
    expect(second).toMatchObject({
      kind: "invoice",
      replacesDocumentId: first.id,
      totalAmountCents: first.totalAmountCents,
      vatAmountCents: first.vatAmountCents,
    });
    expect(now.customer).toMatchObject({
      organisation: "Harbour Bank plc",
      poNumber: "PO-77120",
      vatNumber: "GB123456789",
      addressLines: ["2 Quay Street", "Bristol", "BS1 4DJ", "United Kingdom"],
    });
    expect(now.replaces).toEqual({
      number: first.number,
      issuedAt: old.issuedAt,
      title: old.title,
    });
    expect(now.timeOfSupply).toBe(old.timeOfSupply);
    expect(now.lines).toEqual(old.lines);
    const printed = await pdfText(await drawDocumentPdf(now));
    expect(printed).toContain(`Replaces invoice ${first.number}`);
    expect(printed).toContain("PO-77120");
    // The old one, untouched, credited in full by one credit note.
    const [stillFirst] = await db()
      .select()
      .from(orderDocuments)
      .where(eq(orderDocuments.id, first.id));
    expect(stillFirst).toEqual(first);
    const credits = await creditNotesOf(first.id);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({
      totalAmountCents: first.totalAmountCents,
      vatAmountCents: first.vatAmountCents,
    });
    // Both e-mailed to the buyer, each with its document.
    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.orderId, order.id))
      .orderBy(emailOutbox.createdAt);
    const sent = mails.filter((m) => m.documentId === credits[0]!.id || m.documentId === second.id);
    expect(sent.map((m) => [m.kind, m.toAddress])).toEqual([
      ["invoice_credited", order.buyerEmail],
      ["invoice_issued", order.buyerEmail],
    ]);
    expect(sent[1]!.text).toContain(`It replaces invoice ${first.number}`);
    // Recorded, and the order page offers to correct the new one.
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, order.id), eq(auditLog.action, "order.reissue")));
    expect(audit!.before).toMatchObject({ invoice: first.number });
    expect(audit!.after).toMatchObject({ invoice: second.number, poNumber: "PO-77120" });
    const page = (await orderPage(order.id))!;
    expect(page.billingForm).toMatchObject({ reissues: second.number });
    expect(page.timeline.map((e) => e.detail).join("\n")).toContain(
      `Invoice ${second.number} issued in place of ${first.number}`,
    );

    // Cancelling now credits the invoice in force, not the replaced one again.
    expect((await changeOrderStatusByAdmin(order.id, "canceled", ADMIN)).ok).toBe(true);
    expect(await creditNotesOf(first.id)).toHaveLength(1);
    expect(await creditNotesOf(second.id)).toHaveLength(1);
    expect((await orderPage(order.id))!.billingForm).toBeNull();
  });

  it("a paid invoice is not re-issued", async () => {
    const order = await newOrder();
    expect((await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN)).ok).toBe(true);
    expect((await changeOrderStatusByAdmin(order.id, "paid", ADMIN)).ok).toBe(true);
    const before = await orderRow(order.id);
    const answer = await post(order.id, { ...CORRECTED, reissue: "1", confirm_reissue: "on" });
    expect(answer).toMatchObject({ status: 409, body: { message: REISSUE_NOT_INVOICED } });
    expect(await orderRow(order.id)).toEqual(before);
    expect((await orderPage(order.id))!.billingForm).toBeNull();
  });

  it("an unknown order is not found", async () => {
    const answer = await post("00000000-0000-4000-8000-000000000000", CORRECTED);
    expect(answer.status).toBe(404);
  });
});

/** The credit notes issued against a document. */
function creditNotesOf(documentId: string) {
  return db().select().from(orderDocuments).where(eq(orderDocuments.creditsDocumentId, documentId));
}
