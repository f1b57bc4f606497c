import { z } from "zod/mini";
import type { FormAnswer } from "../forms.ts";
import { dropControlChars, toOneLine } from "../text.ts";

/**
 * The visitor forms' rules (docs/rules.md, Enquiries and spam), one zod schema per form. The
 * browser runs them before posting, to show messages next to the fields; the server runs the same
 * schema on the posted body, and only its answer counts. Safe on both sides: no server imports
 * here.
 *
 * Written with zod's tree-shakable "mini" API (same engine, same results): these schemas ship
 * to every public page, and the full API would add about 20 KB of gzipped script to each.
 */

export const SERVICE_INTERESTS = [
  "dark-web-monitoring",
  "security-consultancy",
  "counter-fraud-training",
  "file-interrogator",
  "other",
] as const;
export type ServiceInterest = (typeof SERVICE_INTERESTS)[number];

/** The service a link to /quote names (`?service=`), if it is one of ours. */
export function serviceFromSearch(search: URLSearchParams): ServiceInterest | null {
  const value = search.get("service");
  return SERVICE_INTERESTS.find((s) => s === value) ?? null;
}

/** A link to /quote with a service chosen: the training and monitoring calls to action. */
export function quoteLink(service: ServiceInterest): string {
  return `/quote?service=${service}`;
}

export const SERVICE_LABELS: Record<ServiceInterest, string> = {
  "dark-web-monitoring": "Dark Web Monitoring",
  "security-consultancy": "Security Consultancy",
  "counter-fraud-training": "Counter Fraud Training",
  "file-interrogator": "File Interrogator",
  other: "Other",
};

export const LICENCE_COUNTS = ["1", "2-5", "6-10", "11-25", "26-50", "50+", "custom"] as const;
export type LicenceCount = (typeof LICENCE_COUNTS)[number];

export const LICENCE_COUNT_LABELS: Record<LicenceCount, string> = {
  "1": "1 licence",
  "2-5": "2–5 licences",
  "6-10": "6–10 licences",
  "11-25": "11–25 licences",
  "26-50": "26–50 licences",
  "50+": "50+ licences",
  custom: "Custom / not sure yet",
};

export const USE_CASES = ["law-enforcement", "counter-fraud", "kyc", "forensics", "other"] as const;
export type UseCase = (typeof USE_CASES)[number];

export const USE_CASE_LABELS: Record<UseCase, string> = {
  "law-enforcement": "Law enforcement",
  "counter-fraud": "Counter fraud",
  kyc: "KYC / customer due diligence",
  forensics: "Digital forensics",
  other: "Other",
};

export const MODALITIES = ["online", "face_to_face"] as const;
export type Modality = (typeof MODALITIES)[number];

export const MODALITY_LABELS: Record<Modality, string> = {
  online: "Online",
  face_to_face: "Face-to-face (classroom)",
};

/** Which form a post comes from (hidden field `form`). */
export const INQUIRY_FORMS = ["enquiry", "licence", "course_quote"] as const;
export type InquiryForm = (typeof INQUIRY_FORMS)[number];

/** Hidden fields every public form carries: which form, which instance, and the honeypot. */
export const FORM_FIELD = "form";
export const FORM_ID_FIELD = "form_id";
/** The honeypot: hidden from people, tempting to bots. Any value in it marks the post as a bot's. */
export const HONEYPOT_FIELD = "contact_website";

export const LIMITS = {
  name: 200,
  email: 254,
  company: 200,
  phone: 50,
  message: 5000,
  budget: 200,
  attendees: 1000,
} as const;

const count = (n: number) => n.toLocaleString("en-GB");

// Single-line fields: control characters (newlines, tabs) become spaces, so nothing a visitor
// types can break a line of an e-mail header or the admin table.
const singleLine = toOneLine;
// Multi-line fields keep line breaks and tabs; other control characters (a NUL byte cannot even
// be stored in PostgreSQL text) are dropped.
const multiLine = dropControlChars;

/** Empty (or absent) becomes null. */
const emptyToNull = <T extends string>() =>
  z.transform((v: T | undefined): T | null => (v ? v : null));

/** A required one-line field: trimmed, control characters made spaces, at most `max` long. */
export function requiredLine(label: string, max: number, missing: string) {
  return z
    .string({ error: missing })
    .check(
      z.overwrite(singleLine),
      z.trim(),
      z.minLength(1, missing),
      z.maxLength(max, `${label} must be at most ${count(max)} characters`),
    );
}

function optionalLine(label: string, max: number) {
  return z.pipe(
    z.optional(
      z
        .string({ error: `${label} must be text` })
        .check(
          z.overwrite(singleLine),
          z.trim(),
          z.maxLength(max, `${label} must be at most ${count(max)} characters`),
        ),
    ),
    emptyToNull<string>(),
  );
}

function optionalMessage(label: string) {
  return z.pipe(
    z.optional(
      z
        .string({ error: `${label} must be text` })
        .check(
          z.overwrite(multiLine),
          z.trim(),
          z.maxLength(
            LIMITS.message,
            `${label} must be at most ${count(LIMITS.message)} characters`,
          ),
        ),
    ),
    emptyToNull<string>(),
  );
}

/** Lower-cases and trims an e-mail address (the stored form). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL_REQUIRED = "Please enter your email address";
export const EMAIL_INVALID = "Please enter a valid email address";

const emailField = z.pipe(
  z
    .string({ error: EMAIL_REQUIRED })
    .check(
      z.overwrite(normaliseEmail),
      z.minLength(1, EMAIL_REQUIRED),
      z.maxLength(LIMITS.email, `Email must be at most ${count(LIMITS.email)} characters`),
    ),
  z.email({ error: EMAIL_INVALID }),
);

const nameField = requiredLine("Full name", LIMITS.name, "Please enter your full name");

// Free text: extensions, labels and international formats are all real numbers.
const phoneField = optionalLine("Phone", LIMITS.phone);

/** An optional choice: empty means none; anything not in the list is an error. */
function optionalChoice<T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.pipe(
    z.optional(z.union([z.literal(""), z.enum(values)], { error: message })),
    z.transform((v) => (v ? v : null) as T[number] | null),
  );
}

/** Home, contact, quote and service pages (the enquiry form). */
export const enquirySchema = z.object({
  name: nameField,
  email: emailField,
  company: optionalLine("Company", LIMITS.company),
  phone: phoneField,
  service: optionalChoice(SERVICE_INTERESTS, "Please choose a service from the list"),
  message: z
    .string({ error: "Please enter your message" })
    .check(
      z.overwrite(multiLine),
      z.trim(),
      z.minLength(1, "Please enter your message"),
      z.maxLength(LIMITS.message, `Message must be at most ${count(LIMITS.message)} characters`),
    ),
});
export type EnquiryInput = z.output<typeof enquirySchema>;

/** File Interrogator licence quote (the licence form). */
export const licenceSchema = z.object({
  name: nameField,
  email: emailField,
  company: requiredLine("Company", LIMITS.company, "Please enter your company or organisation"),
  licence_count: z.enum(LICENCE_COUNTS, { error: "Please choose how many licences you need" }),
  phone: phoneField,
  use_case: optionalChoice(USE_CASES, "Please choose a use case from the list"),
  message: optionalMessage("Message"),
});
export type LicenceInput = z.output<typeof licenceSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const ATTENDEES_REQUIRED = "Please enter the number of attendees";
export const REQUIREMENTS_REQUIRED = "Please describe your training requirements";

/**
 * Course quote / enrolment dialog (docs/rules.md, Enquiries and spam). Face-to-face needs
 * attendees (a whole number, at least 1) and a requirements message; online needs neither,
 * and attendees and budget are not kept for it.
 */
export const courseQuoteSchema = z.pipe(
  z
    .object({
      course_id: z
        .string({ error: "This course could not be found" })
        .check(z.regex(UUID, { error: "This course could not be found" })),
      modality: z.enum(MODALITIES, { error: "Please choose online or face-to-face" }),
      name: nameField,
      email: emailField,
      company: optionalLine("Company", LIMITS.company),
      phone: phoneField,
      attendees: z.optional(
        z.string({ error: "Attendees must be a whole number" }).check(z.trim()),
      ),
      budget: optionalLine("Budget", LIMITS.budget),
      message: optionalMessage("Message"),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.modality !== "face_to_face") return;
        const attendees = typeof v.attendees === "string" ? v.attendees : "";
        if (attendees === "") {
          ctx.addIssue({ code: "custom", path: ["attendees"], message: ATTENDEES_REQUIRED });
        } else if (!/^\d{1,7}$/.test(attendees) || Number(attendees) < 1) {
          ctx.addIssue({
            code: "custom",
            path: ["attendees"],
            message: "Attendees must be a whole number of at least 1",
          });
        } else if (Number(attendees) > LIMITS.attendees) {
          ctx.addIssue({
            code: "custom",
            path: ["attendees"],
            message: `For more than ${count(LIMITS.attendees)} attendees, please tell us in the message`,
          });
        }
        if (!v.message) {
          ctx.addIssue({ code: "custom", path: ["message"], message: REQUIREMENTS_REQUIRED });
        }
      }),
    ),
  z.transform((v) => ({
    ...v,
    attendees: v.modality === "face_to_face" ? Number(v.attendees) : null,
    budget: v.modality === "face_to_face" ? v.budget : null,
  })),
);
export type CourseQuoteInput = z.output<typeof courseQuoteSchema>;

/** Footer 'Stay Updated' (docs/rules.md, Newsletter and consent). */
export const newsletterSchema = z.object({ email: emailField });

export const SCHEMAS = {
  enquiry: enquirySchema,
  licence: licenceSchema,
  course_quote: courseQuoteSchema,
} as const;

export const FIELDS: Record<InquiryForm | "newsletter", readonly string[]> = {
  enquiry: ["name", "email", "company", "phone", "service", "message"],
  licence: ["name", "email", "company", "licence_count", "phone", "use_case", "message"],
  course_quote: [
    "course_id",
    "modality",
    "name",
    "email",
    "company",
    "phone",
    "attendees",
    "budget",
    "message",
  ],
  newsletter: ["email"],
};

/** A same-site path to send the visitor back to, or "/" for anything else. */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 500) return "/";
  return /^\/(?![/\\])[^\s]*$/.test(value) ? value : "/";
}

/** The answer of an inquiry or newsletter post, as the forms read it (fetcher or action data). */
export type FormResult = FormAnswer<{
  modality?: Modality | null;
  /** Newsletter without JavaScript: the page to offer a link back to. */
  returnTo?: string;
}>;
