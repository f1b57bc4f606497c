import { ordersCsvResponse } from "#server/orders/csv.server.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import { parseOrderFilters } from "#app/lib/orders/order-filters.ts";
import type { Route } from "./+types/payments-export";

/**
 * GET /admin/payments/export?q=&status=&method=&dates=&from=&to=: the orders the list shows (every
 * page), as CSV.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const { page: _page, ...filters } = parseOrderFilters(new URL(request.url).searchParams);
  return ordersCsvResponse(filters, `orders-${londonDate()}.csv`);
}
