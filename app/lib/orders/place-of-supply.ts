import euVatPrefixes from "./eu-vat-prefixes.json";
import { isUnitedKingdom, normaliseVatNumber } from "../uk-billing.ts";

/**
 * VAT by place of supply (docs/decisions/0041-vat-by-place-of-supply.md): whether an order is
 * charged UK VAT is decided when it is placed, from what is supplied and to whom, by the first
 * matching case of a small table. Safe on both sides: the checkout can say it, the server decides.
 */

/** What an order supplies: a place in a classroom (in the UK), a live online session, or an
 * on-demand course. */
export type Supply = "classroom" | "live_online" | "on_demand";

/**
 * Who buys: in the UK (by billing country), a business in the EU (a VAT number with an EU
 * member state's prefix), another business abroad (a business tax number of another country), or
 * anyone else abroad (no business number: treated as a consumer).
 */
export type BuyerKind = "uk" | "eu_business" | "business_abroad" | "consumer_abroad";

/** UK VAT at the seller's rate; or none, with the words the invoice must carry. */
export type VatTreatment = "uk_vat" | "reverse_charge" | "outside_scope";

export interface VatCase {
  supply: Supply | "any";
  buyer: BuyerKind | "any";
  treatment: VatTreatment;
  /** Why, for the decision record and the tests. */
  rule: string;
}

/** The cases, in order: the first that matches decides. */
export const VAT_CASES: readonly VatCase[] = [
  {
    supply: "classroom",
    buyer: "any",
    treatment: "uk_vat",
    rule: "Admission to an event is supplied where the event takes place: a UK classroom is UK VAT whoever attends.",
  },
  {
    supply: "live_online",
    buyer: "eu_business",
    treatment: "reverse_charge",
    rule: "Services to a business are supplied where the customer belongs; an EU business accounts for VAT itself.",
  },
  {
    supply: "on_demand",
    buyer: "eu_business",
    treatment: "reverse_charge",
    rule: "Services to a business are supplied where the customer belongs; an EU business accounts for VAT itself.",
  },
  {
    supply: "live_online",
    buyer: "business_abroad",
    treatment: "outside_scope",
    rule: "Services to a business outside the UK are supplied where the customer belongs: outside the scope of UK VAT.",
  },
  {
    supply: "on_demand",
    buyer: "business_abroad",
    treatment: "outside_scope",
    rule: "Services to a business outside the UK are supplied where the customer belongs: outside the scope of UK VAT.",
  },
  {
    supply: "any",
    buyer: "any",
    treatment: "uk_vat",
    rule: "Everything else, including consumers abroad, is charged UK VAT.",
  },
];

const EU_PREFIXES = new Set<string>(euVatPrefixes.prefixes);

/** The buyer's kind from the billing country and the VAT or business tax number given. */
export function buyerKind(billing: {
  country: string | null;
  vatNumber: string | null;
}): BuyerKind {
  const country = billing.country?.trim() ?? "";
  if (country === "" || isUnitedKingdom(country)) return "uk";
  const raw = billing.vatNumber?.replace(/[\s.-]+/g, "").toUpperCase() ?? "";
  if (raw === "") return "consumer_abroad";
  // Digits alone are a UK number only for a UK address: abroad they are that country's.
  const number = /^[A-Z]{2}/.test(raw) ? normaliseVatNumber(raw) : raw;
  const prefix = number.slice(0, 2);
  if (prefix === "GB" || prefix === "XI") return "uk";
  return EU_PREFIXES.has(prefix) ? "eu_business" : "business_abroad";
}

export function vatCase(supply: Supply, buyer: BuyerKind): VatCase {
  return VAT_CASES.find(
    (c) => (c.supply === "any" || c.supply === supply) && (c.buyer === "any" || c.buyer === buyer),
  )!;
}

/** What the invoice says of a line charged no UK VAT (HMRC VAT Notice 700, 16.3; 741A). */
export const VAT_TREATMENT_WORDING: Record<VatTreatment, string | null> = {
  uk_vat: null,
  reverse_charge:
    "Reverse charge: no UK VAT is charged. Services supplied to a business in the EU: the customer accounts for VAT in its own country.",
  outside_scope:
    "Outside the scope of UK VAT: services supplied to a business that belongs outside the UK.",
};

/** The checkout's line about it, under the price. */
export const PLACE_OF_SUPPLY_NOTE =
  "Businesses outside the UK booking a live online or on-demand course with their VAT or business tax number are not charged UK VAT; classroom courses in the UK always are.";
