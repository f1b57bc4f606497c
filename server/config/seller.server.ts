import { z } from "zod";
import { optionalString } from "./fields.server.ts";

/**
 * The seller's settings (decision 0015): who sells, and how VAT and payment work — what invoices,
 * receipts, credit notes, the checkout's prices and the footer show. Part of the one settings
 * schema of server/config.server.ts, which reads them from the environment.
 */

export const sellerSettings = {
  // The seller as invoices, receipts and the footer name it (decision 0015). Without a VAT number
  // no VAT is charged or shown (a business under the registration threshold).
  SELLER_LEGAL_NAME: z.string().trim().min(1).default("NightWatch"),
  // Address lines separated by commas or new lines, e.g. "1 High Street, London, EC1A 1AA".
  SELLER_ADDRESS: z.string().trim().min(1).default("London, United Kingdom"),
  SELLER_COMPANY_NUMBER: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Z0-9]{8}$/i, "must be an 8-character Companies House number, e.g. 01234567")
      .optional(),
  ),
  SELLER_VAT_NUMBER: optionalString.pipe(
    z
      .string()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .pipe(
        z
          .string()
          .regex(/^(GB)?(\d{9}|\d{12})$/, "must be a UK VAT number, e.g. GB123456789")
          .transform((v) => (v.startsWith("GB") ? v : `GB${v}`)),
      )
      .optional(),
  ),
  // Registration number with the Information Commissioner's Office, shown in the footer when set.
  SELLER_ICO_NUMBER: optionalString,
  VAT_RATE_PERCENT: z.coerce
    .number({ message: "must be a number, e.g. 20" })
    .min(0)
    .max(100)
    .refine((v) => Number.isInteger(v * 100), "at most two decimals, e.g. 17.5")
    .default(20),
  PRICES_INCLUDE_VAT: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("false")
    .transform((v) => v === "true"),
  PAYMENT_TERMS_DAYS: z.coerce
    .number({ message: "must be a whole number of days" })
    .int()
    .min(0)
    .max(365)
    .default(30),
  // The sales account the Xero export codes each line to (Xero's default chart: 200, Sales).
  XERO_SALES_ACCOUNT_CODE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]{1,10}$/, "must be an account code as Xero shows it, e.g. 200")
    .default("200"),
  // What invoices say about paying when no bank details are set (instead of "Contact us").
  PAYMENT_INSTRUCTIONS: optionalString.pipe(
    z.string().max(400, "at most 400 characters: it is printed on every invoice").optional(),
  ),
  // Unpaid invoices (decision 0040): the buyer is reminded this many days after the due date
  // (0: on the day it is due), one reminder per number, e.g. 0,14; "none" sends no reminders.
  INVOICE_REMINDER_DAYS: optionalString
    .transform((v) => (v === "none" ? [] : (v ?? "0,14").split(",").map((s) => s.trim())))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^\d{1,3}$/,
            "must be whole numbers of days separated by commas, e.g. 0,14, or none",
          )
          .transform(Number)
          .pipe(z.number().max(365, "at most 365 days after the due date")),
      ),
    )
    .transform((days) => [...new Set(days)].sort((a, b) => a - b)),
  // Bank details printed on invoices for payment by transfer.
  BANK_ACCOUNT_NAME: optionalString,
  BANK_SORT_CODE: optionalString.pipe(
    z
      .string()
      .regex(/^\d{2}-?\d{2}-?\d{2}$/, "must be six digits, e.g. 12-34-56")
      .transform((v) => v.replace(/-/g, "").replace(/(\d{2})(?=\d)/g, "$1-"))
      .optional(),
  ),
  BANK_ACCOUNT_NUMBER: optionalString.pipe(
    z
      .string()
      .regex(/^\d{8}$/, "must be eight digits")
      .optional(),
  ),
  BANK_IBAN: optionalString.pipe(
    z
      .string()
      .transform((v) => v.replace(/\s+/g, "").toUpperCase())
      .pipe(
        z
          .string()
          .regex(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/, "must be an IBAN, e.g. GB29NWBK60161331926819"),
      )
      .optional(),
  ),
};

type SellerSettings = z.output<z.ZodObject<typeof sellerSettings>>;

export type SellerConfig = ReturnType<typeof sellerConfig>;

/**
 * Who sells, and how VAT and payment work (decision 0015): what invoices, receipts, credit notes,
 * the checkout's prices and the footer show. VAT is charged only with a VAT number.
 */
export function sellerConfig(e: SellerSettings) {
  const vatRegistered = Boolean(e.SELLER_VAT_NUMBER);
  return {
    legalName: e.SELLER_LEGAL_NAME,
    addressLines: e.SELLER_ADDRESS.split(/\s*(?:,|\n|\\n)\s*/).filter(Boolean),
    companyNumber: e.SELLER_COMPANY_NUMBER,
    vatNumber: e.SELLER_VAT_NUMBER,
    icoNumber: e.SELLER_ICO_NUMBER,
    vat: {
      rateBasisPoints: vatRegistered ? Math.round(e.VAT_RATE_PERCENT * 100) : 0,
      pricesIncludeVat: e.PRICES_INCLUDE_VAT,
    },
    paymentTermsDays: e.PAYMENT_TERMS_DAYS,
    xeroSalesAccountCode: e.XERO_SALES_ACCOUNT_CODE,
    paymentInstructions: e.PAYMENT_INSTRUCTIONS ?? null,
    bank:
      e.BANK_ACCOUNT_NAME || e.BANK_SORT_CODE || e.BANK_ACCOUNT_NUMBER || e.BANK_IBAN
        ? {
            accountName: e.BANK_ACCOUNT_NAME ?? e.SELLER_LEGAL_NAME,
            sortCode: e.BANK_SORT_CODE,
            accountNumber: e.BANK_ACCOUNT_NUMBER,
            iban: e.BANK_IBAN,
          }
        : undefined,
  };
}
