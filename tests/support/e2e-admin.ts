import { expect, test, type Page } from "@playwright/test";

/**
 * The admin the end-to-end web server starts with: playwright.config.ts pipes this password into
 * `scripts/admin-create.ts` on the fresh data directory before the site starts.
 */
export const E2E_ADMIN = {
  email: "e2e-admin@example.com",
  password: "e2e-admin-password-1",
} as const;

let cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>> | undefined;

/**
 * Signs this page's browser context in as E2E_ADMIN through better-auth's API, once per worker
 * (sign-ins are rate-limited); later calls reuse the session cookie. Tests that sign out must
 * sign in through the /auth form instead, so as not to end this shared session.
 */
export async function signInAsAdmin(page: Page): Promise<void> {
  if (cookies) {
    await page.context().addCookies(cookies);
    return;
  }
  const baseURL = test.info().project.use.baseURL!;
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    headers: { Origin: new URL(baseURL).origin },
  });
  expect(response.status(), await response.text()).toBe(200);
  cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith("better-auth.session_token"))).toBe(true);
}
