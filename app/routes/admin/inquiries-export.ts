import { inquiriesCsvResponse } from "#server/inquiries/admin.server.ts";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import type { Route } from "./+types/inquiries-export";

/**
 * GET /admin/inquiries/export?type=&status=&reply=&q=&spam=: the inquiries the list shows (every
 * page), as CSV.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { page: _page, ...filters } = parseInquiryFilters(new URL(request.url).searchParams);
  return inquiriesCsvResponse(filters, `inquiries-${londonDate()}.csv`);
}
