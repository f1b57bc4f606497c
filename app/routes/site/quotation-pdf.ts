import { readQuoteToken } from "#server/quotes/links.server.ts";
import { quotePdf } from "#server/quotes/quote-files.server.ts";
import type { Route } from "./+types/quotation-pdf";

/** GET /quotes/:token/pdf: the quotation's PDF as sent (decision 0049); 404 for a bad link. */
export async function loader({ params }: Route.LoaderArgs) {
  const link = readQuoteToken(params.token);
  const file = link.ok ? await quotePdf(link.id) : null;
  if (!file)
    return new Response("Not found", { status: link.ok || link.reason === "invalid" ? 404 : 410 });
  return new Response(new Uint8Array(file.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
