import {
  createContext,
  replace,
  type MiddlewareFunction,
  type RouterContextProvider,
} from "react-router";
import { config } from "../config.server.ts";
import { auth, sessionDeadline } from "./config.server.ts";
import { endSession } from "./second-factor.server.ts";

/**
 * Who is signed in, and the admin guard: the session look-up (one per request), `requireAdmin`
 * (the rules for pages, actions and /api), and the route middleware that applies it to every
 * route under the admin layout (decision 0026).
 */

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  /** Two-factor sign-in (TOTP) is on for this admin. */
  twoFactorEnabled: boolean;
  /** This session passed a second factor (decision 0029); the account's setting alone does not. */
  twoFactorVerified: boolean;
}

interface SessionLookup {
  user: AdminUser | null;
  /** The session's id (to mark 'This device' in the admin's list of sessions). */
  sessionId: string | null;
  /** Set-Cookie headers better-auth wants sent back (a session pushed back, or a dead cookie cleared). */
  headers: Headers;
}

// One look-up per request, shared by the middleware, the loaders and the account page.
const lookups = new WeakMap<Request, Promise<SessionLookup>>();

export function hasSessionCookie(request: Request): boolean {
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/.test(
    request.headers.get("cookie") ?? "",
  );
}

async function lookUpSession(request: Request): Promise<SessionLookup> {
  if (!hasSessionCookie(request)) return { user: null, sessionId: null, headers: new Headers() };
  const { headers, response } = await auth().api.getSession({
    headers: request.headers,
    returnHeaders: true,
  });
  const cookies = new Headers();
  for (const cookie of headers.getSetCookie()) cookies.append("Set-Cookie", cookie);
  if (response && sessionDeadline(new Date(response.session.createdAt)) <= new Date()) {
    // Past the absolute lifetime however busy (better-auth's sliding expiry alone would keep a
    // session in daily use alive for ever): ended here, in the database and in the browser.
    await (await auth().$context).internalAdapter.deleteSession(response.session.token);
    return { user: null, sessionId: null, headers: expiredSessionCookies() };
  }
  const found = response?.user;
  if (response && found?.twoFactorEnabled && !response.session.twoFactorVerified) {
    // A session that never passed the second factor its account now needs (signed in with the
    // password before two-factor sign-in was turned on): it ends, whatever it was doing.
    await endSession(response.session.id);
    return { user: null, sessionId: null, headers: expiredSessionCookies() };
  }
  return {
    user: found
      ? {
          id: found.id,
          email: found.email,
          name: found.name,
          twoFactorEnabled: Boolean(found.twoFactorEnabled),
          twoFactorVerified: Boolean(response.session.twoFactorVerified),
        }
      : null,
    sessionId: response?.session.id ?? null,
    headers: cookies,
  };
}

/** Set-Cookie headers that remove better-auth's session cookie from the browser. */
function expiredSessionCookies(): Headers {
  const secure = config.publicUrl.startsWith("https://");
  const name = `${secure ? "__Secure-" : ""}better-auth.session_token`;
  const headers = new Headers();
  headers.append(
    "Set-Cookie",
    `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
  return headers;
}

/** The signed-in admin, or null. Also extends the session while it is in use (see sessionCookies). */
export function getAdmin(request: Request): Promise<AdminUser | null> {
  return readSession(request).then((s) => s.user);
}

/** The id of this request's session (null when signed out). */
export function currentSessionId(request: Request): Promise<string | null> {
  return readSession(request).then((s) => s.sessionId);
}

function readSession(request: Request): Promise<SessionLookup> {
  let lookup = lookups.get(request);
  if (!lookup) {
    lookup = lookUpSession(request);
    lookups.set(request, lookup);
  }
  return lookup;
}

/**
 * Set-Cookie headers to send with this request's response: when a session is extended its cookie
 * gets a new expiry too. The admin layout's loader returns them (`data(…, { headers })`).
 */
export async function sessionCookies(request: Request): Promise<Headers> {
  return new Headers((await readSession(request)).headers);
}

function isApiRequest(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return pathname === "/api" || pathname.startsWith("/api/");
}

function jsonError(status: 401 | 403, error: string, message: string, headers = new Headers()) {
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify({ error, message }), { status, headers });
}

/** Where an admin lands after signing in when no page was asked for. */
export const ADMIN_HOME = "/admin/dashboard";

/**
 * The page an admin asked for, carried through sign-in as `/auth?redirectTo=…`. Only a path in
 * the admin area, as the browser would resolve it, is believed; anything else (another site, a
 * `//host` path, a public page) leads to the dashboard.
 */
export function adminReturnPath(request: Request): string {
  const wanted = new URL(request.url).searchParams.get("redirectTo");
  if (!wanted || !wanted.startsWith("/") || wanted.startsWith("//")) return ADMIN_HOME;
  const base = new URL(request.url).origin;
  let resolved: URL;
  try {
    resolved = new URL(wanted, base);
  } catch {
    return ADMIN_HOME;
  }
  if (resolved.origin !== base || !/^\/admin(\/|$)/.test(resolved.pathname)) return ADMIN_HOME;
  return `${resolved.pathname}${resolved.search}`;
}

/** /auth, naming the admin page asked for unless it is the dashboard itself. */
function signInPathFor(request: Request): string {
  const { pathname, search } = new URL(request.url);
  const asked = `${pathname}${search}`;
  return asked === "/admin" || asked === ADMIN_HOME
    ? "/auth"
    : `/auth?redirectTo=${encodeURIComponent(asked)}`;
}

/** Where an admin without two-factor sign-in is sent while REQUIRE_ADMIN_2FA is on. */
export const ACCOUNT_PATH = "/admin/account";

export interface RequireAdminOptions {
  /**
   * Only for /admin/account: reachable while REQUIRE_ADMIN_2FA is on and the admin has not yet
   * turned two-factor sign-in on, so that they can.
   */
  allowWithoutTwoFactor?: boolean;
}

/**
 * The guard: run by `adminMiddleware` before every loader and action under the admin layout, and
 * the first line of every admin /api endpoint (all but better-auth's own and the Stripe webhook).
 *
 * Returns the signed-in admin. Otherwise throws a Response, which React Router sends as is:
 * - a page (GET/HEAD outside /api): a redirect to /auth that replaces the history entry;
 * - an action (any other method) or an /api request: 401 JSON `{error, message}`.
 * A non-GET request whose Origin header names another site gets 403 before anything else.
 * With REQUIRE_ADMIN_2FA on, a session that has not passed a second factor (the admin has yet to
 * turn two-factor sign-in on) is sent to /admin/account (a page) or answered 403 JSON
 * `two_factor_required` (anything else).
 */
export async function requireAdmin(
  request: Request,
  options: RequireAdminOptions = {},
): Promise<AdminUser> {
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (!isRead) {
    const origin = request.headers.get("origin");
    if (origin && !config.trustedOrigins.includes(origin)) {
      throw jsonError(403, "forbidden", "This request came from another site.");
    }
  }
  const { user: admin, headers } = await readSession(request);
  if (admin) {
    // A session of an account with two-factor on that did not pass it has already ended
    // (lookUpSession): here a session without a second factor is one still to enrol.
    if (!config.requireAdmin2fa || admin.twoFactorVerified || options.allowWithoutTwoFactor)
      return admin;
    if (isRead && !isApiRequest(request)) throw replace(ACCOUNT_PATH, { headers });
    throw jsonError(
      403,
      "two_factor_required",
      "Turn on two-factor sign-in under My Account first.",
      headers,
    );
  }
  if (isRead && !isApiRequest(request)) throw replace(signInPathFor(request), { headers });
  throw jsonError(401, "unauthorized", "Sign in as an admin to do this.", headers);
}

/* ---------------------------------------------------------------- the admin layout's middleware */

/** The admin `adminMiddleware` let through, for the loaders and actions under the admin layout. */
export const adminContext = createContext<AdminUser>();

/**
 * The signed-in admin in a loader or action under the admin layout. Throws (a 500, never data)
 * if called from a route outside the layout, where no middleware has checked anyone.
 */
export function signedInAdmin(context: Readonly<RouterContextProvider>): AdminUser {
  return context.get(adminContext);
}

/** The one admin page that opens while REQUIRE_ADMIN_2FA waits for two-factor sign-in. */
function opensWithoutTwoFactor(request: Request): boolean {
  const path = new URL(request.url).pathname.replace(/\/+$/, "").toLowerCase();
  return path === ACCOUNT_PATH;
}

/**
 * The admin layout's route middleware (decision 0026): `requireAdmin` before any loader or action
 * of a route under the layout runs — its pages, their data requests and its downloads — so a new
 * admin route is guarded by where it sits in app/routes.ts. Its answers are requireAdmin's (a
 * redirect to /auth for a page, 401/403 JSON for an action). Sends back the session cookie when
 * better-auth has just extended the session.
 */
export const adminMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const admin = await requireAdmin(request, {
    allowWithoutTwoFactor: opensWithoutTwoFactor(request),
  });
  context.set(adminContext, admin);
  const cookies = (await readSession(request)).headers.getSetCookie();
  if (!cookies.length) return;
  const response = await next();
  return withCookies(response, cookies);
};

function withCookies(response: Response, cookies: string[]): Response {
  // React Router's next() answers a Response; a test calling a loader behind the middleware
  // may get the loader's own data back.
  if (!(response instanceof Response)) return response;
  try {
    for (const cookie of cookies) response.headers.append("Set-Cookie", cookie);
    return response;
  } catch {
    // A response with immutable headers (Response.redirect): copied with the cookies added.
    const headers = new Headers(response.headers);
    for (const cookie of cookies) headers.append("Set-Cookie", cookie);
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }
}
