import { redirect } from "react-router";
import { requireAdmin } from "#server/auth.server.ts";
import type { Route } from "./+types/newsletter-redirect";

/** /admin/newsletter → /admin/newsletter-subscriptions (spec §2), after the guard. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { search } = new URL(request.url);
  throw redirect(`/admin/newsletter-subscriptions${search}`);
}

export default function NewsletterRedirect() {
  return null;
}
