import { z } from "zod/mini";
import type { OrderStatus } from "./orders.ts";

/**
 * The checkout form's rules (spec §4 'Checkout', §5 'Checkout', §8 'Payment failure'). The
 * browser runs them before posting; the server runs the same ones on the posted body, and only
 * the server's answer counts. Safe on both sides: no server imports here.
 */

export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 10;

/** Who attends: the buyer ('self', one place, no student list) or named colleagues ('others'). */
export type StudentMode = "self" | "others";

export interface CheckoutBuyer {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
}

export interface CheckoutStudent {
  firstName: string;
  lastName: string;
  email: string;
}

/** The form as typed (strings trimmed); `quantity` is NaN when the post held no number. */
export interface CheckoutValues {
  buyer: CheckoutBuyer;
  studentMode: StudentMode;
  quantity: number;
  students: CheckoutStudent[];
}

/** A message shown as a toast (with JavaScript) or an alert in the page (without). */
export interface CheckoutMessage {
  title: string;
  description: string;
}

export const MESSAGES = {
  missingBilling: {
    title: "Missing Information",
    description: "Please fill in all required billing information",
  },
  invalidBillingEmail: {
    title: "Missing Information",
    description: "Please enter a valid billing email address",
  },
  missingStudent: (n: number): CheckoutMessage => ({
    title: "Missing Student Information",
    description: `Please fill in all details for student ${n}`,
  }),
  invalidStudentEmail: (n: number): CheckoutMessage => ({
    title: "Missing Student Information",
    description: `Please enter a valid email address for student ${n}`,
  }),
  invalidQuantity: {
    title: "Invalid Quantity",
    description: `You can book between ${MIN_QUANTITY} and ${MAX_QUANTITY} places online. For bigger groups, book a classroom class.`,
  },
  paymentError: {
    title: "Payment Error",
    description: "There was an error processing your request. Please try again.",
  },
  invoiceRequested: {
    title: "Invoice Requested",
    description: "Your booking has been submitted. We'll send you an invoice shortly.",
  },
  notForSale: {
    title: "Not Available Online",
    description: "This course has no online price. Please ask us for a quote.",
  },
  cardUnavailable: {
    title: "Card Payments Unavailable",
    description: "Card payments are not available at the moment. Please request a manual invoice.",
  },
} as const;

/** Field names of the posted form (also used by the page's inputs). */
export const FIELD = {
  intent: "intent",
  firstName: "firstName",
  lastName: "lastName",
  email: "email",
  phone: "phone",
  company: "company",
  studentMode: "studentMode",
  quantity: "quantity",
  /** Set by the page once JavaScript runs: the answer is JSON instead of a redirect. */
  enhanced: "enhanced",
  student: (i: number, part: keyof CheckoutStudent) => `students[${i}].${part}`,
} as const;

/** What the buttons post: pay by card, ask for an invoice, or (without JS) redraw the student list. */
export type CheckoutIntent = "card" | "invoice" | "update";

const LIMITS = { name: 200, email: 254, phone: 50, company: 200 } as const;

// Control characters (newlines, tabs) become spaces: names end up in e-mail headers and tables.
const clean = (value: unknown, max: number) =>
  typeof value === "string"
    ? value
        .replace(/[\u0000-\u001f\u007f]+/g, " ")
        .trim()
        .slice(0, max)
    : "";

const emailSchema = z.email();

export function isValidEmail(email: string): boolean {
  return email.length <= LIMITS.email && emailSchema.safeParse(email).success;
}

/** Reads the posted form. Nothing here throws: odd input becomes empty strings or NaN. */
export function readCheckoutForm(form: FormData): {
  intent: CheckoutIntent;
  values: CheckoutValues;
} {
  const get = (name: string) => form.get(name);
  const intentValue = get(FIELD.intent);
  const intent: CheckoutIntent =
    intentValue === "card" || intentValue === "update" ? intentValue : "invoice";
  const studentMode: StudentMode = get(FIELD.studentMode) === "others" ? "others" : "self";
  const quantityText = clean(get(FIELD.quantity), 10);
  const quantity = /^\d{1,3}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
  const students: CheckoutStudent[] = [];
  // Read at most MAX_QUANTITY blocks, whatever the post claims.
  for (let i = 0; i < MAX_QUANTITY; i++) {
    const firstName = get(FIELD.student(i, "firstName"));
    const lastName = get(FIELD.student(i, "lastName"));
    const email = get(FIELD.student(i, "email"));
    if (firstName === null && lastName === null && email === null) continue;
    students[i] = {
      firstName: clean(firstName, LIMITS.name),
      lastName: clean(lastName, LIMITS.name),
      email: clean(email, LIMITS.email).toLowerCase(),
    };
  }
  return {
    intent,
    values: {
      buyer: {
        firstName: clean(get(FIELD.firstName), LIMITS.name),
        lastName: clean(get(FIELD.lastName), LIMITS.name),
        email: clean(get(FIELD.email), LIMITS.email).toLowerCase(),
        phone: clean(get(FIELD.phone), LIMITS.phone),
        company: clean(get(FIELD.company), LIMITS.company),
      },
      studentMode,
      quantity: studentMode === "self" ? 1 : quantity,
      students: studentMode === "self" ? [] : Array.from(students, (s) => s ?? emptyStudent()),
    },
  };
}

export function emptyStudent(): CheckoutStudent {
  return { firstName: "", lastName: "", email: "" };
}

/** The student list for a quantity: kept entries first, blank blocks to fill the rest. */
export function resizeStudents(
  students: readonly CheckoutStudent[],
  quantity: number,
): CheckoutStudent[] {
  const n = clampQuantity(quantity);
  return Array.from({ length: n }, (_, i) => students[i] ?? emptyStudent());
}

export function clampQuantity(quantity: number): number {
  if (!Number.isFinite(quantity)) return MIN_QUANTITY;
  return Math.min(MAX_QUANTITY, Math.max(MIN_QUANTITY, Math.trunc(quantity)));
}

export function isValidQuantity(quantity: number): boolean {
  return Number.isInteger(quantity) && quantity >= MIN_QUANTITY && quantity <= MAX_QUANTITY;
}

/**
 * The first problem with the form, in the order the visitor reads it (billing, quantity, then
 * student 1, 2, …), or null when it can be submitted.
 */
export function validateCheckout(values: CheckoutValues): CheckoutMessage | null {
  const { buyer } = values;
  if (!buyer.firstName || !buyer.lastName || !buyer.email) return MESSAGES.missingBilling;
  if (!isValidEmail(buyer.email)) return MESSAGES.invalidBillingEmail;
  if (values.studentMode === "self") return null;
  if (!isValidQuantity(values.quantity)) return MESSAGES.invalidQuantity;
  for (let i = 0; i < values.quantity; i++) {
    const student = values.students[i];
    if (!student || !student.firstName || !student.lastName || !student.email) {
      return MESSAGES.missingStudent(i + 1);
    }
    if (!isValidEmail(student.email)) return MESSAGES.invalidStudentEmail(i + 1);
  }
  return null;
}

/** The course as the checkout page shows it. */
export interface CheckoutCourse {
  id: string;
  slug: string;
  title: string;
  thumbnailUrl: string | null;
  durationHours: number | null;
  /** Pence; null when the course has no price and cannot be bought online. */
  unitPriceCents: number | null;
}

/** '£1,450.00' from pence. */
export function formatPence(cents: number): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" }).format(cents / 100);
}

/** What verifying a returning card buyer found (the success page shows each honestly). */
export type PaymentVerification =
  /** Paid: by this call or before it (the webhook may have won). */
  | { kind: "paid"; orderId: string; buyerEmail: string }
  /** Completed, but the money is still on its way (e.g. a bank debit); the webhook settles it. */
  | { kind: "processing"; orderId: string }
  /** The session is open or expired: nothing was paid. */
  | { kind: "not_paid" }
  /** Paid, but the order had already been canceled or failed: staff must look at it. */
  | { kind: "conflict"; orderId: string; status: OrderStatus }
  /** No such session, or it is not an order of this course. */
  | { kind: "not_found" }
  /** Stripe could not be asked (not configured, network). */
  | { kind: "error" };
