import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { E2E_ADMIN, expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The audit log (decision 0019) in a real browser: an admin edits a course, and /admin/audit shows
 * the change — who, what, the old and new values — under the "Courses" kind. The course made
 * here is deleted again, so the demo content other specs rely on is left as it was.
 */

function unique(label: string) {
  return `${label} ${Date.now().toString(36)}`;
}

async function deleteCourse(page: Page, title: string) {
  await page.goto("/admin/courses");
  await page.getByRole("button", { name: `Delete ${title}` }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expectToast(page, "Success", "Course deleted successfully");
}

test("a course edit shows in the audit log with its old and new values", async ({ page }) => {
  test.slow();
  await signInAsAdmin(page);
  const title = unique("E2E Audit Course");
  const renamed = `${title} (Renamed)`;

  await page.goto("/admin/courses");
  await page.getByRole("button", { name: "Add Course" }).click();
  const create = page.getByRole("dialog", { name: "Add Course" });
  await create.getByLabel("Title").fill(title);
  await create.getByLabel("Short description").fill("Audited.");
  await create.getByLabel("Price (£)").fill("100");
  await create.getByRole("button", { name: "Create Course" }).click();
  await expectToast(page, "Success", "Course created successfully");
  await expect(create).toBeHidden();

  await page.getByRole("button", { name: `Edit ${title}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Course" });
  await edit.getByLabel("Title").fill(renamed);
  await edit.getByLabel("Price (£)").fill("125.50");
  await edit.getByRole("button", { name: "Update Course" }).click();
  await expectToast(page, "Success", "Course updated successfully");

  try {
    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
    // The select applies at once (with JavaScript); the URL keeps the filter.
    await page.getByLabel("Kind").selectOption({ label: "Courses" });
    await expect(page).toHaveURL(/[?&]kind=course\b/);

    const row = page
      .getByRole("row")
      .filter({ hasText: renamed })
      .filter({ hasText: "Updated course" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(E2E_ADMIN.email);
    await row.getByText("fields").click();
    const changes = row.getByRole("table");
    await expect(changes.getByRole("row", { name: /^Title/ })).toContainText(title);
    await expect(changes.getByRole("row", { name: /^Title/ })).toContainText(renamed);
    await expect(changes.getByRole("row", { name: /^Price/ })).toContainText("100.00");
    await expect(changes.getByRole("row", { name: /^Price/ })).toContainText("125.50");
    // Its creation is there too, under the same kind; other kinds are not.
    await expect(
      page.getByRole("row").filter({ hasText: title }).filter({ hasText: "Created course" }),
    ).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: "Changed order status" })).toHaveCount(0);

    // Read-only: no button changes anything here.
    await expect(page.getByRole("button", { name: /delete|edit/i })).toHaveCount(0);
  } finally {
    await deleteCourse(page, renamed);
  }

  await page.goto("/admin/audit?kind=course");
  await expect(
    page.getByRole("row").filter({ hasText: renamed }).filter({ hasText: "Deleted course" }),
  ).toHaveCount(1);
});

test("filters without matches say so, and the screen has no axe violations", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/audit");
  // Dates are typed the UK way; the URL keeps them as yyyy-mm-dd.
  await page.getByLabel("From", { exact: true }).fill("01/01/2000");
  await page.getByLabel("To", { exact: true }).fill("2/1/2000");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\?from=2000-01-01&to=2000-01-02$/);
  await expect(page.getByText("No entries match these filters.")).toBeVisible();
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("01/01/2000");
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("02/01/2000");

  await page.goto("/admin/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
  const details = page.locator("details").first();
  if ((await details.count()) > 0) await details.locator("summary").click();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);
});
