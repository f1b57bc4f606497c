import { handleStripeWebhook } from "#server/payments/stripe.server.ts";
import type { Route } from "./+types/stripe-webhook";

/** Stripe's events are small; anything larger is not from Stripe. */
const MAX_BODY_BYTES = 512 * 1024;

/** POST /api/stripe/webhook: the signature is checked on the raw body, byte for byte. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") {
    return Response.json(
      { error: "Method not allowed" },
      { status: 405, headers: { Allow: "POST" } },
    );
  }
  if (Number(request.headers.get("content-length") ?? "0") > MAX_BODY_BYTES) {
    return Response.json({ error: "Payload too large" }, { status: 413 });
  }
  const body = new Uint8Array(await request.arrayBuffer());
  if (body.byteLength > MAX_BODY_BYTES) {
    return Response.json({ error: "Payload too large" }, { status: 413 });
  }
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
