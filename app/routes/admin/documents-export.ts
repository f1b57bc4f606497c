import { registerCsvResponse } from "#server/invoices/register.server.ts";
import { parseRegisterFilters } from "#app/lib/orders/register.ts";
import type { Route } from "./+types/documents-export";

/** GET /admin/documents/export?from=&to=: the register of the range, as CSV. */
export async function loader({ request }: Route.LoaderArgs) {
  return registerCsvResponse(parseRegisterFilters(new URL(request.url).searchParams));
}
