import { expect } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { db } from "#server/db/client.server.ts";
import { courses, emailOutbox, orderDocuments, orders } from "#server/db/schema.ts";
import type { OutboxWorker } from "#server/email/worker.server.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { BILLING as CHECKOUT_BILLING } from "#tests/support/checkout.ts";
import { insertCourse } from "#tests/support/orders.ts";

/**
 * Invoices, receipts and credit notes in server tests: orders with the billing details an
 * invoice prints, and the documents and e-mails issued for them.
 */

export const YEAR = new Date().getUTCFullYear();

/** A document's number as the site prints it: `INV-2026-0001`. */
export const number = (series: string, n: number, year = YEAR) =>
  `${series}-${year}-${String(n).padStart(4, "0")}`;

/** The billing details the invoice prints, as the order stores them. */
const BILLING = {
  billingOrganisation: "Analytical Engines Ltd",
  billingAddressLine1: "2 Babbage Row",
  billingAddressLine2: "Floor 3",
  billingTown: "Cambridge",
  billingPostcode: "CB2 1TN",
  billingCountry: "United Kingdom",
  poNumber: "PO-77812",
  buyerVatNumber: "GB987654321",
};

/** An order as the checkout stores it, with the billing details the invoice prints. */
export async function placeOrder(
  options: { method?: "invoice" | "stripe"; quantity?: number; email?: string } = {},
) {
  const [existing] = await db().select().from(courses);
  const course = existing ?? (await insertCourse({ durationHours: null }));
  const quantity = options.quantity ?? 3;
  const created = await createOrder({
    courseId: course.id,
    paymentMethod: options.method ?? "invoice",
    values: {
      buyer: {
        firstName: "Ada",
        lastName: "Lovelace",
        email: options.email ?? "ada@example.com",
        phone: "",
        company: "Analytical Engines",
      },
      studentMode: "others",
      billing: CHECKOUT_BILLING,
      termsAccepted: true,
      quantity,
      students: [
        { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" },
        { firstName: "Alan", lastName: "Turing", email: "alan@example.com" },
        { firstName: "Katherine", lastName: "Johnson", email: "katherine@example.com" },
      ].slice(0, quantity),
    },
  });
  if (!created.ok) throw new Error(`order not created: ${JSON.stringify(created)}`);
  const [order] = await db()
    .update(orders)
    .set(BILLING)
    .where(eq(orders.id, created.order.id))
    .returning();
  return order!;
}

export async function documents(orderId: string) {
  return db()
    .select()
    .from(orderDocuments)
    .where(eq(orderDocuments.orderId, orderId))
    .orderBy(asc(orderDocuments.number));
}

/** An order's only document (that it has no other is part of the test). */
export async function onlyDocument(orderId: string) {
  const [document, ...others] = await documents(orderId);
  expect(others).toEqual([]);
  return document;
}

/** The e-mails queued for an order (of one kind, when given). */
export async function mails(orderId: string, kind?: string) {
  return db()
    .select()
    .from(emailOutbox)
    .where(
      kind
        ? and(eq(emailOutbox.orderId, orderId), eq(emailOutbox.kind, kind))
        : eq(emailOutbox.orderId, orderId),
    );
}

export async function drain(worker: OutboxWorker) {
  while ((await worker.runOnce()) > 0) {
    // until nothing is due
  }
}
