import { quotePdf } from "#server/quotes/quote-files.server.ts";
import type { Route } from "./+types/quote-pdf";

/** GET /admin/quotes/:quoteId/pdf: a sent quote's PDF (decision 0049); 404 for a draft. */
export async function loader({ params }: Route.LoaderArgs) {
  const file = await quotePdf(params.quoteId);
  if (!file) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(file.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
