import { config } from "../config.server.ts";
import { log } from "../log.server.ts";
import { AUTH_BASE_PATH, auth } from "./config.server.ts";
import { ACCOUNT_PAGE_HEADER, CLIENT_IP_HEADER } from "./lockout.server.ts";

/**
 * Calling better-auth's own HTTP handler on behalf of a browser's request (its cookies, Origin
 * and address), so the /auth forms and the account page get every check, hook and rate limit
 * that a direct call to /api/auth/* gets.
 */

/** Headers of the browser's request that better-auth's checks look at. */
export function forwardedHeaders(request: Request, clientIp: string | undefined): Headers {
  const headers = new Headers({ "Content-Type": "application/json" });
  for (const name of [
    "cookie",
    "origin",
    "referer",
    "user-agent",
    "sec-fetch-site",
    "sec-fetch-mode",
    "sec-fetch-dest",
  ]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (clientIp) headers.set(CLIENT_IP_HEADER, clientIp);
  return headers;
}

export function setCookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** An answer of better-auth's handler, read: JSON body, Set-Cookie headers, error code. */
export interface AuthCallResult<T = Record<string, unknown>> {
  ok: boolean;
  status: number;
  body: T | null;
  /** better-auth's error code (e.g. INVALID_CODE), empty on success. */
  code: string;
  message: string;
  headers: Headers;
}

/**
 * Calls one of better-auth's endpoints through its handler, as the browser's request (its
 * cookies, Origin and address): every check, hook and rate limit applies. `accountPage` marks
 * the /admin/account page's own calls (see ACCOUNT_PAGE_HEADER).
 */
export async function callAuthEndpoint<T = Record<string, unknown>>(
  request: Request,
  clientIp: string | undefined,
  path: string,
  body: unknown,
  { accountPage = false }: { accountPage?: boolean } = {},
): Promise<AuthCallResult<T>> {
  const headers = forwardedHeaders(request, clientIp);
  if (accountPage) headers.set(ACCOUNT_PAGE_HEADER, "1");
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const json = (await response.json().catch(() => null)) as
    (T & { code?: unknown; message?: unknown }) | null;
  const failed = !response.ok;
  const message =
    failed && typeof json?.message === "string" && json.message
      ? json.message
      : failed
        ? "Something went wrong. Please try again."
        : "";
  if (response.status >= 500)
    log.error({ status: response.status, path, message }, "auth call failed");
  return {
    ok: response.ok,
    status: response.status,
    body: json,
    code: failed && typeof json?.code === "string" ? json.code : "",
    message,
    headers: setCookiesOf(response),
  };
}

/** better-auth's error code and message in a refusal's JSON body. */
export async function authMessage(
  response: Response,
): Promise<{ code?: string; message?: string }> {
  const body = (await response.json().catch(() => null)) as {
    code?: unknown;
    message?: unknown;
  } | null;
  return {
    code: typeof body?.code === "string" ? body.code : undefined,
    message: typeof body?.message === "string" && body.message ? body.message : undefined,
  };
}
