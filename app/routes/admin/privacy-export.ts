import { requireAdmin } from "#server/auth.server.ts";
import { exportPersonalData } from "#server/privacy.server.ts";
import { parsePrivacyQuery } from "#app/lib/privacy.ts";
import type { Route } from "./+types/privacy-export";

/** GET /admin/privacy/export?email=&format=json|csv: everything held about one address. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const query = parsePrivacyQuery(new URL(request.url).searchParams);
  if (query.state !== "ok") {
    return new Response("Please give the e-mail address to export.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return exportPersonalData(query.email, query.format, admin);
}
