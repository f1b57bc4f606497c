import { documentDownloadResponse } from "#server/invoices/document-files.server.ts";
import type { Route } from "./+types/order-document";

/**
 * GET /admin/payments/:orderId/documents/:documentId: one of the order's invoices, receipts or
 * credit notes as a PDF download (404 when the document is not that order's).
 */
export async function loader({ params }: Route.LoaderArgs) {
  return documentDownloadResponse(params.orderId, params.documentId);
}
