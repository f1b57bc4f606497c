import { requireAdmin } from "#server/auth.server.ts";
import { documentDownloadResponse } from "#server/invoices/pdf.server.ts";
import type { Route } from "./+types/order-document";

/**
 * GET /admin/payments/:orderId/documents/:documentId: one of the order's invoices, receipts or
 * credit notes as a PDF download (404 when the document is not that order's).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  return documentDownloadResponse(params.orderId, params.documentId);
}
