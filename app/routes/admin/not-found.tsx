import { data, Link } from "react-router";
import { requireAdmin } from "#server/auth.server.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import type { Route } from "./+types/not-found";

/** Unknown /admin paths: anonymous visitors learn nothing (they go to /auth like everywhere else). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => adminMeta("Not found");

export default function AdminNotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="mt-2 text-muted-foreground">This admin page does not exist (yet).</p>
      <Link
        to="/admin/dashboard"
        className="mt-4 inline-block text-primary underline underline-offset-4"
      >
        Back to the dashboard
      </Link>
    </section>
  );
}
