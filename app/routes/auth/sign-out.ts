import { replace } from "react-router";
import { signOut } from "#server/auth/sign-in.server.ts";
import type { Route } from "./+types/sign-out";

/** POST /auth/sign-out: ends the session in the database, clears the cookie, back to /auth. */
export async function action({ request, context }: Route.ActionArgs) {
  const headers = await signOut(request, context.clientIp);
  throw replace("/auth", { headers });
}

// Signing out only by POST: a link or an image elsewhere cannot sign anyone out.
export function loader() {
  throw replace("/auth");
}
