import { eq } from "drizzle-orm";
import { db, type Database, type Transaction } from "../db/client.server.ts";
import { quotes } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
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
