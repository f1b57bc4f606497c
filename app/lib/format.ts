/** Display formats shared by the server and the UI (spec §9: pounds sterling, en-GB). */

const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });

/**
 * A course price as '£1,450.00', or null when the course has none. Accepts the database's
 * numeric string ('1450.00') or a number; anything that is not a finite number counts as none.
 */
export function formatPrice(price: string | number | null | undefined): string | null {
  if (price === null || price === undefined || price === "") return null;
  const amount = typeof price === "number" ? price : Number(price);
  return Number.isFinite(amount) ? gbp.format(amount) : null;
}

/** The course page shows 'Contact us' where a course has no price. */
export function formatCoursePrice(price: string | number | null | undefined): string {
  return formatPrice(price) ?? "Contact us";
}

/** Whole hours with an 'h' suffix ('7h'), or 'TBD' when the duration is not set. */
export function formatDuration(hours: number | null | undefined): string {
  return hours === null || hours === undefined || !Number.isFinite(hours) ? "TBD" : `${hours}h`;
}
