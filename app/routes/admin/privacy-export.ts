import { signedInAdmin } from "#server/auth/guard.server.ts";
import { exportPersonalData } from "#server/privacy/export.server.ts";
import { parsePrivacyQuery } from "#app/lib/admin/privacy.ts";
import type { Route } from "./+types/privacy-export";

/** GET /admin/privacy/export?email=&format=json|csv: everything held about one address. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const query = parsePrivacyQuery(new URL(request.url).searchParams);
  if (query.state !== "ok") {
    return new Response("Please give the e-mail address to export.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return exportPersonalData(query.email, query.format, admin);
}
