import { z } from "zod/mini";
import { optionalText } from "../admin-form.ts";
import { DEFAULT_COUNTRY, FIELD_MESSAGES } from "../checkout.ts";
import type { BillingDetails } from "./orders.ts";
import {
  formatUkPostcode,
  isUnitedKingdom,
  isValidVatNumber,
  normaliseVatNumber,
} from "../uk-billing.ts";

/**
 * Correcting an order's billing details on its admin page: before its invoice is issued, or by
 * crediting the invoice and issuing a corrected one (an issued invoice is never edited: decision
 * 0015). The same rules as the checkout's: an invoice
 * needs an address (first line, town, postcode); a card order's address is all or nothing; a UK
 * postcode and a VAT number must have their shapes. One schema for the browser and the server;
 * the server also checks the order may still be corrected. No server imports here.
 */

export const BILLING_INTENT = "billing";

/** The posted names, in the order the form shows them. */
export const BILLING_FIELDS = {
  organisation: "organisation",
  addressLine1: "address_line1",
  addressLine2: "address_line2",
  town: "town",
  postcode: "postcode",
  country: "country",
  poNumber: "po_number",
  vatNumber: "vat_number",
} as const;

export const BILLING_SAVED = "Billing details updated";
export const BILLING_FAILED = "Failed to update billing details";
/** The reason on the credit note of an invoice re-issued with corrected billing details. */
export const BILLING_CORRECTED = "Billing details corrected";
export const BILLING_LOCKED =
  "The invoice has been issued: its billing details can no longer be edited here.";

/**
 * After the invoice: "Correct and re-issue" credits it and issues a corrected one. The posted
 * form says so (REISSUE_FIELD) and confirms that the buyer is e-mailed both documents.
 */
export const REISSUE_FIELD = "reissue";
export const REISSUE_CONFIRM_FIELD = "confirm_reissue";
export const REISSUE_CONFIRM_MESSAGE =
  "Please confirm that the invoice is to be credited and a corrected one sent to the buyer";
export const REISSUE_NOT_INVOICED =
  "Only an unpaid invoice of an order paid by invoice can be corrected and re-issued.";
export const REISSUE_CREDITED =
  "This invoice has already been credited: it cannot be corrected and re-issued.";
export const reissuedMessage = (r: { invoice: string; replaced: string; creditNote: string }) =>
  `Invoice ${r.invoice} issued in place of ${r.replaced} (credited by ${r.creditNote}) and e-mailed to the buyer`;

/** The schema for an order paid by `method`: an invoice's address is required. */
export function billingFormSchema(method: "invoice" | "stripe") {
  const F = BILLING_FIELDS;
  return z
    .object({
      [F.organisation]: optionalText(200),
      [F.addressLine1]: optionalText(200),
      [F.addressLine2]: optionalText(200),
      [F.town]: optionalText(100),
      [F.postcode]: optionalText(20),
      [F.country]: optionalText(100),
      [F.poNumber]: optionalText(100),
      [F.vatNumber]: optionalText(30),
      [REISSUE_FIELD]: z.optional(z.string()),
      [REISSUE_CONFIRM_FIELD]: z.optional(z.string()),
    })
    .check(
      z.superRefine((v, ctx) => {
        const required = [
          [F.addressLine1, FIELD_MESSAGES.addressLine1],
          [F.town, FIELD_MESSAGES.town],
          [F.postcode, FIELD_MESSAGES.postcode],
        ] as const;
        // A card order's address is all or nothing: a first line without a town prints nowhere.
        const needed =
          method === "invoice" ||
          Boolean(v[F.addressLine1] || v[F.addressLine2] || v[F.town] || v[F.postcode]);
        for (const [name, message] of required) {
          if (needed && !v[name]) ctx.addIssue({ code: "custom", path: [name], message });
        }
        const { [F.country]: country, [F.postcode]: postcode, [F.vatNumber]: vatNumber } = v;
        const uk = !country || isUnitedKingdom(country);
        if (postcode && uk && !formatUkPostcode(postcode)) {
          ctx.addIssue({
            code: "custom",
            path: [F.postcode],
            message: FIELD_MESSAGES.invalidPostcode,
          });
        }
        if (v[REISSUE_FIELD] === "1" && v[REISSUE_CONFIRM_FIELD] !== "on") {
          ctx.addIssue({
            code: "custom",
            path: [REISSUE_CONFIRM_FIELD],
            message: REISSUE_CONFIRM_MESSAGE,
          });
        }
        if (vatNumber && !isValidVatNumber(normaliseVatNumber(vatNumber))) {
          ctx.addIssue({
            code: "custom",
            path: [F.vatNumber],
            message: FIELD_MESSAGES.invalidVatNumber,
          });
        }
      }),
    );
}

/** The parsed form as stored: the UK written one way, its postcode and VAT numbers tidied. */
export function billingDetailsOf(
  parsed: z.output<ReturnType<typeof billingFormSchema>>,
): BillingDetails {
  const F = BILLING_FIELDS;
  const given = parsed[F.country];
  const postcode = parsed[F.postcode];
  const vatNumber = parsed[F.vatNumber];
  const addressLine1 = parsed[F.addressLine1];
  const country = !given || isUnitedKingdom(given) ? DEFAULT_COUNTRY : given;
  return {
    organisation: parsed[F.organisation],
    addressLine1,
    addressLine2: parsed[F.addressLine2],
    town: parsed[F.town],
    postcode:
      postcode && country === DEFAULT_COUNTRY ? (formatUkPostcode(postcode) ?? postcode) : postcode,
    // No address, no country unless one was given.
    country: addressLine1 || given ? country : null,
    poNumber: parsed[F.poNumber],
    vatNumber: vatNumber ? normaliseVatNumber(vatNumber) : null,
  };
}
