import { signedInAdmin } from "#server/auth/guard.server.ts";
import { inquiriesCsvResponse } from "#server/inquiries/admin.server.ts";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import type { Route } from "./+types/inquiries-export";

/**
 * GET /admin/inquiries/export?type=&status=&reply=&owner=&q=&spam=: the inquiries the list shows
 * (every page), as CSV; "Mine" is the signed-in admin's.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const { page: _page, ...filters } = parseInquiryFilters(new URL(request.url).searchParams);
  return inquiriesCsvResponse(filters, `inquiries-${londonDate()}.csv`, { adminId: admin.id });
}
