import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectToast, signInThroughForm } from "#tests/support/e2e-fixtures.ts";
import { startSite, type Site } from "#tests/support/site-process.ts";

/**
 * The README's way to run the site, whatever database the rest of the suite uses: the production
 * build started with no DATABASE_URL on a fresh DATA_DIR (the embedded database), so that CI on
 * PostgreSQL still proves the default works end to end — first start, a page, a form stored and
 * its e-mails written, the first admin (created from ADMIN_EMAIL, password in the log) signed in.
 */

const BUILD_DIR = process.env.BUILD_DIR ?? "build";
// Its own port: the suite's site is on E2E_PORT, its fake Stripe on E2E_PORT + 1000, the
// deployment spec's sites on E2E_PORT + 40…42.
const PORT = Number(process.env.E2E_PORT ?? 4317) + 50;
const ADMIN_EMAIL = "owner@example.com";

test.describe.configure({ timeout: 180_000 });

let dataDir: string;
let site: Site | undefined;
test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-embedded-"));
});
test.afterEach(async () => {
  await site?.stop();
  site = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

test("with no DATABASE_URL: embedded database, a page, an enquiry, the first admin", async ({
  page,
}) => {
  // startSite never passes the suite's DATABASE_URL on; SMTP_URL unset: e-mails become files.
  site = await startSite({
    port: PORT,
    buildDir: BUILD_DIR,
    dataDir,
    env: { LOG_LEVEL: "info", ADMIN_EMAIL, SMTP_URL: undefined, SEED_DEMO_CONTENT: undefined },
  });
  expect(site.output()).toContain(`"database":"embedded PostgreSQL in ${dataDir}`);
  expect(existsSync(path.join(dataDir, "db"))).toBe(true);
  const created = /First admin account created: (\S+) with password (\S+) /.exec(site.output());
  expect(created?.[1]).toBe(ADMIN_EMAIL);
  const admin = { email: ADMIN_EMAIL, password: created![2]! };

  // A public page, with the demo courses inserted on first start.
  await page.goto(`${site.url}/courses`);
  await expect(
    page.getByRole("link", { name: /Introduction to Counter Fraud/ }).first(),
  ).toBeVisible();

  // No Stripe key: the checkout's working button, the invoice, is the primary one and comes
  // first, so Enter in a field asks for it (here: the billing fields are still empty).
  await page.goto(`${site.url}/courses/introduction-to-counter-fraud/checkout`);
  const payment = page.getByRole("button", { name: /Pay with Card|Request Manual Invoice/ });
  await expect(payment).toHaveText(["Request Manual Invoice", "Pay with Card"]);
  await expect(payment.nth(1)).toBeDisabled();
  await expect(page.getByText(/Card payments are not available/)).toBeVisible();
  await expect(page.getByText(/Card payments are handled by Stripe/)).toHaveCount(0);
  await page.getByLabel("First Name").first().press("Enter");
  await expectToast(page, "Missing Information", "Please fill in all required billing information");

  // An enquiry: the visitor's toast, both e-mails written, and the inquiry in the admin.
  const email = `embedded.${Date.now().toString(36)}@example.com`;
  await page.goto(`${site.url}/contact`);
  const form = page.locator("form#contact-form");
  await form.getByLabel("Full Name").fill("Emma Embedded");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Message").fill("Sent to the site on its embedded database.");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
  const outbox = path.join(dataDir, "outbox");
  await expect
    .poll(() => (existsSync(outbox) ? readdirSync(outbox).filter((f) => f.endsWith(".eml")) : []))
    .toHaveLength(2);

  await signInThroughForm(page, admin, `${site.url}/auth`);
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  await page.goto(`${site.url}/admin/inquiries`);
  await expect(page.getByRole("heading", { name: "Inquiries", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: email })).toHaveCount(1);

  // A clean stop: the embedded database is closed, the process exits 0.
  expect(await site.stop()).toBe(0);
  site = undefined;
});
