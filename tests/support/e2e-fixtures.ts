import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { currentSite } from "#tests/support/e2e-sites.ts";
import { BILLING_FORM } from "./checkout.ts";

/**
 * What every end-to-end spec shares: the toast check, the admin sign-in and the checkout's
 * billing details. Use these rather than writing a spec's own.
 */

/** The toast region (radix's viewport, "Notifications (F8)"). */
function toastRegion(page: Page): Locator {
  return page.getByRole("region", { name: /Notifications/ });
}

/**
 * Holds back every script of the site until the returned `release()` is called, so the visitor
 * can use the page as the server sent it for as long as the test needs, however slow the machine.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/**/*.js", async (route) => {
    await gate;
    await route.continue().catch(() => {
      // The page may have been closed meanwhile.
    });
  });
  return release;
}

/**
 * The toast on screen shows exactly this title and this description, in the same toast (there is
 * at most one toast at a time).
 */
export async function expectToast(page: Page, title: string, description: string | RegExp) {
  const toast = toastRegion(page)
    .getByRole("listitem")
    .filter({ has: page.getByText(title, { exact: true }) })
    .filter({ has: page.getByText(description, { exact: true }) });
  await expect(toast).toBeVisible();
}

/**
 * The admin the end-to-end web server starts with: playwright.config.ts pipes this password into
 * `scripts/admin-create.ts` on the fresh data directory before the site starts.
 */
export const E2E_ADMIN = {
  email: "e2e-admin@example.com",
  password: "e2e-admin-password-1",
} as const;

/**
 * A second admin, for tests/e2e/two-factor.spec.ts only: it turns two-factor sign-in on, which
 * E2E_ADMIN (whose session the other specs share) must never have. Created the same way.
 */
export const E2E_2FA_ADMIN = {
  email: "e2e-2fa-admin@example.com",
  password: "e2e-2fa-admin-password-1",
} as const;

/**
 * The seller the end-to-end sites run as: VAT-registered, prices including VAT, so totals stay
 * the course prices and invoices show net, VAT and total (playwright.config.ts and the visual
 * spec's own site).
 */
export const E2E_SELLER_ENV = {
  SELLER_LEGAL_NAME: "NightWatch Intelligence Ltd",
  SELLER_ADDRESS: "1 Example Street, London, EC1A 1AA",
  SELLER_COMPANY_NUMBER: "01234567",
  SELLER_VAT_NUMBER: "GB123456789",
  PRICES_INCLUDE_VAT: "true",
  BANK_ACCOUNT_NAME: "NightWatch Intelligence Ltd",
  BANK_SORT_CODE: "12-34-56",
  BANK_ACCOUNT_NUMBER: "12345678",
} as const;

let cookies: Awaited<ReturnType<ReturnType<Page["context"]>["cookies"]>> | undefined;

/**
 * Signs this page's browser context in as E2E_ADMIN through better-auth's API, once per worker
 * (sign-ins are rate-limited); later calls reuse the session cookie. Tests that sign out must
 * sign in through the /auth form instead (`signInThroughForm`), so as not to end this shared
 * session.
 */
export async function signInAsAdmin(page: Page): Promise<void> {
  if (cookies) {
    await page.context().addCookies(cookies);
    return;
  }
  const baseURL = currentSite().baseURL;
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password },
    headers: { Origin: new URL(baseURL).origin },
  });
  expect(response.status(), await response.text()).toBe(200);
  cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith("better-auth.session_token"))).toBe(true);
}

/** The /auth form's fields and button. */
export function signInForm(page: Page) {
  return {
    email: page.locator("#auth-email"),
    password: page.locator("#auth-password"),
    submit: page.getByRole("button", { name: "Sign In" }),
  };
}

/**
 * Signs in through the /auth form at `authUrl` (relative to the baseURL, or a whole address of
 * another site) and waits for the dashboard. For tests that sign out, or sites of their own.
 */
export async function signInThroughForm(
  page: Page,
  account: { email: string; password: string },
  authUrl = "/auth",
): Promise<void> {
  await page.goto(authUrl);
  const form = signInForm(page);
  await form.email.fill(account.email);
  await form.password.fill(account.password);
  await form.submit.click();
  // Checking a password is slow on purpose (scrypt): on a busy machine it takes seconds.
  await expect(page).toHaveURL(/\/admin\/dashboard$/, { timeout: 30_000 });
}

/** The course the checkout helpers book: £295.00 incl. VAT, no partner, published (demo seed). */
export const E2E_CHECKOUT_COURSE = "introduction-to-counter-fraud";

/** On the checkout page: a complete UK billing address, and the terms ticked. */
export async function fillCheckoutAddress(page: Page): Promise<void> {
  await page.getByLabel("Organisation").fill(BILLING_FORM.company!);
  await page.getByLabel("Address Line 1").fill(BILLING_FORM.addressLine1!);
  await page.getByLabel("Town or City").fill(BILLING_FORM.town!);
  await page.getByLabel("Postcode").fill(BILLING_FORM.postcode!);
  await page.getByRole("checkbox", { name: /I accept the terms/ }).check();
}

export interface InvoiceBooking {
  firstName: string;
  email: string;
  /** The organisation; BILLING_FORM's when not given. */
  company?: string;
  phone?: string;
  /** The students when they are others; none: the buyer takes the course. */
  students?: { firstName: string; email: string }[];
}

/**
 * Books by invoice through the public checkout, as a browser without JavaScript posts it. The
 * one place a posted checkout is filled: when the checkout asks for more, add it here.
 */
export async function bookByInvoice(
  request: APIRequestContext,
  booking: InvoiceBooking,
  course: string = E2E_CHECKOUT_COURSE,
): Promise<void> {
  const students = booking.students ?? [];
  const form: Record<string, string> = {
    intent: "invoice",
    firstName: booking.firstName,
    lastName: "Buyer",
    email: booking.email,
    ...(booking.phone ? { phone: booking.phone } : {}),
    studentMode: students.length ? "others" : "self",
    quantity: String(Math.max(1, students.length)),
    ...BILLING_FORM,
    ...(booking.company ? { company: booking.company } : {}),
  };
  students.forEach((s, i) => {
    form[`students[${i}].firstName`] = s.firstName;
    form[`students[${i}].lastName`] = "Student";
    form[`students[${i}].email`] = s.email;
  });
  const response = await request.post(`/courses/${course}/checkout`, { form, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(303);
}

/** A visitor's enquiry, posted as the contact form does without JavaScript. */
export async function postEnquiry(request: APIRequestContext, name: string, message: string) {
  const response = await request.post("/contact", {
    form: {
      form: "enquiry",
      form_id: "contact",
      name,
      email: `${name.toLowerCase()}@example.com`,
      company: "Acme Bank",
      message,
    },
  });
  expect(response.status()).toBe(200);
}
