import { Link } from "react-router";

/** The admin area's not-found view: unknown admin paths, and records that do not exist. */
export function AdminNotFoundView({ detail = "This admin page does not exist (yet)." }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="mt-2 text-muted-foreground">{detail}</p>
      <Link
        to="/admin/dashboard"
        className="mt-4 inline-block text-primary underline underline-offset-4"
      >
        Back to the dashboard
      </Link>
    </section>
  );
}
