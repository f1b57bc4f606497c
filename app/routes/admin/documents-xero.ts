import { xeroCsvResponse } from "#server/invoices/register.server.ts";
import { parseRegisterFilters } from "#app/lib/orders/register.ts";
import type { Route } from "./+types/documents-xero";

/** GET /admin/documents/xero?from=&to=: the range's documents as Xero's sales-invoice import. */
export async function loader({ request }: Route.LoaderArgs) {
  return xeroCsvResponse(parseRegisterFilters(new URL(request.url).searchParams));
}
