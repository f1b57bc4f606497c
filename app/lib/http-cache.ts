import type { HeadersArgs } from "react-router";

/**
 * Lets a CDN keep a public page for a minute and serve it stale while it refetches. It also marks
 * the page as the same for every visitor without cookies, so server/page-cache.server.ts keeps it
 * for a few seconds: only pages whose output depends on nothing but their URL may send it.
 */
export const PUBLIC_PAGE_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

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
