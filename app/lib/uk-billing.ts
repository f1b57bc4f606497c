/**
 * The UK billing rules of an invoice address: which countries are the United Kingdom, the Royal
 * Mail's postcode format, and the shape of a VAT number (a UK VAT invoice names the customer,
 * their address and, when they give one, their VAT number). Used by the checkout's schema
 * (checkout.ts) on both sides.
 */

/** What visitors type for the United Kingdom (compared lower-cased, spaces collapsed). */
const UK_NAMES = new Set([
  "united kingdom",
  "united kingdom of great britain and northern ireland",
  "uk",
  "u.k.",
  "gb",
  "great britain",
  "britain",
  "england",
  "scotland",
  "wales",
  "northern ireland",
]);

export function isUnitedKingdom(country: string): boolean {
  return UK_NAMES.has(country.trim().replace(/\s+/g, " ").toLowerCase());
}

/** Outward code (area, district) and inward code (sector, unit); GIR 0AA is Girobank's. */
const UK_POSTCODE = /^(?:[A-Z]{1,2}\d[A-Z\d]?|GIR) ?\d[A-Z]{2}$/;

/**
 * A UK postcode written the Royal Mail way ('sw1a1aa' → 'SW1A 1AA'), or null when it is not
 * one. Only the format is checked, not that the postcode exists.
 */
export function formatUkPostcode(postcode: string): string | null {
  const compact = postcode.replace(/\s+/g, "").toUpperCase();
  if (!UK_POSTCODE.test(compact)) return null;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/**
 * A buyer's VAT number without spaces, dots or dashes, upper-cased; nine or twelve digits alone
 * are taken as a UK number ('GB' added).
 */
export function normaliseVatNumber(vatNumber: string): string {
  const compact = vatNumber.replace(/[\s.-]+/g, "").toUpperCase();
  return /^(\d{9}|\d{12})$/.test(compact) ? `GB${compact}` : compact;
}

/**
 * UK (GB and 9 or 12 digits, or the GD/HA government and health authority numbers; XI for
 * Northern Ireland) or another country's: two letters and 2 to 13 letters or digits, with at
 * least one digit.
 */
export function isValidVatNumber(vatNumber: string): boolean {
  if (/^(GB|XI)/.test(vatNumber)) return /^(GB|XI)(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/.test(vatNumber);
  return /^[A-Z]{2}(?=[A-Z]*\d)[A-Z0-9]{2,13}$/.test(vatNumber);
}
