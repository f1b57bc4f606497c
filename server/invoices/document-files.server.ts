/**
 * A stored document as a file: its PDF drawn again from the snapshot read from the database
 * (for the outbox worker's attachment and the admin's download), and the download response.
 */
import { eq } from "drizzle-orm";
import { db, type Database } from "../db/client.server.ts";
import { orderDocuments } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import type { DocumentSnapshot } from "./snapshot.server.ts";
import { drawDocumentPdf } from "./pdf.server.ts";
import { documentFilename } from "./pdf-text.server.ts";

export interface DocumentPdf {
  number: string;
  filename: string;
  orderId: string;
  pdf: Buffer;
}

/**
 * A document's PDF, read from `database` (the outbox worker's; by default the site's): null
 * when there is no such document, or, with `orderId`, when it belongs to another order.
 */
export async function documentPdf(
  documentId: string,
  options: { orderId?: string; database?: Database } = {},
): Promise<DocumentPdf | null> {
  if (!isUuid(documentId) || (options.orderId !== undefined && !isUuid(options.orderId))) {
    return null;
  }
  const [row] = await (options.database ?? db())
    .select({
      orderId: orderDocuments.orderId,
      number: orderDocuments.number,
      snapshot: orderDocuments.snapshot,
    })
    .from(orderDocuments)
    .where(eq(orderDocuments.id, documentId));
  if (!row || (options.orderId !== undefined && row.orderId !== options.orderId)) return null;
  return {
    number: row.number,
    filename: documentFilename(row.number),
    orderId: row.orderId,
    pdf: await drawDocumentPdf(row.snapshot as DocumentSnapshot),
  };
}

/**
 * GET /admin/payments/:orderId/documents/:documentId (after requireAdmin): the PDF as a
 * download, never cached on the way; 404 when the document is not that order's.
 */
export async function documentDownloadResponse(
  orderId: string,
  documentId: string,
): Promise<Response> {
  const file = await documentPdf(documentId, { orderId });
  if (!file) {
    return new Response("Not found", {
      status: 404,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "private, no-store",
      },
    });
  }
  return new Response(new Uint8Array(file.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Content-Length": String(file.pdf.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
