import { createCookie } from "react-router";
import { derivedSecret } from "../auth/secret.server.ts";
import { config } from "../config.server.ts";
import { isUuid } from "../db/sql.server.ts";

/**
 * Which orders this browser placed (docs/rules.md, Checkout and orders): the success page shows an
 * order's reference and summary only to the buyer who placed it, never to whoever else opens its
 * URL. The checkout sets a signed, HttpOnly, SameSite=Lax cookie holding the ids of the browser's
 * recent orders, newest first; it is sent only to /courses/ pages (so the rest of the site stays
 * cacheable for the buyer) and also on the return from Stripe's page (a top-level GET navigation).
 */

/** How many recent orders one browser remembers, and for how long. */
export const REMEMBERED_ORDERS = 10;
const MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

let cookie: ReturnType<typeof createCookie> | undefined;

function buyerOrdersCookie() {
  cookie ??= createCookie("nw_orders", {
    secrets: [derivedSecret("buyer-orders-cookie")],
    httpOnly: true,
    sameSite: "lax",
    secure: config.publicUrl.startsWith("https://"),
    path: "/courses/",
    maxAge: MAX_AGE_SECONDS,
  });
  return cookie;
}

/** The ids of the orders this browser placed, newest first (none when the cookie is forged). */
export async function rememberedOrderIds(request: Request): Promise<string[]> {
  const value: unknown = await buyerOrdersCookie().parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return [];
  return value.filter((id): id is string => typeof id === "string" && isUuid(id));
}

/** The Set-Cookie header that adds `orderId` to this browser's recent orders. */
export async function rememberOrder(request: Request, orderId: string): Promise<string> {
  const kept = (await rememberedOrderIds(request)).filter((id) => id !== orderId);
  return buyerOrdersCookie().serialize([orderId, ...kept].slice(0, REMEMBERED_ORDERS));
}
