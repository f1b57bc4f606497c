import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { outboxDir } from "#tests/support/e2e-sites.ts";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The newsletter's one-click unsubscribe (decision 0021): a footer sign-up is followed
 * by a welcome e-mail (an .eml file under DATA_DIR/outbox, the web server having no SMTP_URL)
 * whose link opens a page with one button; pressing it ends the subscription, which the admin's
 * Newsletter screen then shows as inactive.
 */

/** The welcome messages to `address`, raw, with folded header lines unfolded. */
function welcomesTo(address: string): string[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.includes("-newsletter_welcome-"));
  } catch {
    return [];
  }
  return files
    .map((file) =>
      readFileSync(path.join(outboxDir(), file), "utf8").replace(/\r?\n(?=[ \t])/g, ""),
    )
    .filter((raw) => (/^To: (.*)$/im.exec(raw)?.[1] ?? "").toLowerCase().includes(address));
}

test("subscribe in the footer, follow the welcome e-mail's link, unsubscribe", async ({ page }) => {
  const email = `e2e-unsub-${Date.now().toString(36)}@example.com`;
  await page.goto("/about");
  const form = page.locator("form#newsletter-form");
  // The consent wording is shown beside the button (and stored with the sign-up).
  await expect(form.getByText(/By subscribing you agree/)).toBeVisible();
  await form.getByLabel("Email address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expectToast(
    page,
    "Successfully Subscribed!",
    "Thank you for subscribing to our newsletter",
  );

  await expect.poll(() => welcomesTo(email).length, { timeout: 15_000 }).toBe(1);
  const [raw] = welcomesTo(email);
  expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(raw!)?.[1];
  expect(link).toMatch(/\/newsletter\/unsubscribe\?token=/);

  await page.goto(link!);
  await expect(
    page.getByRole("heading", { name: "Unsubscribe from the newsletter" }),
  ).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);

  await page.getByRole("button", { name: "Unsubscribe" }).click();
  const done = page.getByRole("status").filter({ hasText: "You have been unsubscribed" });
  await expect(done).toBeVisible();
  await expect(done.getByRole("heading", { name: "You have been unsubscribed" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await signInAsAdmin(page);
  await page.goto(`/admin/newsletter-subscriptions?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row.getByText("Inactive", { exact: true })).toBeVisible();
});

test("a link that was changed is refused clearly, with nothing to press", async ({ page }) => {
  const response = await page.goto("/newsletter/unsubscribe?token=not-a-real-token");
  expect(response?.status()).toBe(400);
  await expect(
    page.getByRole("alert").filter({ hasText: "This unsubscribe link is not valid" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the /newsletter page's form, then the link's button, work as plain posts", async ({
    page,
  }) => {
    const email = `e2e-unsub-nojs-${Date.now().toString(36)}@example.com`;
    await page.goto("/newsletter");
    const form = page.locator("form#newsletter-page-form");
    await expect(form.getByText(/By subscribing you agree/)).toBeVisible();
    await form.getByLabel("Email address").fill(email);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { name: "Successfully Subscribed!" })).toBeVisible();

    await expect.poll(() => welcomesTo(email).length, { timeout: 15_000 }).toBe(1);
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(welcomesTo(email)[0]!)?.[1];
    await page.goto(link!);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You have been unsubscribed" })).toBeVisible();
    // Sent again (a reload, a second click): the same state, said so.
    await page.goto(link!);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are already unsubscribed" })).toBeVisible();
  });
});
