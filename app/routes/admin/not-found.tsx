import { data } from "react-router";
import { AdminNotFoundView } from "#app/components/admin/admin-not-found.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import type { Route } from "./+types/not-found";

/** Unknown /admin paths: anonymous visitors learn nothing (they go to /auth like everywhere else). */
export async function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => adminMeta("Not found");

export default function AdminNotFound() {
  return <AdminNotFoundView />;
}
