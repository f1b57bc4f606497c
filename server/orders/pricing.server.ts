import { isValidQuantity } from "#app/lib/checkout.ts";
import {
  buyerKind,
  vatCase,
  type Supply,
  type VatTreatment,
} from "#app/lib/orders/place-of-supply.ts";
import { lineAmounts, type VatTerms } from "#app/lib/orders/vat.ts";
import { config } from "../config.server.ts";

/**
 * What an order costs (docs/rules.md, Checkout and orders): prices come from the database, never
 * from the browser, and are counted in whole pence so no binary float ever touches money.
 */

/** The largest total an order can hold (orders.total_amount_cents is a PostgreSQL integer). */
export const MAX_TOTAL_CENTS = 2_147_483_647;

/**
 * A course price as stored (numeric(10,2), read as a decimal string such as '1450.00') in
 * whole pence, computed from the digits — never through a binary float — so '0.29' is 29 and
 * '1450.10' is 145010. Null for no price, a malformed value, or more than two decimals.
 */
export function priceToPence(price: string | null | undefined): number | null {
  if (price === null || price === undefined) return null;
  const match = /^\s*(\d{1,12})(?:\.(\d{1,2}))?\s*$/.exec(price);
  if (!match) return null;
  const pounds = BigInt(match[1]!);
  const pence = BigInt((match[2] ?? "").padEnd(2, "0"));
  const total = pounds * 100n + pence;
  return total > BigInt(MAX_TOTAL_CENTS) ? null : Number(total);
}

/** unit × quantity, or null when the quantity is outside 1–10 or the total would not fit. */
export function orderTotal(unitPriceCents: number, quantity: number): number | null {
  if (!Number.isInteger(unitPriceCents) || unitPriceCents < 0) return null;
  if (!isValidQuantity(quantity)) return null;
  const total = unitPriceCents * quantity;
  return total <= MAX_TOTAL_CENTS ? total : null;
}

/**
 * A course can be bought here online when it is published, has a price above zero and is not a
 * partner's (a partner course is booked through the partner's 'Buy Now'; one without a price is
 * quoted for).
 */
export function isPurchasable(course: {
  status: string;
  price: string | null;
  partnerId: string | null;
}): boolean {
  const pence = priceToPence(course.price);
  return course.status === "published" && course.partnerId === null && pence !== null && pence > 0;
}

/** What a booked date supplies (a classroom is in the UK); no date: an on-demand course. */
export function supplyOf(date: { format: "classroom" | "online" } | null): Supply {
  if (!date) return "on_demand";
  return date.format === "classroom" ? "classroom" : "live_online";
}

/** The case of the place-of-supply table that applies; none but UK VAT for a seller without VAT. */
export function vatTreatmentFor(
  supply: Supply,
  billing: { country: string | null; vatNumber: string | null },
  seller: VatTerms = config.seller.vat,
): VatTreatment {
  return seller.rateBasisPoints > 0 ? vatCase(supply, buyerKind(billing)).treatment : "uk_vat";
}

/**
 * The VAT of an order (docs/decisions/0041-vat-by-place-of-supply.md), decided when it is
 * placed from what it supplies and the buyer's billing country and VAT or business tax number:
 * the seller's terms (UK VAT), or none — reverse charge or outside the scope — with the unit price
 * net of VAT when prices include it, so a business abroad never pays UK VAT inside the price.
 * A seller that is not VAT-registered charges none to anyone.
 */
export function vatFor(
  supply: Supply,
  billing: { country: string | null; vatNumber: string | null },
  unitPriceCents: number,
  seller: VatTerms = config.seller.vat,
): { treatment: VatTreatment; unitPriceCents: number; terms: VatTerms } {
  const treatment = vatTreatmentFor(supply, billing, seller);
  if (treatment === "uk_vat") return { treatment, unitPriceCents, terms: seller };
  const net = seller.pricesIncludeVat
    ? lineAmounts(unitPriceCents, seller).netCents
    : unitPriceCents;
  return {
    treatment,
    unitPriceCents: net,
    terms: { rateBasisPoints: 0, pricesIncludeVat: false },
  };
}
