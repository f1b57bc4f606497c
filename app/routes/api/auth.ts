import { handleAuthRequest } from "#server/auth/sign-in.server.ts";
import type { Route } from "./+types/auth";

/** better-auth's HTTP API at /api/auth/* (its own Origin checks and sign-in rate limit apply). */
export function loader({ request, context }: Route.LoaderArgs) {
  return handleAuthRequest(request, context.clientIp);
}

export function action({ request, context }: Route.ActionArgs) {
  return handleAuthRequest(request, context.clientIp);
}
