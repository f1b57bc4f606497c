import { documentDownloadResponse } from "#server/invoices/document-files.server.ts";
import { clientAddress } from "#server/abuse.server.ts";
import { bookingAccess } from "#server/orders/booker-page.server.ts";
import type { Route } from "./+types/booking-document";

/**
 * GET /bookings/:token/documents/:documentId: one of the booking's invoices, receipts or credit
 * notes as a PDF (decision 0037); 404 when the link or the document is not this booking's.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const access = await bookingAccess(params.token, clientAddress(context));
  if (!access.ok) return refusal(access.status, access.retryAfter);
  return documentDownloadResponse(access.orderId, params.documentId);
}

function refusal(status: number, retryAfter?: number): Response {
  return new Response(status === 429 ? "Too many requests" : "Not found", {
    status: status === 410 ? 404 : status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "private, no-store",
      ...(retryAfter ? { "Retry-After": String(retryAfter) } : {}),
    },
  });
}
