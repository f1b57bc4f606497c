import { redirect } from "react-router";
import type { Route } from "./+types/newsletter-redirect";

/** /admin/newsletter → /admin/newsletter-subscriptions, after the guard. */
export async function loader({ request }: Route.LoaderArgs) {
  const { search } = new URL(request.url);
  throw redirect(`/admin/newsletter-subscriptions${search}`);
}

export default function NewsletterRedirect() {
  return null;
}
