import { documentDownloadResponse } from "#server/invoices/document-files.server.ts";
import { clientAddress } from "#server/abuse.server.ts";
import { bookingAccess, bookingFileRefusal } from "#server/orders/booker-page.server.ts";
import type { Route } from "./+types/booking-document";

/**
 * GET /bookings/:token/documents/:documentId: one of the booking's invoices, receipts or credit
 * notes as a PDF (decision 0037); 404 when the link or the document is not this booking's.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const access = await bookingAccess(params.token, clientAddress(context));
  if (!access.ok) return bookingFileRefusal(access);
  return documentDownloadResponse(access.order.id, params.documentId);
}
