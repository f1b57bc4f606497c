/**
 * VAT arithmetic in whole pence (decision 0015; docs/rules.md, Invoices and VAT). Safe on both
 * sides: the checkout summary shows the same figures the server stores and the invoice prints.
 * Rates are basis points (20 % = 2000) so no binary float touches money. VAT is worked out once per
 * line (the course × places) and rounded to the nearest penny, halves up, as HMRC allows for
 * invoices.
 */

/** How the seller charges VAT, as configured (server/config.server.ts). */
export interface VatTerms {
  /** 0 when the seller is not VAT-registered: no VAT is charged or shown. */
  rateBasisPoints: number;
  /** Course prices already include VAT (the total is the price), or VAT is added on top. */
  pricesIncludeVat: boolean;
}

export interface LineAmounts {
  netCents: number;
  vatCents: number;
  totalCents: number;
}

/** Rounds numerator / denominator to the nearest whole number, halves up (both non-negative). */
function divideRounded(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Net, VAT and total of one line priced at `lineCents` (unit price × places). Prices excluding
 * VAT: net = line, VAT = net × rate. Prices including VAT: total = line, VAT = total × rate /
 * (1 + rate), the VAT fraction HMRC gives (1/6 at 20 %). Always net + VAT = total.
 */
export function lineAmounts(lineCents: number, terms: VatTerms): LineAmounts {
  const rate = terms.rateBasisPoints;
  if (rate <= 0) return { netCents: lineCents, vatCents: 0, totalCents: lineCents };
  if (terms.pricesIncludeVat) {
    const vatCents = divideRounded(lineCents * rate, 10_000 + rate);
    return { netCents: lineCents - vatCents, vatCents, totalCents: lineCents };
  }
  const vatCents = divideRounded(lineCents * rate, 10_000);
  return { netCents: lineCents, vatCents, totalCents: lineCents + vatCents };
}

/** '20%' or '17.5%' for a rate in basis points. */
export function formatVatRate(rateBasisPoints: number): string {
  return `${(rateBasisPoints / 100).toFixed(2).replace(/\.?0+$/, "")}%`;
}

/** What a price is said to be: 'excl. VAT', 'incl. VAT', or nothing when no VAT is charged. */
export function vatLabel(terms: VatTerms): string {
  if (terms.rateBasisPoints <= 0) return "";
  return terms.pricesIncludeVat ? "incl. VAT" : "excl. VAT";
}
