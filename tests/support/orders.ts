import { eq } from "drizzle-orm";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, orders } from "#server/db/schema.ts";
import type { CheckoutValues } from "#app/lib/checkout.ts";
import type { PaymentMethod } from "#app/lib/orders/orders.ts";
import { createOrder } from "#server/orders/create.server.ts";
import { BILLING, BILLING_FORM } from "#tests/support/checkout.ts";

/**
 * Courses, buyers and orders for server tests that sell places, written to the database the
 * test made current (`useFreshDatabase`).
 */

/** The course the shop tests sell: one factory for every server test (tests/support/factories.ts). */
export { insertCourse } from "./factories.ts";

/** The admin named on changes in these tests (the order timeline records who acted). */
export { ADMIN } from "./admin-session.ts";

/** The buyer of the checkout tests, as the checkout form posts them. */
export const BUYER = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "",
  company: "Analytical Engines Ltd",
};

/** `n` students booked by the buyer: Student1 Smith, Student2 Smith, … */
export const students = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    firstName: `Student${i + 1}`,
    lastName: "Smith",
    email: `student${i + 1}@example.com`,
  }));

/**
 * An order through `createOrder` as the checkout places it: the checkout buyer, a complete
 * billing address, the terms accepted and one place for the buyer themself (more places: booked
 * for `students(quantity)`), unless `values` says otherwise; on `courseDateId` when given.
 */
export function placeOrder(
  courseId: string,
  paymentMethod: PaymentMethod,
  values: Partial<CheckoutValues> = {},
  courseDateId: string | null = null,
) {
  const quantity = values.quantity ?? 1;
  return createOrder({
    courseId,
    courseDateId,
    paymentMethod,
    values: {
      buyer: BUYER,
      billing: BILLING,
      termsAccepted: true,
      studentMode: quantity === 1 ? "self" : "others",
      quantity,
      students: quantity === 1 ? [] : students(quantity),
      ...values,
    },
  });
}

export async function orderRow(id: string) {
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  return row!;
}

/** The e-mails queued for an order: their kind and recipient. */
export async function outboxOf(orderId: string) {
  return db()
    .select({ kind: emailOutbox.kind, to: emailOutbox.toAddress })
    .from(emailOutbox)
    .where(eq(emailOutbox.orderId, orderId));
}

/** Who an order's joining details went to, sorted (one e-mail per student). */
export function joiningRecipients(mails: { kind: string; to: string }[]) {
  return mails
    .filter((m) => m.kind === "course_joining_details")
    .map((m) => m.to)
    .sort();
}

/** A posted form of the given fields. */
export function formData(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

/** A posted checkout form: a complete billing address and the terms ticked, unless overridden. */
export function checkoutForm(fields: Record<string, string>) {
  return formData({ ...BILLING_FORM, ...fields });
}

/**
 * The checkout fields of buyer `n` booking `places` on `dateId`: the buyer's own place, or that
 * many named students of their own.
 */
export function datedBookingFields(n: number, dateId: string, places = 1): Record<string, string> {
  return {
    firstName: "Buyer",
    lastName: `Number${n}`,
    email: `buyer${n}@example.com`,
    courseDateId: dateId,
    ...(places === 1
      ? { studentMode: "self" }
      : {
          studentMode: "others",
          quantity: String(places),
          ...Object.fromEntries(
            Array.from({ length: places }, (_, i) => [
              [`students[${i}].firstName`, "Student"],
              [`students[${i}].lastName`, `${n}-${i}`],
              [`students[${i}].email`, `student${n}-${i}@example.com`],
            ]).flat(),
          ),
        }),
  };
}
