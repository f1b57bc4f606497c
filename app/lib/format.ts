/** Display formats shared by the server and the UI: pounds sterling, en-GB. */

const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" });

/**
 * Whole pence as pounds sterling: '£1,450.00'. The one money format of the site: orders keep
 * pence, course prices are turned into pence first. `plain` gives the bare figure, '1450.00'
 * (no sign, no grouping), for a CSV column whose header already says GBP.
 */
export function formatPence(pence: number, options: { plain?: boolean } = {}): string {
  const amount = pence / 100;
  if (!options.plain) return gbp.format(amount);
  return gbp
    .formatToParts(amount)
    .filter((part) => part.type !== "currency" && part.type !== "group" && part.type !== "literal")
    .map((part) => part.value)
    .join("");
}

/**
 * A course price as '£1,450.00', or null when the course has none. Accepts the database's
 * numeric string ('1450.00') or a number; anything that is not a finite number counts as none.
 */
export function formatPrice(price: string | number | null | undefined): string | null {
  if (price === null || price === undefined || price === "") return null;
  const amount = typeof price === "number" ? price : Number(price);
  // numeric(10,2) has at most two decimals, so rounding only undoes the float's error.
  return Number.isFinite(amount) ? formatPence(Math.round(amount * 100)) : null;
}

/** The course page shows 'Contact us' where a course has no price. */
export function formatCoursePrice(price: string | number | null | undefined): string {
  return formatPrice(price) ?? "Contact us";
}

/** Whole hours with an 'h' suffix ('7h'), or 'TBD' when the duration is not set. */
export function formatDuration(hours: number | null | undefined): string {
  return hours === null || hours === undefined || !Number.isFinite(hours) ? "TBD" : `${hours}h`;
}
