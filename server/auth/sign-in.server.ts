import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { log } from "../log.server.ts";
import { AUTH_BASE_PATH, auth } from "./config.server.ts";
import {
  callAuthEndpoint,
  forwardedHeaders,
  setCookiesOf,
  type AuthCallResult,
} from "./endpoint.server.ts";
import { getAdmin, hasSessionCookie } from "./guard.server.ts";
import { ACCOUNT_PAGE_HEADER, CLIENT_IP_HEADER } from "./lockout.server.ts";

/**
 * Signing in and out: the /api/auth/* pass-through, the /auth form's password and code steps,
 * and sign-out — all through better-auth's handler.
 */

/**
 * The only better-auth endpoints a browser may call itself at /api/auth: the sign-in steps and
 * sign-out, which carry the lockout, the audit rows and the one-use codes (lockout.server.ts).
 * Everything else — account, password and session endpoints, and anything a better-auth update
 * adds — is reached only through our own pages, behind the admin guard (decision 0029).
 */
const OPEN_AUTH_ENDPOINTS = new Set([
  "POST /sign-in/email",
  "POST /two-factor/verify-totp",
  "POST /two-factor/verify-backup-code",
  "POST /sign-out",
]);

/**
 * Passes a request to better-auth's own HTTP handler, if it is one of OPEN_AUTH_ENDPOINTS (the
 * /auth form goes through the same handler, so both get its Origin checks and rate limit).
 * Any other endpoint is not found; a signed-in admin's call to one is audited. `clientIp` is
 * Express's view of the caller; whatever the client put in CLIENT_IP_HEADER is dropped.
 */
export async function handleAuthRequest(
  request: Request,
  clientIp: string | undefined,
): Promise<Response> {
  const endpoint = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
  if (!OPEN_AUTH_ENDPOINTS.has(`${request.method} ${endpoint}`)) {
    return refuseClosedEndpoint(request, endpoint, clientIp);
  }
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  headers.delete(ACCOUNT_PAGE_HEADER);
  if (clientIp) headers.set(CLIENT_IP_HEADER, clientIp);
  const init: RequestInit = { method: request.method, headers };
  if (request.method !== "GET" && request.method !== "HEAD") {
    // Read here, within the cap on /api/auth bodies (server/request-limits.server.ts): a body
    // refused or cut short never reaches better-auth, and the client has had its answer.
    try {
      init.body = await request.arrayBuffer();
    } catch {
      return new Response(null, { status: 400 });
    }
  }
  return auth().handler(new Request(request.url, init));
}

async function refuseClosedEndpoint(
  request: Request,
  endpoint: string,
  clientIp: string | undefined,
): Promise<Response> {
  const admin = hasSessionCookie(request) ? await getAdmin(request).catch(() => null) : null;
  if (admin) {
    // A signed-in session going round the pages to an account endpoint: worth a row.
    await recordAudit(db(), admin, {
      action: "auth.endpoint_refused",
      subjectType: "admin",
      subjectId: admin.id,
      summary: `${request.method} ${AUTH_BASE_PATH}${endpoint.slice(0, 100)}`,
      ipAddress: clientIp ?? null,
    });
  }
  return new Response(
    JSON.stringify({ error: "not_found", message: "There is no such endpoint." }),
    {
      status: 404,
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
    },
  );
}

export type SignInResult =
  | {
      ok: true;
      /** The password was right and a code must follow: `headers` set the two-factor cookie. */
      twoFactor: boolean;
      headers: Headers;
    }
  | { ok: false; status: number; code: string; message: string };

/**
 * Signs in through better-auth's handler as if the browser had posted to
 * /api/auth/sign-in/email. On success `headers` holds the session cookie, or, for an admin with
 * two-factor sign-in, the short-lived two-factor cookie (`twoFactor`: a code must follow, see
 * verifySecondFactor). On failure `message` is better-auth's own ('Invalid email or password',
 * 'Too many requests. Please try again later.').
 */
export async function signInWithPassword(
  request: Request,
  credentials: { email: string; password: string },
  clientIp: string | undefined,
): Promise<SignInResult> {
  const result = await callAuthEndpoint<{ twoFactorRedirect?: boolean }>(
    request,
    clientIp,
    "/sign-in/email",
    { ...credentials, rememberMe: true },
  );
  if (!result.ok) {
    const message = result.status >= 500 ? "Sign-in failed. Please try again." : result.message;
    return { ok: false, status: result.status, code: result.code, message };
  }
  return { ok: true, twoFactor: result.body?.twoFactorRedirect === true, headers: result.headers };
}

/**
 * The second sign-in step: a code from the authenticator app (`totp`) or a backup code, checked
 * by better-auth against the two-factor cookie the password step set (forwarded from the
 * browser). On success `headers` set the session cookie and clear the two-factor one.
 */
export async function verifySecondFactor(
  request: Request,
  input: { method: "totp" | "backup_code"; code: string },
  clientIp: string | undefined,
): Promise<AuthCallResult> {
  const path =
    input.method === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
  return callAuthEndpoint(request, clientIp, path, { code: input.code });
}

/**
 * Ends the session in the database and returns the Set-Cookie headers that clear the cookie.
 * Without a session there is nothing to end.
 */
export async function signOut(request: Request, clientIp: string | undefined): Promise<Headers> {
  if (!hasSessionCookie(request)) return new Headers();
  const response = await auth().handler(
    new Request(`${config.publicUrl}${AUTH_BASE_PATH}/sign-out`, {
      method: "POST",
      headers: forwardedHeaders(request, clientIp),
      body: "{}",
    }),
  );
  if (!response.ok) log.warn({ status: response.status }, "sign-out refused by better-auth");
  return setCookiesOf(response);
}
