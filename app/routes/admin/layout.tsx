import { useEffect } from "react";
import { isRouteErrorResponse, Link, Outlet, useLocation, useRouteError } from "react-router";
import { adminMiddleware, signedInAdmin } from "#server/auth/guard.server.ts";
import { AdminShell } from "#app/components/admin/admin-shell.tsx";
import { adminNavItem, LOAD_FAILED_MESSAGES } from "#app/lib/admin/nav.ts";
import { toast } from "#app/lib/ui/toast.ts";
import type { Route } from "./+types/layout";

/**
 * The admin shell (no site header or footer), and the admin guard: its middleware checks the
 * session before any loader or action of a route under this layout runs — pages and downloads
 * alike — and hands them the admin (decision 0026). Every admin route sits under this layout.
 */
export const middleware: Route.MiddlewareFunction[] = [adminMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  return { email: signedInAdmin(context).email };
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

/**
 * The one error boundary of the admin area. A screen whose loader throws (its list could not be
 * read) is shown inside the shell with a way to try again, and the spec's toast for that screen
 * ('Failed to fetch inquiries', …). When the shell itself could not load, a plain page.
 */
export function ErrorBoundary({ loaderData }: Route.ErrorBoundaryProps) {
  const error = useRouteError();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const screen = adminNavItem(location.pathname);
  const message = screen ? LOAD_FAILED_MESSAGES[screen.to] : undefined;

  useEffect(() => {
    if (message) toast({ title: "Error", description: message, variant: "destructive" });
  }, [message, error]);

  if (loaderData && status !== 404) {
    return (
      <AdminShell email={loaderData.email}>
        <title>{`${screen?.label ?? "Error"} | Admin Panel`}</title>
        <section role="alert" className="mx-auto max-w-xl py-16 text-center">
          <h1 className="text-2xl font-semibold">{screen?.label ?? "Something went wrong"}</h1>
          <p className="mt-2 text-muted-foreground">
            {message ?? "Something went wrong"}. Please try again in a moment.
          </p>
          <Link
            to={`${location.pathname}${location.search}`}
            reloadDocument
            className="mt-4 inline-block text-primary underline underline-offset-4"
          >
            Try again
          </Link>
        </section>
      </AdminShell>
    );
  }
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
