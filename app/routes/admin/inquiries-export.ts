import { inquiriesCsvResponse } from "#server/inquiries/admin.server.ts";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import type { Route } from "./+types/inquiries-export";

/** GET /admin/inquiries/export?type=&status=&q=&spam=: the inquiries the list shows (every page), as CSV. */
export async function loader({ request }: Route.LoaderArgs) {
  const { type, status, q, spam } = parseInquiryFilters(new URL(request.url).searchParams);
  return inquiriesCsvResponse({ type, status, q, spam }, `inquiries-${londonDate()}.csv`);
}
