import { z } from "zod/mini";
import { parseForm, type FieldErrors } from "./forms.ts";
import type { OrderStatus } from "./orders.ts";
import { toOneLine } from "./text.ts";

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
  typeof value === "string" ? toOneLine(value).trim().slice(0, max) : "";

const emailSchema = z.email();

export function isValidEmail(email: string): boolean {
  return email.length <= LIMITS.email && emailSchema.safeParse(email).success;
}

const line = (max: number) =>
  z.pipe(
    z.optional(z.unknown()),
    z.transform((v) => clean(v, max)),
  );
const emailLine = z.pipe(
  z.optional(z.unknown()),
  z.transform((v) => clean(v, LIMITS.email).toLowerCase()),
);
const studentSchema = z.pipe(
  z.unknown(),
  z.transform((v): CheckoutStudent => {
    const o = (typeof v === "object" && v !== null ? v : {}) as Record<string, unknown>;
    return {
      firstName: clean(o.firstName, LIMITS.name),
      lastName: clean(o.lastName, LIMITS.name),
      email: clean(o.email, LIMITS.email).toLowerCase(),
    };
  }),
);

/**
 * The checkout form as posted (after Conform's parser has made `students[0].email` a list): any
 * odd value becomes an empty string or NaN, so reading never fails and the rules below say what
 * is wrong, field by field. At most MAX_QUANTITY student blocks are read, whatever is posted.
 */
export const checkoutFormSchema = z.pipe(
  z.object({
    intent: z.optional(z.unknown()),
    firstName: line(LIMITS.name),
    lastName: line(LIMITS.name),
    email: emailLine,
    phone: line(LIMITS.phone),
    company: line(LIMITS.company),
    studentMode: z.optional(z.unknown()),
    quantity: line(10),
    students: z.optional(z.unknown()),
  }),
  z.transform((form): { intent: CheckoutIntent; values: CheckoutValues } => {
    const intent: CheckoutIntent =
      form.intent === "card" || form.intent === "update" ? form.intent : "invoice";
    const studentMode: StudentMode = form.studentMode === "others" ? "others" : "self";
    const quantity = /^\d{1,3}$/.test(form.quantity) ? Number(form.quantity) : Number.NaN;
    const posted = Array.isArray(form.students) ? form.students.slice(0, MAX_QUANTITY) : [];
    const students = Array.from(posted, (student) => studentSchema.parse(student));
    return {
      intent,
      values: {
        buyer: {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          phone: form.phone,
          company: form.company,
        },
        studentMode,
        quantity: studentMode === "self" ? 1 : quantity,
        students: studentMode === "self" ? [] : students,
      },
    };
  }),
);

/** Reads the posted form. Nothing here throws: odd input becomes empty strings or NaN. */
export function readCheckoutForm(form: FormData): {
  intent: CheckoutIntent;
  values: CheckoutValues;
} {
  const parsed = parseForm(form, checkoutFormSchema);
  // The schema accepts anything; only a post Conform cannot read at all ends here.
  return parsed.ok ? parsed.value : checkoutFormSchema.parse({});
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

/** The message next to each field (keys are the posted names). */
export const FIELD_MESSAGES = {
  firstName: "Please enter a first name",
  lastName: "Please enter a last name",
  email: "Please enter an email address",
  invalidEmail: "Please enter a valid email address",
  quantity: `Please choose between ${MIN_QUANTITY} and ${MAX_QUANTITY} students`,
} as const;

/**
 * What is wrong with the form: a message for each field, in the order the visitor reads it
 * (billing, quantity, then student 1, 2, …), and the spec's toast for the first problem.
 */
export function checkCheckout(
  values: CheckoutValues,
): { fieldErrors: FieldErrors; toast: CheckoutMessage } | null {
  const fieldErrors: FieldErrors = {};
  let toast: CheckoutMessage | null = null;
  const person = (
    p: { firstName: string; lastName: string; email: string },
    name: (part: keyof CheckoutStudent) => string,
    missing: CheckoutMessage,
    badEmail: CheckoutMessage,
  ) => {
    if (!p.firstName) fieldErrors[name("firstName")] = FIELD_MESSAGES.firstName;
    if (!p.lastName) fieldErrors[name("lastName")] = FIELD_MESSAGES.lastName;
    if (!p.email) fieldErrors[name("email")] = FIELD_MESSAGES.email;
    else if (!isValidEmail(p.email)) fieldErrors[name("email")] = FIELD_MESSAGES.invalidEmail;
    if (!p.firstName || !p.lastName || !p.email) toast ??= missing;
    else if (!isValidEmail(p.email)) toast ??= badEmail;
  };
  person(
    values.buyer,
    (part) => FIELD[part],
    MESSAGES.missingBilling,
    MESSAGES.invalidBillingEmail,
  );
  if (values.studentMode === "others") {
    if (!isValidQuantity(values.quantity)) {
      fieldErrors[FIELD.quantity] = FIELD_MESSAGES.quantity;
      toast ??= MESSAGES.invalidQuantity;
    } else {
      for (let i = 0; i < values.quantity; i++) {
        person(
          values.students[i] ?? emptyStudent(),
          (part) => FIELD.student(i, part),
          MESSAGES.missingStudent(i + 1),
          MESSAGES.invalidStudentEmail(i + 1),
        );
      }
    }
  }
  return toast ? { fieldErrors, toast } : null;
}

/** The spec's toast for the first problem with the form, or null when it can be submitted. */
export function validateCheckout(values: CheckoutValues): CheckoutMessage | null {
  return checkCheckout(values)?.toast ?? null;
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
