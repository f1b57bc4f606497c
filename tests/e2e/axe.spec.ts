import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { fillCheckoutAddress, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { routePatterns } from "#tests/support/site-pages.ts";

/**
 * axe (WCAG 2.0/2.1 A and AA, and axe's best practices: every rule axe runs by default, and
 * more) on every page of app/routes.ts, public and admin, at 1366 px and at 375 px, with the
 * main admin dialogs and the phone menu open too — the one place pages are checked with axe.
 * At 375 px only the pages marked `phone` (and the phone menu): one page per layout (the site's,
 * with the phone menu; the admin's, with its drawer) and the pages whose own content is laid out
 * differently on a phone — the home page, the course page with its booking card, the checkout
 * form, the contact page's reordered columns, and the admin screens whose tables become stacked
 * cards below 768 px (inquiries, payments, newsletter subscriptions, audit, courses, staff), the
 * order page and the dashboard's grid. Pages that only narrow their text column, and screens
 * built from the same card list as one kept (categories and partners, like courses), are
 * checked at 1366 px only.
 * Addresses that only redirect to a page checked here are followed once, at 1366 px. The list
 * below is checked against app/routes.ts: a new route without an entry here fails.
 */

const COURSE = "introduction-to-counter-fraud"; // demo content, published
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

interface Visit {
  /** What the test is called (a route may be visited more than once, e.g. with a dialog open). */
  name: string;
  /** The address; `:orderId` is an order this spec places. */
  url: string;
  /** Opens what should be checked too (a dialog, a menu); returns it to wait for. */
  open?: (page: Page) => Promise<Locator>;
  /**
   * Only at this width (the phone menu exists only on a narrow screen; a redirect's target has
   * its own entry at both widths).
   */
  only?: "1366" | "375";
  /** Checked at 375 px too (see above); without it, at 1366 px only. */
  phone?: true;
}

/** Routes that are no page (downloads, text files, API endpoints, a POST-only action). */
const NOT_PAGES = new Set([
  "/auth/sign-out",
  "/sitemap.xml",
  "/robots.txt",
  "/courses/:slug/artwork.svg",
  "/courses/:slug/og.png",
  "/api/auth/*",
  "/api/stripe/webhook",
  "/api/admin/media",
  "/admin/inquiries/export",
  "/admin/newsletter-subscriptions/export",
  "/admin/payments/export",
  "/admin/documents/export",
  "/admin/documents/xero",
  "/admin/documents/pdfs",
  "/admin/privacy/export",
  "/admin/payments/:orderId/documents/:documentId",
  "/admin/dates/:dateId/register/csv",
  "/admin/dates/:dateId/register/sign-in-sheet",
  "/bookings/:token/documents/:documentId",
  "/bookings/:token/calendar.ics",
  "/quotes/:token/pdf",
  "/admin/quotes/:quoteId/pdf",
]);

/** Each page route of app/routes.ts, and what to check of it. */
const PUBLIC: Record<string, Visit[]> = {
  "/": [
    { name: "home", url: "/", phone: true },
    {
      name: "home, phone menu open",
      url: "/",
      only: "375",
      open: async (page) => {
        await page.getByLabel("Open menu").click();
        return page.getByRole("navigation", { name: "Mobile" });
      },
    },
  ],
  "/about": [{ name: "about", url: "/about" }],
  "/contact": [{ name: "contact", url: "/contact", phone: true }],
  "/quote": [{ name: "quote", url: "/quote" }],
  "/privacy": [{ name: "privacy", url: "/privacy" }],
  "/terms": [{ name: "terms", url: "/terms" }],
  "/gdpr": [{ name: "gdpr", url: "/gdpr" }],
  "/newsletter": [{ name: "newsletter", url: "/newsletter" }],
  "/newsletter/unsubscribe": [
    { name: "newsletter unsubscribe, bad token", url: "/newsletter/unsubscribe?token=not-a-token" },
  ],
  "/training": [{ name: "training (redirect)", url: "/training", only: "1366" }],
  // An issued certificate's page is checked with axe in certificates.spec.ts, whose date has
  // ended; this site has none, so here the page for a number never issued.
  "/certificates/:number": [
    { name: "certificate, unknown number", url: "/certificates/NWC-0000-0000-0000" },
  ],
  "/bookings": [{ name: "find my booking", url: "/bookings" }],
  // A booker's own page is checked with axe in booking-page.spec.ts, which books one; here the
  // page a link that is not valid gets.
  "/bookings/:token": [{ name: "booking, invalid link", url: "/bookings/not-a-link" }],
  // A customer's quotation is checked with axe in quotes.spec.ts, which sends one.
  "/quotes/:token": [{ name: "quotation, invalid link", url: "/quotes/not-a-link" }],
  "/services/dark-web-monitoring": [
    { name: "dark web monitoring", url: "/services/dark-web-monitoring" },
  ],
  "/services/security-consultancy": [
    { name: "security consultancy", url: "/services/security-consultancy" },
  ],
  "/services/file-interrogator": [
    { name: "file interrogator", url: "/services/file-interrogator" },
  ],
  "/services/counter-fraud-training": [
    { name: "catalogue", url: "/services/counter-fraud-training" },
  ],
  "/courses/:slug": [{ name: "course", url: `/courses/${COURSE}`, phone: true }],
  "/courses/:slug/checkout": [
    { name: "checkout", url: `/courses/${COURSE}/checkout`, phone: true },
  ],
  "/courses/:slug/success": [
    { name: "success, invoice", url: `/courses/${COURSE}/success?invoice=true` },
    {
      name: "success, unknown card session",
      url: `/courses/${COURSE}/success?session_id=cs_test_not_a_session`,
    },
  ],
  "/courses/:slug/canceled": [{ name: "canceled", url: `/courses/${COURSE}/canceled` }],
  "/courses/:slug/waiting-list": [
    { name: "waiting list, tell me of new dates", url: `/courses/${COURSE}/waiting-list` },
  ],
  "/auth": [{ name: "sign-in", url: "/auth" }],
  "/auth/forgot-password": [{ name: "forgot password", url: "/auth/forgot-password" }],
  "/auth/reset-password": [
    { name: "reset password, bad token", url: "/auth/reset-password?token=not-a-token" },
  ],
  "/auth/unlock": [{ name: "unlock, bad token", url: "/auth/unlock?token=not-a-token" }],
  "/*": [{ name: "not found", url: "/no-such-page" }],
};

const ADMIN: Record<string, Visit[]> = {
  "/admin": [{ name: "admin (redirect)", url: "/admin", only: "1366" }],
  "/admin/dashboard": [{ name: "dashboard", url: "/admin/dashboard", phone: true }],
  "/admin/inquiries": [
    { name: "inquiries", url: "/admin/inquiries", phone: true },
    {
      name: "inquiries, details open",
      url: "/admin/inquiries",
      phone: true,
      open: async (page) => {
        await page
          .getByRole("button", { name: /View details/ })
          .first()
          .click();
        return page.getByRole("dialog", { name: "Inquiry Details" });
      },
    },
  ],
  "/admin/inquiries/:inquiryId": [
    { name: "an enquiry's page", url: "/admin/inquiries/:inquiryId", phone: true },
  ],
  "/admin/inquiries/templates": [{ name: "reply templates", url: "/admin/inquiries/templates" }],
  "/admin/quotes": [{ name: "quotes", url: "/admin/quotes", phone: true }],
  "/admin/quotes/new": [{ name: "new quote", url: "/admin/quotes/new", phone: true }],
  "/admin/quotes/:quoteId": [{ name: "a draft quote", url: "/admin/quotes/:quoteId" }],
  "/admin/licences": [{ name: "licences", url: "/admin/licences", phone: true }],
  "/admin/payments": [{ name: "payments", url: "/admin/payments", phone: true }],
  "/admin/payments/:orderId": [{ name: "order", url: "/admin/payments/:orderId", phone: true }],
  "/admin/debtors": [{ name: "debtors", url: "/admin/debtors", phone: true }],
  "/admin/settings": [{ name: "settings", url: "/admin/settings", phone: true }],
  "/admin/documents": [{ name: "documents", url: "/admin/documents?from=2000-01-01", phone: true }],
  "/admin/newsletter": [{ name: "newsletter (redirect)", url: "/admin/newsletter", only: "1366" }],
  "/admin/newsletter-subscriptions": [
    { name: "newsletter subscriptions", url: "/admin/newsletter-subscriptions", phone: true },
  ],
  "/admin/courses": [
    { name: "courses", url: "/admin/courses", phone: true },
    {
      name: "courses, Add Course open",
      url: "/admin/courses",
      phone: true,
      open: async (page) => {
        await page.getByRole("button", { name: "Add Course" }).click();
        return page.getByRole("dialog", { name: "Add Course" });
      },
    },
  ],
  "/admin/dates": [{ name: "dates", url: "/admin/dates", phone: true }],
  "/admin/dates/:dateId/waiting-list": [
    { name: "a date's waiting list", url: "/admin/dates/:dateId/waiting-list" },
  ],
  "/admin/dates/:dateId/register": [
    { name: "a date's register", url: "/admin/dates/:dateId/register" },
  ],
  "/admin/trainers": [{ name: "trainers", url: "/admin/trainers", phone: true }],
  "/admin/about": [{ name: "about profile", url: "/admin/about" }],
  "/admin/categories": [{ name: "categories", url: "/admin/categories" }],
  "/admin/partners": [{ name: "partners", url: "/admin/partners" }],
  "/admin/account": [{ name: "my account", url: "/admin/account" }],
  "/admin/staff": [{ name: "staff", url: "/admin/staff", phone: true }],
  "/admin/audit": [{ name: "audit", url: "/admin/audit", phone: true }],
  "/admin/privacy": [{ name: "privacy", url: "/admin/privacy" }],
  "/admin/*": [{ name: "admin not found", url: "/admin/no-such-page" }],
};

const VIEWPORTS = [
  { name: "1366", use: { viewport: { width: 1366, height: 768 } } },
  { name: "375", use: { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true } },
] as const;

test("every page route of app/routes.ts is checked here", () => {
  const listed = new Set([...Object.keys(PUBLIC), ...Object.keys(ADMIN), ...NOT_PAGES]);
  const routes = routePatterns().map((r) => r.path);
  expect(
    routes.filter((r) => !listed.has(r)),
    "routes without an entry in axe.spec.ts",
  ).toEqual([]);
  expect(
    [...listed].filter((r) => !routes.includes(r)),
    "entries for routes that no longer exist",
  ).toEqual([]);
});

/** Waits until `locator` is shown and its enter animation has ended. */
async function settled(locator: Locator) {
  await expect(locator).toBeVisible();
  await locator.evaluate((el) =>
    Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => {}))),
  );
}

async function expectNoViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(
    violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    ),
  ).toEqual([]);
}

async function check(page: Page, visit: Visit, url: string) {
  const response = await page.goto(url);
  expect(response, `${url} answered`).not.toBeNull();
  await page.waitForLoadState("networkidle");
  if (visit.open) await settled(await visit.open(page));
  await expectNoViolations(page);
}

/** An inquiry and an invoice booking of this spec's own, for the details dialog and order page. */
let orderUrl: string | undefined;
async function ensureOrder(page: Page): Promise<string> {
  if (orderUrl) return orderUrl;
  const email = `axe.${Date.now().toString(36)}@example.com`;
  await page.goto("/contact");
  const contact = page.locator("form#contact-form");
  await contact.getByLabel("Full Name").fill("Axe Inquirer");
  await contact.getByLabel("Email").fill(email);
  await contact.getByLabel("Message").fill("An enquiry for the accessibility checks.");
  await contact.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!").first()).toBeVisible();

  await page.goto(`/courses/${COURSE}/checkout`);
  await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
  await page.getByLabel("First Name").first().fill("Axe");
  await page.getByLabel("Last Name").first().fill("Buyer");
  await page.getByLabel("Email").first().fill(email);
  await fillCheckoutAddress(page);
  await page.getByRole("button", { name: "Request Manual Invoice" }).click();
  await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true`);

  await signInAsAdmin(page);
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const link = page.locator('a[href^="/admin/payments/"]').filter({ hasText: /NW-/ }).first();
  orderUrl = (await link.getAttribute("href")) ?? undefined;
  expect(orderUrl, "the order just placed is listed").toMatch(/^\/admin\/payments\/[0-9a-f-]+$/);
  return orderUrl!;
}

/** A date of the demo content, from the Dates screen's first waiting list link. */
async function firstDateId(page: Page): Promise<string> {
  await page.goto("/admin/dates");
  const href = await page
    .getByRole("link", { name: /^Waiting list/ })
    .first()
    .getAttribute("href");
  const id = /\/admin\/dates\/([0-9a-f-]+)\/waiting-list/.exec(href ?? "")?.[1];
  expect(id, "the Dates screen lists a date").toBeTruthy();
  return id!;
}

/** The first enquiry's page, from the Inquiries list (the spec's own enquiry is there). */
async function firstInquiryPath(page: Page): Promise<string> {
  await page.goto("/admin/inquiries");
  const href = await page
    .locator('a[href^="/admin/inquiries/"]')
    .filter({ hasNotText: "Export" })
    .first()
    .getAttribute("href");
  expect(href, "the Inquiries screen lists an enquiry").toMatch(
    /^\/admin\/inquiries\/[0-9a-f-]{36}$/,
  );
  return href!;
}

/** A draft quote of this spec's own, saved from the new-quote form. */
let quotePath: string | undefined;
async function ensureQuote(page: Page): Promise<string> {
  if (quotePath) return quotePath;
  await page.goto("/admin/quotes/new");
  await page.getByLabel("Organisation").fill("Axe Bank");
  await page.getByLabel("Contact name").fill("Axe Buyer");
  await page.getByLabel("Contact e-mail").fill("axe.quote@example.com");
  await page.locator("#quote-lines-0--description").fill("Consultancy day");
  await page.locator("#quote-lines-0--quantity").fill("1");
  await page.locator("#quote-lines-0--unitPrice").fill("900");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  quotePath = new URL(page.url()).pathname;
  return quotePath;
}

function checkedAt(visit: Visit, width: "1366" | "375"): boolean {
  if (visit.only) return visit.only === width;
  return width === "1366" || visit.phone === true;
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} px`, () => {
    test.use(viewport.use);

    for (const visit of Object.values(PUBLIC).flat()) {
      if (!checkedAt(visit, viewport.name)) continue;
      test(`${visit.name} (${visit.url})`, async ({ page }) => {
        await check(page, visit, visit.url);
      });
    }

    for (const visit of Object.values(ADMIN).flat()) {
      if (!checkedAt(visit, viewport.name)) continue;
      test(`admin: ${visit.name} (${visit.url})`, async ({ page }) => {
        // Once per worker: the inquiry and the order this spec looks at.
        const order = await ensureOrder(page);
        await signInAsAdmin(page);
        const url = visit.url.includes(":dateId")
          ? visit.url.replace(":dateId", await firstDateId(page))
          : visit.url.includes(":inquiryId")
            ? await firstInquiryPath(page)
            : visit.url.includes(":quoteId")
              ? await ensureQuote(page)
              : visit.url.replace("/admin/payments/:orderId", order);
        await check(page, visit, url);
        await expect(page).not.toHaveURL(/\/auth(\?|$)/);
      });
    }
  });
}
