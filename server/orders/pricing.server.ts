import { isValidQuantity } from "#app/lib/checkout.ts";

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
