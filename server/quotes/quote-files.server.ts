import { eq } from "drizzle-orm";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { quotes } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { readQuoteToken } from "./links.server.ts";
import { drawQuotePdf, quoteFilename } from "./pdf.server.ts";
import type { QuoteSnapshot } from "./snapshot.server.ts";

/**
 * A sent quote's PDF (decision 0049), drawn from the snapshot fixed when it was sent: the same
 * bytes for the e-mail's attachment, the customer's page and the admin's download. Null for a
 * draft (nothing was sent) or an id that names no quote.
 */
export async function quotePdf(
  quoteId: string,
  executor: Database | Transaction = db(),
): Promise<{ filename: string; pdf: Buffer } | null> {
  if (!isUuid(quoteId)) return null;
  const [row] = await executor
    .select({ snapshot: quotes.snapshot })
    .from(quotes)
    .where(eq(quotes.id, quoteId));
  if (!row?.snapshot) return null;
  const snapshot = row.snapshot as QuoteSnapshot;
  return { filename: quoteFilename(snapshot), pdf: await drawQuotePdf(snapshot) };
}

/** The PDF as a download, never cached on the way, with the route's own `headers`. */
function downloadResponse(
  file: { filename: string; pdf: Buffer },
  headers: Record<string, string> = {},
): Response {
  return new Response(new Uint8Array(file.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      ...headers,
    },
  });
}

/** GET /admin/quotes/:quoteId/pdf (after requireAdmin): the PDF; 404 for a draft. */
export async function quoteDownloadResponse(quoteId: string): Promise<Response> {
  const file = await quotePdf(quoteId);
  return file ? downloadResponse(file) : new Response("Not found", { status: 404 });
}

/**
 * GET /quotes/:token/pdf, the customer's link: the PDF, kept out of search engines; 404 for a
 * bad link, 410 for one past its time.
 */
export async function customerQuoteDownloadResponse(token: string): Promise<Response> {
  const link = readQuoteToken(token);
  const file = link.ok ? await quotePdf(link.id) : null;
  if (!file)
    return new Response("Not found", { status: link.ok || link.reason === "invalid" ? 404 : 410 });
  return downloadResponse(file, { "X-Robots-Tag": "noindex" });
}
