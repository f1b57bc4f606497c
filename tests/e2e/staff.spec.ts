import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { outboxDir } from "#tests/support/e2e-sites.ts";
import { test } from "#tests/support/e2e-test.ts";
import { simpleParser } from "mailparser";
import {
  expectToast,
  signInAsAdmin,
  signInForm,
  signInThroughForm,
} from "#tests/support/e2e-fixtures.ts";
import {
  LINK_INVALID_MESSAGE,
  PASSWORD_CHANGED_MESSAGE,
  PASSWORD_SET_MESSAGE,
  RESET_REQUESTED_MESSAGE,
} from "#app/lib/admin/staff.ts";

/**
 * Issue 17 items 2 and 3, end to end: E2E_ADMIN invites a colleague on /admin/staff; the
 * colleague follows the e-mailed link in a browser of their own, sets a password and signs in.
 * Then the colleague (never E2E_ADMIN, whose session other specs share) forgets that password:
 * "Forgot password?" → the reset e-mail → a new password that works; the same link a second
 * time is refused, and the old password no longer signs in. The site runs without SMTP, so the
 * e-mails are .eml files under DATA_DIR/outbox.
 */

/** The links to /auth/reset-password in the e-mails of `kind` to `address`, oldest first. */
async function linksIn(address: string, kind: string): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(outboxDir())
      .filter((f) => f.endsWith(".eml") && f.includes(`-${kind}-`))
      .sort();
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outboxDir(), file), "utf8");
    const parsed = await simpleParser(raw);
    const to = parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "";
    if (!to.toLowerCase().includes(address)) continue;
    const link = /https?:\/\/\S+\/auth\/reset-password\?token=[^\s&]+/.exec(parsed.text ?? "");
    if (link) links.push(link[0]);
  }
  return links;
}

async function waitForLink(address: string, kind: string, count = 1): Promise<string> {
  await expect
    .poll(async () => (await linksIn(address, kind)).length, { timeout: 20_000 })
    .toBe(count);
  return (await linksIn(address, kind)).at(-1)!;
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

async function choosePassword(page: Page, password: string, button: string) {
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(password);
  await page.getByRole("button", { name: button }).click();
}

test("an invited admin sets a password and signs in; a reset link works once and the old password stops working", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const email = `colleague.${stamp}@example.com`;
  const firstPassword = `first passphrase ${stamp}`;
  const secondPassword = `second passphrase ${stamp}`;

  // E2E_ADMIN invites a colleague.
  await signInAsAdmin(page);
  await page.goto("/admin/staff");
  await expect(page.getByRole("heading", { name: "Staff", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expectToast(page, "Success", `Invitation sent to ${email}`);
  const row = page.locator(`tr[data-staff-email="${email}"]`);
  await expect(row.getByText("Invitation pending")).toBeVisible();
  await expect(row.getByRole("button", { name: `Resend invitation to ${email}` })).toBeVisible();

  // The colleague, in a browser of their own, follows the invitation.
  const invitation = await waitForLink(email, "staff_invitation");
  const colleague = await browser.newContext();
  const theirPage = await colleague.newPage();
  await theirPage.goto(invitation);
  await expect(theirPage.getByRole("heading", { name: "Set your password" })).toBeVisible();
  await expectNoAxeViolations(theirPage);
  await choosePassword(theirPage, firstPassword, "Set password");
  await expect(theirPage.getByRole("main").getByRole("status")).toContainText(PASSWORD_SET_MESSAGE);
  await signInThroughForm(theirPage, { email, password: firstPassword });
  await expect(theirPage.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await colleague.close();

  await page.reload();
  await expect(row).toBeVisible();
  await expect(row.getByText("Invitation pending")).toHaveCount(0);

  // Later the colleague has forgotten the password.
  const forgetful = await browser.newContext();
  const again = await forgetful.newPage();
  await again.goto("/auth");
  await again.getByRole("link", { name: "Forgot password?" }).click();
  await expect(again).toHaveURL(/\/auth\/forgot-password$/);
  await expectNoAxeViolations(again);
  await again.locator("#forgot-email").fill(email);
  await again.getByRole("button", { name: "Send reset link" }).click();
  await expect(again.getByRole("main").getByRole("status")).toHaveText(RESET_REQUESTED_MESSAGE);

  const resetLink = await waitForLink(email, "password_reset");
  await again.goto(resetLink);
  await expect(again.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expectNoAxeViolations(again);
  await choosePassword(again, secondPassword, "Change password");
  await expect(again.getByRole("main").getByRole("status")).toContainText(PASSWORD_CHANGED_MESSAGE);

  // The same link a second time is refused, with a way to ask for another.
  await again.goto(resetLink);
  await expect(again.getByRole("main").getByRole("alert")).toContainText(LINK_INVALID_MESSAGE);
  await expect(again.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute(
    "href",
    "/auth/forgot-password",
  );

  // The old password is refused; the new one signs in.
  await again.goto("/auth");
  const form = signInForm(again);
  await form.email.fill(email);
  await form.password.fill(firstPassword);
  await form.submit.click();
  await expect(again.getByRole("main").getByRole("alert")).toContainText(
    "Invalid email or password",
  );
  await expect(again).toHaveURL(/\/auth$/);
  await signInThroughForm(again, { email, password: secondPassword });

  // E2E_ADMIN removes the colleague, after a confirmation that names them: signed out at once.
  await page.reload();
  await row.getByRole("button", { name: `Remove ${email}` }).click();
  const dialog = page.getByRole("alertdialog", { name: `Remove ${email}?` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Remove admin" }).click();
  await expectToast(page, "Success", `${email} removed`);
  await expect(row).toHaveCount(0);
  await again.goto("/admin/dashboard");
  await expect(again).toHaveURL(/\/auth$/);
  await forgetful.close();
});

test("without JavaScript: invite, then remove after the confirmation on the page", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAsAdmin(page);
  const email = `nojs.${Date.now().toString(36)}@example.com`;

  await page.goto("/admin/staff");
  await page.locator("#staff-invite-email").fill(email);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(
    `Invitation sent to ${email}`,
  );
  const row = page.locator(`tr[data-staff-email="${email}"]`);
  await expect(row.getByText("Invitation pending")).toBeVisible();

  // The same address again: the field says why.
  await page.locator("#staff-invite-email").fill(email);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.locator("#staff-invite-email-error")).toHaveText(
    `${email} is already an admin.`,
  );

  await row.getByRole("link", { name: `Remove ${email}` }).click();
  await expect(page.getByRole("heading", { name: `Remove ${email}?` })).toBeVisible();
  await page.getByRole("button", { name: "Remove admin" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`${email} removed`);
  await expect(page.locator(`tr[data-staff-email="${email}"]`)).toHaveCount(0);
  await context.close();
});
