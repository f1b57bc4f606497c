import { expect } from "vitest";
import { createAdmin, handleAuthRequest } from "#server/auth.server.ts";
import { config } from "#server/config.server.ts";

/**
 * For server tests that call admin routes directly: creates an admin in the test's database,
 * signs in through better-auth, and returns the session cookie to send.
 */
export async function adminCookie(): Promise<string> {
  const origin = new URL(config.publicUrl).origin;
  await createAdmin({ email: "staff@example.com", password: "correct horse battery" });
  const response = await handleAuthRequest(
    new Request(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: origin },
      body: JSON.stringify({ email: "staff@example.com", password: "correct horse battery" }),
    }),
    "203.0.113.9",
  );
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
