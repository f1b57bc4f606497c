import { z } from "zod/mini";
import { listQuery, parsePage, parseSearch } from "../admin/list.ts";
import { parseSpamFilter, type SpamFilter, type SpamReason } from "../admin/suspected-spam.ts";

/** Newsletter subscriptions as the admin screen shows them. Safe on both sides. */

export interface AdminSubscription {
  id: string;
  email: string;
  isActive: boolean;
  source: string | null;
  /** Set while held as suspected spam (not exported or counted). */
  spamReason: SpamReason | null;
  subscribedAt: string;
  /** When the person unsubscribed themselves, if they did: staff cannot switch them back on. */
  unsubscribedAt: string | null;
}

/**
 * Total, active, and subscribed on today's date in London ('New Today'), over real
 * subscriptions; `suspected`: those held as suspected spam.
 */
export interface SubscriptionStats {
  total: number;
  active: number;
  newToday: number;
  suspected: number;
}

export const SUBSCRIPTION_PAGE_SIZE = 50;

export interface SubscriptionFilters {
  /** Part of the address; '' for all. */
  q: string;
  /** Suspected spam: shown with the rest, alone, or hidden. */
  spam: SpamFilter;
  page: number;
}

export function parseSubscriptionFilters(params: URLSearchParams): SubscriptionFilters {
  return {
    q: parseSearch(params.get("q")),
    spam: parseSpamFilter(params.get("spam")),
    page: parsePage(params.get("page")),
  };
}

/** The query string for these filters, leaving defaults out. */
export function subscriptionFiltersQuery(filters: Partial<SubscriptionFilters>): string {
  const { q, spam, page } = filters;
  return listQuery({ q, spam, page });
}

/** The Activate/Deactivate button's post. */
export const subscriptionToggleSchema = z.object({
  id: z.uuid(),
  active: z.pipe(
    z.enum(["true", "false"]),
    z.transform((v: "true" | "false") => v === "true"),
  ),
});

/** The export's file name: today's London date, e.g. newsletter-subscribers-2026-11-22.txt. */
export function exportFileName(londonDate: string): string {
  return `newsletter-subscribers-${londonDate}.txt`;
}
