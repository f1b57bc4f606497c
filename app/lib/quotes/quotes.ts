import { z } from "zod/mini";
import { dropControlChars, toOneLine } from "../text.ts";
import type { Supply } from "../orders/place-of-supply.ts";

/**
 * Quotes (decision 0049) as the admin screens and the customer's page show them: states, labels,
 * the forms' schemas (checked in the browser and again by the server) and the views. The rules
 * live in server/quotes/. Safe on both sides.
 */

export const QUOTE_STATUSES = [
  "draft",
  "sent",
  "accepted",
  "declined",
  "expired",
  "superseded",
] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  draft: "Draft",
  sent: "Sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  superseded: "Superseded",
};

export const QUOTE_STATUS_BADGE = {
  draft: "muted",
  sent: "info",
  accepted: "success",
  declined: "destructive",
  expired: "warning",
  superseded: "muted",
} as const satisfies Record<QuoteStatus, string>;

export const QUOTE_SUPPLIES = ["on_demand", "live_online", "classroom"] as const satisfies Supply[];

export const QUOTE_SUPPLY_LABELS: Record<(typeof QUOTE_SUPPLIES)[number], string> = {
  on_demand: "Licences, on-demand or remote services",
  live_online: "Live online training",
  classroom: "Training or work on site in the UK",
};

/** How many lines a quote may have. */
export const QUOTE_MAX_LINES = 20;
/** Empty line rows the editor offers below the filled ones (no JavaScript needed to add one). */
export const QUOTE_SPARE_LINES = 3;
/** Days a new quote is valid for, by default. */
export const QUOTE_VALID_DAYS = 30;

export const DEFAULT_QUOTE_TERMS =
  "Prices are in pounds sterling and exclude VAT unless shown. Payment is due within 30 days of the invoice, which we issue when the quotation is accepted. Licences run for one year from the start date agreed. The terms and conditions on our website apply.";

/** One quote line as the editor posts it: the price in pounds, as typed ("450" or "1,250.50"). */
export interface QuoteLineInput {
  description: string;
  quantity: string;
  unitPrice: string;
}

const text = (max: number, required: string) =>
  z.string({ error: required }).check(
    z.overwrite((v: string) => toOneLine(v)),
    z.trim(),
    z.minLength(1, required),
    z.maxLength(max, `Please keep this under ${max} characters.`),
  );

const optionalText = (max: number) =>
  z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => {
      const value = toOneLine(v ?? "").trim();
      return value === "" ? null : value.slice(0, max);
    }),
  );

/** "1,250.50" → 125050 pence; null if it is not a price. */
export function parsePounds(value: string): number | null {
  const cleaned = value.replace(/[£,\s]/g, "");
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [pounds, pence = ""] = cleaned.split(".");
  return Number(pounds) * 100 + Number(pence.padEnd(2, "0"));
}

const lineSchema = z.object({
  description: z.optional(z.string()),
  quantity: z.optional(z.string()),
  unitPrice: z.optional(z.string()),
});

/** Lines with anything typed in them; the rest (the spare rows) are ignored. */
function filledLines(lines: z.output<typeof lineSchema>[] | undefined) {
  return (lines ?? []).filter(
    (l) => (l.description ?? "").trim() || (l.quantity ?? "").trim() || (l.unitPrice ?? "").trim(),
  );
}

/** The quote editor: customer, lines, validity and terms. */
export const quoteFormSchema = z
  .object({
    intent: z.literal("save"),
    inquiryId: optionalText(40),
    organisation: text(200, "Please enter the organisation."),
    contactName: text(120, "Please enter the contact's name."),
    contactEmail: z
      .string({ error: "Please enter the contact's e-mail address." })
      .check(
        z.trim(),
        z.toLowerCase(),
        z.email("Please enter a valid e-mail address."),
        z.maxLength(254, "Please enter a valid e-mail address."),
      ),
    addressLine1: optionalText(200),
    addressLine2: optionalText(200),
    town: optionalText(100),
    postcode: optionalText(20),
    country: optionalText(100),
    vatNumber: optionalText(40),
    supply: z.enum(QUOTE_SUPPLIES),
    validUntil: z.iso.date({ error: "Please enter the last day it may be accepted." }),
    terms: z
      .string({ error: "Please enter the terms." })
      .check(
        z.overwrite(dropControlChars),
        z.trim(),
        z.minLength(1, "Please enter the terms."),
        z.maxLength(5000, "Please keep the terms under 5,000 characters."),
      ),
    lines: z.optional(z.array(lineSchema)),
    /** File Interrogator licences it sells (decision 0050): blank for none. */
    licenceSeats: z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => (v ?? "").trim()),
    ),
    licenceStartsOn: z.pipe(
      z.optional(
        z.union([z.literal(""), z.iso.date({ error: "Please enter a date, or leave it empty." })]),
      ),
      z.transform((v: string | undefined) => (v ? v : null)),
    ),
  })
  .check((ctx) => {
    const filled = filledLines(ctx.value.lines);
    if (filled.length === 0) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.lines,
        path: ["lines", 0, "description"],
        message: "Please add at least one line.",
      });
    }
    if (filled.length > QUOTE_MAX_LINES) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.lines,
        path: ["lines", QUOTE_MAX_LINES, "description"],
        message: `A quote has at most ${QUOTE_MAX_LINES} lines.`,
      });
    }
    const seats = ctx.value.licenceSeats;
    if (seats !== "" && !(/^\d{1,5}$/.test(seats) && Number(seats) >= 1)) {
      ctx.issues.push({
        code: "custom",
        input: seats,
        path: ["licenceSeats"],
        message: "Please enter a whole number of licences, or leave it empty.",
      });
    }
    (ctx.value.lines ?? []).forEach((line, i) => {
      if (!filled.includes(line)) return;
      const description = toOneLine(line.description ?? "").trim();
      if (!description || description.length > 500) {
        ctx.issues.push({
          code: "custom",
          input: line.description,
          path: ["lines", i, "description"],
          message: "Please describe the line (up to 500 characters).",
        });
      }
      const quantity = Number((line.quantity ?? "").trim());
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > 10_000) {
        ctx.issues.push({
          code: "custom",
          input: line.quantity,
          path: ["lines", i, "quantity"],
          message: "Please enter a whole number from 1 to 10,000.",
        });
      }
      if (parsePounds(line.unitPrice ?? "") === null) {
        ctx.issues.push({
          code: "custom",
          input: line.unitPrice,
          path: ["lines", i, "unitPrice"],
          message: "Please enter a price in pounds, e.g. 450 or 1,250.50.",
        });
      }
    });
  });
export type QuoteForm = z.output<typeof quoteFormSchema>;

/** The lines of a checked form, as stored: description, quantity, unit price in pence. */
export function quoteLinesOf(form: QuoteForm) {
  return filledLines(form.lines).map((l) => ({
    description: toOneLine(l.description ?? "").trim(),
    quantity: Number((l.quantity ?? "").trim()),
    unitNetCents: parsePounds(l.unitPrice ?? "")!,
  }));
}

/** The customer's "Accept": their name, role and purchase order number. */
export const quoteAcceptSchema = z.object({
  intent: z.literal("accept"),
  name: text(120, "Please enter your name."),
  role: text(120, "Please enter your role."),
  poNumber: optionalText(60),
  confirm: z.literal("on", {
    error: "Please confirm that you accept the quotation and its terms.",
  }),
});

/** The customer's "Decline": why, if they will say. */
export const quoteDeclineSchema = z.object({
  intent: z.literal("decline"),
  reason: z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => {
      const value = dropControlChars(v ?? "").trim();
      return value === "" ? null : value.slice(0, 2000);
    }),
  ),
});

/** What the editor opens with: a draft's values, or a new quote's (from its enquiry). */
export interface QuoteEditorValues {
  inquiryId: string | null;
  organisation: string;
  contactName: string;
  contactEmail: string;
  addressLine1: string;
  addressLine2: string;
  town: string;
  postcode: string;
  country: string;
  vatNumber: string;
  supply: string;
  validUntil: string;
  terms: string;
  lines: QuoteLineInput[];
  licenceSeats: string;
  licenceStartsOn: string;
}

/** A quote in the admin list. */
export interface AdminQuoteRow {
  id: string;
  number: string | null;
  status: QuoteStatus;
  organisation: string;
  contactName: string;
  contactEmail: string;
  totalCents: number;
  validUntil: string;
  createdAt: string;
  sentAt: string | null;
}

/** One quote's admin page. */
export interface AdminQuotePage {
  quote: AdminQuoteRow;
  href: string;
  inquiryId: string | null;
  /** A draft's editor values; null once sent. */
  editor: QuoteEditorValues | null;
  lines: { description: string; quantity: number; unitNetCents: number }[];
  sentAt: string | null;
  /** The number of the quote this one replaces. */
  supersedes: string | null;
  /** The customer's page (a signed link), once sent. */
  customerUrl: string;
  accepted: { at: string; name: string; role: string; poNumber: string | null } | null;
  declined: { at: string; reason: string | null } | null;
  order: { id: string; reference: string } | null;
}

export function quoteHref(id: string): string {
  return `/admin/quotes/${encodeURIComponent(id)}`;
}
