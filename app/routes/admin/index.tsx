import { redirect } from "react-router";
import { requireAdmin } from "#server/auth.server.ts";
import type { Route } from "./+types/index";

/** /admin → /admin/dashboard (anonymous visitors go to /auth first). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  throw redirect("/admin/dashboard");
}

export default function AdminIndex() {
  return null;
}
