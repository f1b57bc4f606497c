import { beforeEach, expect } from "vitest";
import { createAdmin } from "#server/auth/accounts.server.ts";
import { handleAuthRequest } from "#server/auth/sign-in.server.ts";
import { config } from "#server/config.server.ts";

/** The site's own origin, as its pages send it. */
export const origin = new URL(config.publicUrl).origin;

/** The signed-in admin that changes are recorded as (audit log, order timeline). */
export const ADMIN = { id: "audit-test-admin", email: "admin@example.com" };

/** The staff account the server tests sign in as. */
export const STAFF_EMAIL = "staff@example.com";
export const STAFF_PASSWORD = "correct horse battery";

/** A sign-in posted straight to better-auth's HTTP API from the site's origin, as a script would. */
export function signInRequest(email: string, password: string): Request {
  return new Request(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ email, password }),
  });
}

/** The Response a guard throws (a redirect or a 401); anything else thrown is rethrown. */
export async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a Response to be thrown");
}

/**
 * For server tests that call admin routes directly: creates an admin in the test's database,
 * signs in through better-auth, and returns the session cookie to send.
 */
export async function adminCookie(): Promise<string> {
  await createAdmin({ email: STAFF_EMAIL, password: STAFF_PASSWORD });
  const response = await handleAuthRequest(
    signInRequest(STAFF_EMAIL, STAFF_PASSWORD),
    "203.0.113.9",
  );
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** What an admin route's action answered: its status and its body. */
export interface ActionAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Posts to admin routes' actions as the signed-in staff member, signed in at the first post of
 * each test (each test has a fresh database). Call at the top of a test file, as
 * `useFreshDatabase()`; `post(route, path, params, fields)` takes the route through
 * `throughAdminLayout`, the URL path, its params and the fields (pairs, when a name repeats).
 */
export function useAdminPosts() {
  let session: Promise<string> | null = null;
  beforeEach(() => {
    session = null;
  });
  return async function post(
    route: { action: (args: never) => unknown },
    path: string,
    params: Record<string, string>,
    fields: Record<string, string> | [string, string][],
  ): Promise<ActionAnswer> {
    session ??= adminCookie();
    const body = new FormData();
    for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) {
      body.append(name, value);
    }
    const request = new Request(`${origin}${path}`, {
      method: "POST",
      headers: { Origin: origin, Cookie: await session },
      body,
    });
    const result = (await route.action({ request, params, context: {} } as never)) as {
      type?: string;
      data?: unknown;
      init?: { status?: number } | null;
    };
    return result.type === "DataWithResponseInit"
      ? { status: result.init?.status ?? 200, body: result.data as Record<string, unknown> }
      : { status: 200, body: result as unknown as Record<string, unknown> };
  };
}
