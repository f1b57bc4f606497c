/**
 * What the admin list screens (Inquiries, Payments, Newsletter) share: the page of rows a loader
 * returns, and reading and writing their filters in the URL. Safe on both sides.
 */

/** One page of a list as its loader returns it. */
export interface AdminList<Item> {
  items: Item[];
  /** Rows matching the filters, on every page. */
  total: number;
  /** The page shown, 1-based (a page past the end shows the last one). */
  page: number;
  pageCount: number;
}

export const SEARCH_MAX_LENGTH = 200;

export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1;
}

export function parseSearch(value: string | null): string {
  return (value ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
}

/** One of `values`, or 'all' for anything else. */
export function oneOf<T extends string>(values: readonly T[], value: string | null): T | "all" {
  return value && (values as readonly string[]).includes(value) ? (value as T) : "all";
}

/**
 * A list's query string, in the order given, leaving defaults out ('', 'all', null, page 1) so
 * links stay short and the plain path is the unfiltered first page.
 */
export function listQuery(values: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === "" || value === "all") continue;
    if (key === "page" && Number(value) <= 1) continue;
    params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}
