import { registerZipResponse } from "#server/invoices/register.server.ts";
import { parseRegisterFilters } from "#app/lib/orders/register.ts";
import type { Route } from "./+types/documents-pdfs";

/** GET /admin/documents/pdfs?from=&to=: the range's documents as PDFs in one ZIP. */
export async function loader({ request }: Route.LoaderArgs) {
  return registerZipResponse(parseRegisterFilters(new URL(request.url).searchParams));
}
