import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, request, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { currentSite, outboxDir } from "#tests/support/e2e-sites.ts";
import { test } from "#tests/support/e2e-test.ts";
import { codeFor, wrongCode } from "#tests/support/totp.ts";
import { E2E_2FA_ADMIN, signInForm, signInThroughForm } from "#tests/support/e2e-fixtures.ts";

/**
 * Two-factor sign-in in a real browser (decision 0017): a second admin (E2E_2FA_ADMIN: the other
 * specs share E2E_ADMIN's session, which must stay password-only) turns it on under My Account with
 * a code computed from the secret the page shows, signs out, and signs in with password and code.
 * At the end it turns two-factor sign-in off again, so a reused database starts the same.
 */

/** Signs E2E_2FA_ADMIN in elsewhere (another 'browser'), through better-auth's API. */
async function signInElsewhere() {
  const baseURL = currentSite().baseURL;
  const elsewhere = await request.newContext({
    baseURL,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
  });
  const response = await elsewhere.post("/api/auth/sign-in/email", {
    data: { email: E2E_2FA_ADMIN.email, password: E2E_2FA_ADMIN.password },
    headers: { Origin: new URL(baseURL).origin },
  });
  expect(response.status()).toBe(200);
  await elsewhere.dispose();
}

/** The codes e-mailed to E2E_2FA_ADMIN to turn two-factor on (the site writes .eml files). */
async function mailboxCodes(): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(outboxDir())
      .filter((f) => f.endsWith(".eml") && f.includes("-two_factor_mailbox_code-"))
      .sort();
  } catch {
    return [];
  }
  const codes: string[] = [];
  for (const file of files) {
    const parsed = await simpleParser(readFileSync(path.join(outboxDir(), file), "utf8"));
    const to = parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "";
    if (!to.toLowerCase().includes(E2E_2FA_ADMIN.email)) continue;
    const code = /^\d{6}$/m.exec(parsed.text ?? "")?.[0];
    if (code) codes.push(code);
  }
  return codes;
}

/**
 * After the password: the first set-up of the account asks for the code e-mailed to it (with the
 * password again); a later one goes straight to the QR code. Returns whether it was asked.
 */
async function passMailboxStep(page: Page, codesBefore: number): Promise<boolean> {
  const emailed = page.getByRole("heading", { name: "Check your e-mail" });
  const secret = page.locator("#two-factor-secret");
  await expect(emailed.or(secret)).toBeVisible();
  if (!(await emailed.isVisible())) return false;
  await expect
    .poll(async () => (await mailboxCodes()).length, { timeout: 20_000 })
    .toBeGreaterThan(codesBefore);
  await page.locator("#enable-mailbox-code").fill((await mailboxCodes()).at(-1)!);
  await page.locator("#enable-mailbox-password").fill(E2E_2FA_ADMIN.password);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(secret).toBeVisible();
  return true;
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

test("an admin turns on two-factor sign-in and then signs in with a code", async ({ page }) => {
  test.setTimeout(180_000);
  await signInElsewhere();
  await signInThroughForm(page, E2E_2FA_ADMIN);

  await page.goto("/admin/account");
  await expect(page.getByRole("heading", { name: "My Account", level: 1 })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Two-factor sign-in", exact: true }),
  ).toBeVisible();
  await expect(page.getByText("This device")).toBeVisible();
  await expect(page.getByText("Firefox on Linux").first()).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Sign Out Everywhere Else" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: /Signed out of \d+ other sessions?\./ }),
  ).toBeVisible();
  await expect(page.getByText("You are not signed in anywhere else.")).toBeVisible();

  // Step 1: the password; a first set-up then asks for the code e-mailed to the account (on a
  // fresh site, this one's); then the QR code, the key as text and the backup codes.
  const codesBefore = (await mailboxCodes()).length;
  await page.locator("#enable-password").fill(E2E_2FA_ADMIN.password);
  await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  await passMailboxStep(page, codesBefore);
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.locator("#two-factor-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  await expect(page.locator("[data-backup-codes] li")).toHaveCount(10);
  await expect(page.getByText("they are shown only this once")).toBeVisible();
  await expectNoAxeViolations(page);

  // Step 2: a code from the 'app' turns it on.
  await page.locator("#enable-code").fill(codeFor(secret));
  await page.getByRole("button", { name: "Confirm and Turn On" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Two-factor sign-in is on." }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Make New Backup Codes" })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Sign Out", exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // The password alone now leads to the second step.
  const form = signInForm(page);
  await form.email.fill(E2E_2FA_ADMIN.email);
  await form.password.fill(E2E_2FA_ADMIN.password);
  await form.submit.click();
  await expect(
    page.getByRole("heading", { name: "Two-factor sign-in", exact: true }),
  ).toBeVisible();
  const code = page.locator("#auth-code");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/auth$/);

  // Again, with a wrong code and then the right one.
  await form.email.fill(E2E_2FA_ADMIN.email);
  await form.password.fill(E2E_2FA_ADMIN.password);
  await form.submit.click();
  await code.fill(wrongCode(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Two-factor sign-in", exact: true }),
  ).toBeVisible();
  // The next code: the one that turned it on is spent.
  await code.fill(codeFor(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText(`Signed in as ${E2E_2FA_ADMIN.email}`)).toBeVisible();

  // Turning it off asks first.
  await page.goto("/admin/account");
  await page.locator("#disable-password").fill(E2E_2FA_ADMIN.password);
  await page.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Turn off two-factor sign-in?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Turn Off" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Two-factor sign-in is off." }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn On Two-Factor Sign-In" })).toBeVisible();
});

test("turning it on and signing in with a code work without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInElsewhere();
  await signInThroughForm(page, E2E_2FA_ADMIN);
  await page.goto("/admin/account");
  // One session signed out on its own.
  await page
    .getByRole("button", { name: /^Sign out Firefox on Linux/ })
    .first()
    .click();
  await expect(
    page.getByRole("status").filter({ hasText: "That session is signed out." }),
  ).toBeVisible();
  const codesBefore = (await mailboxCodes()).length;
  await page.locator("#enable-password").fill(E2E_2FA_ADMIN.password);
  await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
  // Asked only if the spec above did not get as far as turning it on.
  await passMailboxStep(page, codesBefore);
  const secret = (await page.locator("#two-factor-secret").textContent())!.trim();
  await page.locator("#enable-code").fill(wrongCode(secret));
  await page.getByRole("button", { name: "Confirm and Turn On" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toBeVisible();
  // The set-up is shown again (the same key), so the right code can follow.
  await expect(page.locator("#two-factor-secret")).toHaveText(secret);
  await page.locator("#enable-code").fill(codeFor(secret));
  await page.getByRole("button", { name: "Confirm and Turn On" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Two-factor sign-in is on." }),
  ).toBeVisible();

  await page.getByRole("button", { name: "Sign Out", exact: true }).click();
  const form = signInForm(page);
  await form.email.fill(E2E_2FA_ADMIN.email);
  await form.password.fill(E2E_2FA_ADMIN.password);
  await form.submit.click();
  await page.locator("#auth-code").fill(codeFor(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  // Without scripts there is no dialog: the password is the confirmation.
  await page.goto("/admin/account");
  await page.locator("#disable-password").fill(E2E_2FA_ADMIN.password);
  await page.getByRole("button", { name: "Turn Off Two-Factor Sign-In" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Two-factor sign-in is off." }),
  ).toBeVisible();
  await context.close();
});
