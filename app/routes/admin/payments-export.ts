import { ordersCsvResponse } from "#server/orders/csv.server.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import { parseOrderFilters } from "#app/lib/orders/orders.ts";
import type { Route } from "./+types/payments-export";

/** GET /admin/payments/export?q=&status=&method=: the orders the list shows (every page), as CSV. */
export async function loader({ request }: Route.LoaderArgs) {
  const { search, status, method } = parseOrderFilters(new URL(request.url).searchParams);
  return ordersCsvResponse({ search, status, method }, `orders-${londonDate()}.csv`);
}
