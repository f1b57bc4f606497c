import { signInSheetResponse } from "#server/catalogue/date-register.server.ts";
import type { Route } from "./+types/date-sign-in-sheet";

/** GET /admin/dates/:dateId/register/sign-in-sheet: the printable sign-in sheet (PDF). */
export async function loader({ params }: Route.LoaderArgs) {
  return signInSheetResponse(params.dateId);
}
