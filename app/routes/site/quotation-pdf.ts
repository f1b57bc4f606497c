import { customerQuoteDownloadResponse } from "#server/quotes/quote-files.server.ts";
import type { Route } from "./+types/quotation-pdf";

/** GET /quotes/:token/pdf: the quotation's PDF as sent (decision 0049); 404 for a bad link. */
export async function loader({ params }: Route.LoaderArgs) {
  return customerQuoteDownloadResponse(params.token);
}
