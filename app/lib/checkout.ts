import { z } from "zod/mini";
import { parseForm, type FieldErrors } from "./forms.ts";
import type { OrderStatus } from "./orders/orders.ts";
import { toOneLine } from "./text.ts";
import type { PublicCourseDate } from "./catalogue/course-dates.ts";
import {
  formatUkPostcode,
  isUnitedKingdom,
  isValidVatNumber,
  normaliseVatNumber,
} from "./uk-billing.ts";

/**
 * The checkout form's rules (docs/rules.md, Checkout and orders). The
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

/**
 * Where the invoice goes (decision 0015): a UK VAT invoice names the customer and their address,
 * and finance teams want their purchase order number on it. The organisation is the buyer's
 * `company`. Country defaults to the United Kingdom; its postcodes are checked.
 */
export interface CheckoutBilling {
  addressLine1: string;
  addressLine2: string;
  town: string;
  postcode: string;
  country: string;
  poNumber: string;
  vatNumber: string;
}

export interface CheckoutStudent {
  firstName: string;
  lastName: string;
  email: string;
}

/** The form as typed (strings trimmed); `quantity` is NaN when the post held no number. */
export interface CheckoutValues {
  buyer: CheckoutBuyer;
  billing: CheckoutBilling;
  /** The 'I accept the terms' box was ticked. */
  termsAccepted: boolean;
  studentMode: StudentMode;
  quantity: number;
  students: CheckoutStudent[];
  /**
   * Booking for others: students whose details are all left blank are named later, on the
   * booking's own page (decision 0037). Unticked, every student's details are needed.
   */
  namesLater?: boolean;
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
  invalidPostcode: {
    title: "Missing Information",
    description: "Please enter a valid UK postcode",
  },
  invalidVatNumber: {
    title: "Missing Information",
    description: "Please enter a valid VAT number or leave it empty",
  },
  termsNotAccepted: {
    title: "Terms Not Accepted",
    description: "Please accept the terms and conditions to complete your booking",
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
  /** The organisation billed (stored as the buyer's company and the billing organisation). */
  company: "company",
  addressLine1: "addressLine1",
  addressLine2: "addressLine2",
  town: "town",
  postcode: "postcode",
  country: "country",
  poNumber: "poNumber",
  vatNumber: "vatNumber",
  acceptTerms: "acceptTerms",
  studentMode: "studentMode",
  quantity: "quantity",
  /** 'I will name some students later' (blank student blocks are names to follow). */
  namesLater: "namesLater",
  /** Set by the page once JavaScript runs: the answer is JSON instead of a redirect. */
  enhanced: "enhanced",
  student: (i: number, part: keyof CheckoutStudent) => `students[${i}].${part}`,
} as const;

/** What the buttons post: pay by card, ask for an invoice, or (without JS) redraw the student list.
 */
export type CheckoutIntent = "card" | "invoice" | "update";

const LIMITS = {
  name: 200,
  email: 254,
  phone: 50,
  company: 200,
  addressLine: 200,
  town: 100,
  postcode: 20,
  country: 100,
  poNumber: 100,
  vatNumber: 30,
} as const;

export const DEFAULT_COUNTRY = "United Kingdom";

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
    addressLine1: line(LIMITS.addressLine),
    addressLine2: line(LIMITS.addressLine),
    town: line(LIMITS.town),
    postcode: line(LIMITS.postcode),
    country: line(LIMITS.country),
    poNumber: line(LIMITS.poNumber),
    vatNumber: line(LIMITS.vatNumber),
    acceptTerms: z.optional(z.unknown()),
    studentMode: z.optional(z.unknown()),
    quantity: line(10),
    students: z.optional(z.unknown()),
    namesLater: z.optional(z.unknown()),
  }),
  z.transform((form): { intent: CheckoutIntent; values: CheckoutValues } => {
    const intent: CheckoutIntent =
      form.intent === "card" || form.intent === "update" ? form.intent : "invoice";
    const studentMode: StudentMode = form.studentMode === "others" ? "others" : "self";
    const quantity = /^\d{1,3}$/.test(form.quantity) ? Number(form.quantity) : Number.NaN;
    const posted = Array.isArray(form.students) ? form.students.slice(0, MAX_QUANTITY) : [];
    const students = Array.from(posted, (student) => studentSchema.parse(student));
    // An empty country is the default one; the UK's other names are written one way.
    const country = !form.country || isUnitedKingdom(form.country) ? DEFAULT_COUNTRY : form.country;
    const postcode =
      country === DEFAULT_COUNTRY
        ? (formatUkPostcode(form.postcode) ?? form.postcode)
        : form.postcode;
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
        billing: {
          addressLine1: form.addressLine1,
          addressLine2: form.addressLine2,
          town: form.town,
          postcode,
          country,
          poNumber: form.poNumber,
          vatNumber: normaliseVatNumber(form.vatNumber),
        },
        // A ticked box posts 'on' (its default value); anything else is not a ticked box.
        termsAccepted: form.acceptTerms === "on",
        studentMode,
        quantity: studentMode === "self" ? 1 : quantity,
        students: studentMode === "self" ? [] : students,
        namesLater: studentMode === "others" && form.namesLater === "on",
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

/** A student block left wholly empty (a name to follow, when the booker chose so). */
export function isBlankStudent(student: CheckoutStudent): boolean {
  return !student.firstName && !student.lastName && !student.email;
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
  addressLine1: "Please enter the first line of the billing address",
  town: "Please enter a town or city",
  postcode: "Please enter a postcode",
  invalidPostcode: "Please enter a valid UK postcode, e.g. SW1A 1AA",
  invalidVatNumber: "Please enter a valid VAT number, e.g. GB123456789",
  acceptTerms: "Please accept the terms to continue",
} as const;

/**
 * What is wrong with the form: a message for each field, in the order the visitor reads it
 * (billing, quantity, then student 1, 2, …), and the spec's toast for the first problem.
 *
 * The buyer's name and e-mail are always needed; phone and organisation never (an individual's
 * invoice is addressed to them). An invoice request needs a billing address (an invoice must
 * carry one); a card payment may leave it out, and what it gives is checked all the same.
 */
export function checkCheckout(
  values: CheckoutValues,
  intent: CheckoutIntent = "invoice",
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
  const { billing } = values;
  const address = [
    [FIELD.addressLine1, billing.addressLine1],
    [FIELD.town, billing.town],
    [FIELD.postcode, billing.postcode],
  ] as const;
  // A card payment's address is all or nothing: a first line without a town prints nowhere.
  const addressNeeded =
    intent === "invoice" ||
    Boolean(billing.addressLine1 || billing.addressLine2 || billing.town || billing.postcode);
  for (const [name, value] of address) {
    if (addressNeeded && !value) {
      fieldErrors[name] = FIELD_MESSAGES[name];
      toast ??= MESSAGES.missingBilling;
    }
  }
  if (billing.postcode && isUnitedKingdom(billing.country) && !formatUkPostcode(billing.postcode)) {
    fieldErrors[FIELD.postcode] = FIELD_MESSAGES.invalidPostcode;
    toast ??= MESSAGES.invalidPostcode;
  }
  if (billing.vatNumber && !isValidVatNumber(billing.vatNumber)) {
    fieldErrors[FIELD.vatNumber] = FIELD_MESSAGES.invalidVatNumber;
    toast ??= MESSAGES.invalidVatNumber;
  }
  if (values.studentMode === "others") {
    if (!isValidQuantity(values.quantity)) {
      fieldErrors[FIELD.quantity] = FIELD_MESSAGES.quantity;
      toast ??= MESSAGES.invalidQuantity;
    } else {
      for (let i = 0; i < values.quantity; i++) {
        const student = values.students[i] ?? emptyStudent();
        if (values.namesLater && isBlankStudent(student)) continue;
        person(
          student,
          (part) => FIELD.student(i, part),
          MESSAGES.missingStudent(i + 1),
          MESSAGES.invalidStudentEmail(i + 1),
        );
      }
    }
  }
  if (!values.termsAccepted) {
    fieldErrors[FIELD.acceptTerms] = FIELD_MESSAGES.acceptTerms;
    toast ??= MESSAGES.termsNotAccepted;
  }
  return toast ? { fieldErrors, toast } : null;
}

/** The spec's toast for the first problem with the form, or null when it can be submitted. */
export function validateCheckout(
  values: CheckoutValues,
  intent: CheckoutIntent = "invoice",
): CheckoutMessage | null {
  return checkCheckout(values, intent)?.toast ?? null;
}

/** The course as the checkout page shows it. */
export interface CheckoutCourse {
  id: string;
  slug: string;
  title: string;
  thumbnailUrl: string | null;
  durationHours: number | null;
  /** Pence: only a course that can be bought online reaches the checkout (the date's price). */
  unitPriceCents: number;
  /** The dated places being booked; absent for an on-demand course. */
  date?: PublicCourseDate;
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

/**
 * What the success page tells the buyer who placed the order (and nobody else): the reference
 * to quote, the course, the places and what it costs.
 */
export interface BuyerOrderSummary {
  reference: string;
  courseTitle: string;
  places: number;
  totalCents: number;
  /** 0 when no VAT was charged. */
  vatCents: number;
}
