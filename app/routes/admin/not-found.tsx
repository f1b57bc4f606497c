import { Link, data } from "react-router";
import type { Route } from "./+types/not-found";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [{ title: "Not found | Admin Panel" }];

export default function AdminNotFound() {
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <Link to="/auth" className="text-primary underline underline-offset-4">
        Admin sign-in
      </Link>
    </section>
  );
}
