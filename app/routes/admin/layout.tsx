import { data, isRouteErrorResponse, Link, Outlet, useRouteError } from "react-router";
import { requireAdmin, sessionCookies } from "#server/auth.server.ts";
import { AdminShell } from "#app/components/admin/admin-shell.tsx";
import type { Route } from "./+types/layout";

/**
 * The admin shell (no site header or footer). Its loader is a guard like every admin loader;
 * it also sends back the session cookie when better-auth has just extended the session.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return data({ email: admin.email }, { headers: await sessionCookies(request) });
}

// Private pages: never stored by a browser's back-forward cache or a shared cache.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell email={loaderData.email}>
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <title>Something went wrong | Admin Panel</title>
      <h1 className="text-2xl font-semibold">
        {status === 404 ? "Oops! Page not found" : "Something went wrong"}
      </h1>
      <p className="text-muted-foreground">Please try again in a moment.</p>
      <Link
        to="/admin/dashboard"
        reloadDocument
        className="text-primary underline underline-offset-4"
      >
        Back to the dashboard
      </Link>
    </main>
  );
}
