import { handleStripeWebhook } from "#server/payments/stripe-webhook.server.ts";
import type { Route } from "./+types/stripe-webhook";

/**
 * POST /api/stripe/webhook: the signature is checked on the raw body, byte for byte. The body is
 * capped before it gets here (1 MB, server/request-limits.server.ts: Stripe's events are small).
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return Response.json(
      { error: "Method not allowed" },
      { status: 405, headers: { Allow: "POST" } },
    );
  }
  const body = new Uint8Array(await request.arrayBuffer());
  const result = await handleStripeWebhook(body, request.headers.get("stripe-signature"));
  return Response.json(result.body, {
    status: result.status,
    headers: { "Cache-Control": "no-store" },
  });
}

export function loader() {
  return Response.json(
    { error: "Method not allowed" },
    { status: 405, headers: { Allow: "POST" } },
  );
}
