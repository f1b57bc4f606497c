import { registerCsvResponse } from "#server/catalogue/date-register.server.ts";
import type { Route } from "./+types/date-register-csv";

/** GET /admin/dates/:dateId/register/csv: the date's register as CSV (404 for no such date). */
export async function loader({ params }: Route.LoaderArgs) {
  return registerCsvResponse(params.dateId);
}
