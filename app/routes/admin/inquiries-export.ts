import { requireAdmin } from "#server/auth.server.ts";
import { inquiriesCsvResponse } from "#server/inquiry-admin.server.ts";
import { parseInquiryFilters } from "#app/lib/admin-inquiries.ts";
import { londonDate } from "#app/lib/admin-time.ts";
import type { Route } from "./+types/inquiries-export";

/** GET /admin/inquiries/export?type=&status=&q=&spam=: the inquiries the list shows (every page), as CSV. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { type, status, q, spam } = parseInquiryFilters(new URL(request.url).searchParams);
  return inquiriesCsvResponse({ type, status, q, spam }, `inquiries-${londonDate()}.csv`);
}
