import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createAdmin, signIn, startSite, type Site } from "#tests/support/site-process.ts";
import { E2E_SELLER_ENV, fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";

/**
 * Visual regression (decision 0025): full-page screenshots of the main public pages and admin
 * screens at 1366 × 768 and 375 × 667, compared with the committed baselines in
 * visual.spec.ts-snapshots/ within a small tolerance. Decision 0025 says why it is built this way.
 *
 * Two quotations are made and sent from the admin (one accepted, so the licence register has a
 * row); the open one's customer page is a public page here.
 *
 * The spec starts a site of its own (so it runs in the fault stage, playwright.faults.config.ts)
 * (the production build, fresh embedded database, the demo content seeded on first start) and adds
 * the same few records through the site's forms on every run, so the pages show the same content
 * run after run whatever the rest of the suite does to its shared database. What still differs
 * between runs — dates and times, order references, the footer's year — is masked; the hero's
 * particles never start (reduced motion), CSS animations are stopped and the caret hidden.
 *
 * After a change to the look of the site, regenerate the baselines and review them:
 * npm run build && npx playwright test -c playwright.faults.config.ts tests/e2e/visual.spec.ts
 * --update-snapshots
 */

const BUILD_DIR = process.env.BUILD_DIR ?? "build";
// Its own port: the suite's site is on E2E_PORT, its fake Stripe on E2E_PORT + 1000, the
// deployment spec's sites on E2E_PORT + 40…42, the embedded-default spec's on E2E_PORT + 50.
const PORT = Number(process.env.E2E_PORT ?? 4317) + 60;
const SITE_URL = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: "visual-admin@example.com", password: "visual-admin-password-1" };
const COURSE = "introduction-to-counter-fraud";

const PUBLIC_PAGES = [
  { name: "home", path: "/" },
  { name: "dark-web-monitoring", path: "/services/dark-web-monitoring" },
  { name: "security-consultancy", path: "/services/security-consultancy" },
  { name: "file-interrogator", path: "/services/file-interrogator" },
  { name: "catalogue", path: "/services/counter-fraud-training" },
  { name: "course", path: `/courses/${COURSE}` },
  { name: "checkout", path: `/courses/${COURSE}/checkout` },
  { name: "about", path: "/about" },
  { name: "contact", path: "/contact" },
  { name: "quote", path: "/quote" },
  { name: "privacy", path: "/privacy" },
  { name: "not-found", path: "/no-such-page" },
  { name: "sign-in", path: "/auth" },
  // A quotation's page as its customer opens it from the e-mail, still to be answered.
  { name: "quotation", path: ":quotation" },
] as const;

/** `:orderId` is the one order this spec places. */
const ADMIN_PAGES = [
  { name: "admin-dashboard", path: "/admin/dashboard" },
  { name: "admin-inquiries", path: "/admin/inquiries" },
  { name: "admin-payments", path: "/admin/payments" },
  { name: "admin-order", path: "/admin/payments/:orderId" },
  { name: "admin-courses", path: "/admin/courses" },
  { name: "admin-categories", path: "/admin/categories" },
  { name: "admin-partners", path: "/admin/partners" },
  { name: "admin-newsletter-subscriptions", path: "/admin/newsletter-subscriptions" },
  { name: "admin-quotes", path: "/admin/quotes" },
  { name: "admin-licences", path: "/admin/licences" },
  { name: "admin-account", path: "/admin/account" },
  { name: "admin-staff", path: "/admin/staff" },
  { name: "admin-audit", path: "/admin/audit" },
  { name: "admin-privacy", path: "/admin/privacy" },
] as const;

const VIEWPORTS = [
  { name: "1366", use: { viewport: { width: 1366, height: 768 } } },
  {
    name: "375",
    use: { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true },
  },
] as const;

const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
/** '24 Nov 2026', '24 Nov 2026, 11:20', '24/11/2026', '2026-11-24', '11:20'. */
const DATE_OR_TIME = new RegExp(
  `\\b\\d{1,2} ${MONTH}[a-z]* \\d{4}\\b|\\b\\d{1,2}/\\d{1,2}/\\d{4}\\b|\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}:\\d{2}\\b`,
);

test.describe.configure({ timeout: 600_000 });
test.use({ baseURL: SITE_URL, reducedMotion: "reduce" });

let site: Site | undefined;
let dataDir: string | undefined;
let adminCookies: { name: string; value: string; url: string }[] = [];
let orderId = "";
/** The customer's page of the quotation still to be answered. */
let quotationPath = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-visual-"));
  createAdmin({ ...ADMIN, dataDir });
  site = await startSite({
    port: PORT,
    buildDir: BUILD_DIR,
    dataDir,
    stdout: "ignore",
    env: {
      SEED_DEMO_CONTENT: "true",
      FORM_RATE_LIMIT_PER_MINUTE: "1000",
      // No Stripe: the checkout shows its invoice-only state, the same on every machine.
      STRIPE_SECRET_KEY: undefined,
      STRIPE_WEBHOOK_SECRET: undefined,
      SMTP_URL: undefined,
      ...E2E_SELLER_ENV,
    },
  });
  await addFixedRecords(browser);
  const cookieHeader = await signIn(site.url, ADMIN.email, ADMIN.password);
  adminCookies = cookieHeader.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: site!.url };
  });
  const payments = await fetch(`${site.url}/admin/payments`, {
    headers: { cookie: cookieHeader },
  });
  orderId = /\/admin\/payments\/([0-9a-f-]{36})/.exec(await payments.text())?.[1] ?? "";
  expect(orderId, "the order placed by this spec is listed").not.toBe("");
  quotationPath = await addQuotes(browser);
});

test.afterAll(async () => {
  await site?.stop();
  site = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** An enquiry, a newsletter subscription and an invoice booking, the same on every run. */
async function addFixedRecords(browser: Browser) {
  const page = await browser.newPage({ baseURL: SITE_URL, reducedMotion: "reduce" });
  try {
    await page.goto("/contact");
    const contact = page.locator("form#contact-form");
    await contact.getByLabel("Full Name").fill("Ada Lovelace");
    await contact.getByLabel("Email").fill("ada@example.com");
    await contact.getByLabel("Message").fill("Please call us about dark web monitoring.");
    await contact.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!").first()).toBeVisible();

    const news = page.locator("form#newsletter-form");
    await news.getByLabel("Email address").fill("grace@example.com");
    await news.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByText("Successfully Subscribed!").first()).toBeVisible();

    await page.goto(`/courses/${COURSE}/checkout`);
    await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
    await page.getByLabel("First Name").first().fill("Alan");
    await page.getByLabel("Last Name").first().fill("Turing");
    await page.getByLabel("Email").first().fill("alan@example.com");
    await fillCheckoutAddress(page);
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true`);
  } finally {
    await page.close();
  }
}

/**
 * Two quotations for File Interrogator licences, made and sent from the admin: one the customer
 * accepts (so the register has its licence), one still open, whose page is returned.
 */
async function addQuotes(browser: Browser): Promise<string> {
  const staff = await browser.newContext({ baseURL: SITE_URL, reducedMotion: "reduce" });
  await staff.addCookies(adminCookies);
  try {
    const accepted = await sendQuote(
      staff,
      "Northgate Building Society",
      "Helen Marsh",
      "helen@example.com",
    );
    const customer = await staff.newPage();
    await customer.goto(accepted);
    await customer.getByLabel("Your name").fill("Helen Marsh");
    await customer.getByLabel("Your role").fill("Head of Financial Crime");
    await customer.getByLabel("Purchase order number (optional)").fill("PO-4471");
    await customer.getByLabel(/I accept this quotation/).check();
    await customer.getByRole("button", { name: "Accept quotation" }).click();
    await expect(customer.getByText("Thank you: the quotation is accepted")).toBeVisible();
    await customer.close();
    return await sendQuote(staff, "Harbour Bank plc", "Priya Raman", "priya@example.com");
  } finally {
    await staff.close();
  }
}

/** Makes, sends and returns the customer's page of a quotation for 3 licences. */
async function sendQuote(staff: BrowserContext, organisation: string, name: string, email: string) {
  const page = await staff.newPage();
  try {
    await page.goto("/admin/quotes/new");
    await page.getByLabel("Organisation").fill(organisation);
    await page.getByLabel("Contact name").fill(name);
    await page.getByLabel("Contact e-mail").fill(email);
    await page.locator("#quote-lines-0--description").fill("File Interrogator licence, one year");
    await page.locator("#quote-lines-0--quantity").fill("3");
    await page.locator("#quote-lines-0--unitPrice").fill("450");
    await page.getByLabel("Licences (seats)").fill("3");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Draft quote" })).toBeVisible();
    await page.getByRole("button", { name: `Send to ${email}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Send quote" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /^Q-\d{4}-\d{4}$/ })).toBeVisible();
  } finally {
    await page.close();
  }
  // The link, from the e-mail the site's outbox wrote (no SMTP here: .eml files).
  const outbox = path.join(dataDir!, "outbox");
  let link = "";
  await expect
    .poll(
      () => {
        for (const file of readdirSync(outbox).filter((f) => f.includes("-quote-"))) {
          const mail = readFileSync(path.join(outbox, file), "utf8");
          if (!mail.includes(email)) continue;
          link = /\/quotes\/[A-Za-z0-9._-]+/.exec(mail.replace(/=\r?\n/g, ""))?.[0] ?? "";
        }
        return link;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return link;
}

/** Loads `path` and waits until nothing more will change on screen. */
async function settle(page: Page, pagePath: string) {
  await page.goto(pagePath, { waitUntil: "networkidle" });
  // Lazy images below the fold would not load for a full-page screenshot: load them all now.
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) img.loading = "eager";
    await Promise.all(
      images.map((img) =>
        img.complete
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              img.addEventListener("load", () => resolve(), { once: true });
              img.addEventListener("error", () => resolve(), { once: true });
            }),
      ),
    );
    await Promise.all(images.map((img) => img.decode().catch(() => {})));
    await document.fonts.ready;
  });
}

/** The regions that change between runs with nothing wrong. */
function masks(page: Page) {
  return [
    page.locator("time"),
    page.getByText(DATE_OR_TIME),
    // An order's reference comes from its random id.
    page.getByText(/NW-[0-9A-F]{8}/),
    // Quotation and licence numbers carry the year.
    page.getByText(/\b(?:Q|FI)-\d{4}-\d{4}\b/),
    page.getByText(/©\s*\d{4}/),
  ];
}

async function expectLooksTheSame(page: Page, name: string) {
  await expect.soft(page, `${name} looks as in its baseline`).toHaveScreenshot(`${name}.png`, {
    fullPage: true,
    animations: "disabled",
    caret: "hide",
    scale: "css",
    mask: masks(page),
    // Anti-aliasing noise passes; a moved, wrapped or missing block does not.
    threshold: 0.2,
    maxDiffPixelRatio: 0.01,
    timeout: 20_000,
  });
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} px`, () => {
    test.use(viewport.use);

    test(`public pages at ${viewport.name} px`, async ({ page }) => {
      for (const { name, path: pagePath } of PUBLIC_PAGES) {
        await test.step(name, async () => {
          await settle(page, pagePath.replace(":quotation", quotationPath));
          await expectLooksTheSame(page, `${name}-${viewport.name}`);
        });
      }
    });

    test(`admin screens at ${viewport.name} px`, async ({ page }) => {
      await page.context().addCookies(adminCookies);
      for (const { name, path: pagePath } of ADMIN_PAGES) {
        await test.step(name, async () => {
          await settle(page, pagePath.replace(":orderId", orderId));
          await expect(page).not.toHaveURL(/\/auth/);
          await expectLooksTheSame(page, `${name}-${viewport.name}`);
        });
      }
    });
  });
}
