import { quoteDownloadResponse } from "#server/quotes/quote-files.server.ts";
import type { Route } from "./+types/quote-pdf";

/** GET /admin/quotes/:quoteId/pdf: a sent quote's PDF (decision 0049); 404 for a draft. */
export async function loader({ params }: Route.LoaderArgs) {
  return quoteDownloadResponse(params.quoteId);
}
