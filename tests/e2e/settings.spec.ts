import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The seller settings in Chromium on the production build: staff open Settings from the sidebar,
 * a refused sort code is said beside its field and nothing changes, then a new bank account is
 * saved and shown on the next visit as saved here; the setting goes back as it was.
 */

test("staff change the bank details on the Settings screen", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/dashboard");
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: "Settings", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  const account = page.getByRole("textbox", { name: "Account number" });
  const sortCode = page.getByRole("textbox", { name: "Sort code" });
  const was = { account: await account.inputValue(), sortCode: await sortCode.inputValue() };

  await sortCode.fill("12-34");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("must be six digits, e.g. 12-34-56")).toBeVisible();

  await sortCode.fill("40-11-62");
  await account.fill("31926819");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expectToast(
    page,
    "Success",
    "Settings saved. New invoices use them; documents already issued keep theirs.",
  );
  await page.reload();
  await expect(account).toHaveValue("31926819");
  await expect(page.getByTestId("settings-state")).toContainText("Last changed");

  // As it was, for the other specs' invoices.
  await sortCode.fill(was.sortCode);
  await account.fill(was.account);
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expectToast(
    page,
    "Success",
    "Settings saved. New invoices use them; documents already issued keep theirs.",
  );
});
