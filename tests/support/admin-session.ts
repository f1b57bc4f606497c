import { expect } from "vitest";
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
