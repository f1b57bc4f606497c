import type { HeadersArgs } from "react-router";
import { ALL_DATES_PARAM, COURSE_DATE_PARAM } from "../catalogue/course-dates.ts";
import { OFFER_PARAM } from "../catalogue/waiting-list.ts";
import { CARD_SESSION_PARAM } from "../orders/booking.ts";

/**
 * Lets any HTTP cache (a CDN, the site's own page cache) keep a public page for a minute and
 * serve it stale while it refetches. Only pages whose output depends on nothing but their URL
 * may send it: the page is then the same bytes for every visitor without cookies, and its
 * script policy is made of hashes, not a per-response nonce (app/entry.server.tsx).
 */
export const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

/**
 * Every query parameter a public page reads: `service` (/quote), `partner` (the catalogue),
 * `licence` (the File Interrogator page's form), `quote` (a course's quote form without
 * JavaScript), `token` (unsubscribe), `invoice` and `session_id` (the checkout's success page),
 * `date` (the checkout of a course date, and a date's waiting list), `dates` (a course page
 * listing all its dates), `offer` (a waiting list offer's link to the checkout), `card_session`
 * (the booker's page, back from paying an invoice by card).
 * The site's page cache keeps and renders a page by its path and these alone, so `?utm_source=…`,
 * `?fbclid=…` or any parameter no page reads gets the same cached copy (server/page-cache.server.ts).
 * A page that starts reading a new parameter adds it here.
 */
export const PAGE_QUERY_PARAMETERS: readonly string[] = [
  "service",
  "partner",
  "licence",
  "quote",
  "token",
  "invoice",
  "session_id",
  COURSE_DATE_PARAM,
  ALL_DATES_PARAM,
  OFFER_PARAM,
  CARD_SESSION_PARAM,
];

/** Whether a response's headers declare it shareable between visitors (see PUBLIC_PAGE_CACHE). */
export function isSharedPage(headers: Headers): boolean {
  const cacheControl = (headers.get("cache-control") ?? "").toLowerCase();
  return (
    /\bpublic\b/.test(cacheControl) &&
    /\bs-maxage=\d+/.test(cacheControl) &&
    !headers.has("set-cookie")
  );
}

/**
 * `headers` for public pages. A form's result or an error is rendered for one visitor, so when
 * an action or an error supplied headers, no shared-cache header is sent. (`headers` cannot
 * see the request method: an action that returns no headers at all looks like a plain GET.)
 */
export function publicPageHeaders({ actionHeaders, errorHeaders }: HeadersArgs): HeadersInit {
  if (errorHeaders) return { "Cache-Control": "no-store" };
  if ([...actionHeaders.keys()].length > 0) {
    return { "Cache-Control": actionHeaders.get("Cache-Control") ?? "no-store" };
  }
  return { "Cache-Control": PUBLIC_PAGE_CACHE };
}
