import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { confirmDelete, png, row, unique } from "#tests/support/catalogue-admin.ts";

/**
 * Admin area II in a real browser: categories (their courses become uncategorised when one is
 * deleted) and partners with logo removal, with every delete confirmation. Everything created here
 * is deleted again, so the demo content the other specs rely on is left as it was.
 */

test.describe("categories", () => {
  test("add (slug from the name), edit, and delete: its courses become uncategorised", async ({
    page,
  }) => {
    await signInAsAdmin(page);
    const name = unique("E2E Cyber & Fraud!");
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
    await page.goto("/admin/categories");
    await page.getByRole("button", { name: "Add Category" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Category" });
    await dialog.getByRole("button", { name: "Create Category" }).click();
    await expect(dialog.getByText("Please enter a name")).toBeVisible();
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Description").fill("Made by the e2e test");
    await dialog.getByRole("button", { name: "Create Category" }).click();
    await expectToast(page, "Success", "Category created successfully");
    await expect(row(page, name)).toContainText(slug);

    await page.getByRole("button", { name: `Edit ${name}` }).click();
    const renamed = `${name} II`;
    await page.getByRole("dialog", { name: "Edit Category" }).getByLabel("Name").fill(renamed);
    await page.getByRole("dialog").getByRole("button", { name: "Update Category" }).click();
    await expectToast(page, "Success", "Category updated successfully");
    // The slug the category already had is kept.
    await expect(row(page, renamed)).toContainText(slug);

    // A course in the category.
    const courseTitle = unique("E2E Categorised Course");
    await page.goto("/admin/courses");
    await page.getByRole("button", { name: "Add Course" }).click();
    const courseDialog = page.getByRole("dialog", { name: "Add Course" });
    await courseDialog.getByLabel("Title").fill(courseTitle);
    await courseDialog.getByLabel("Category").selectOption({ label: renamed });
    await courseDialog.getByRole("button", { name: "Create Course" }).click();
    await expectToast(page, "Success", "Course created successfully");
    await expect(row(page, courseTitle)).toContainText(renamed);

    await page.goto("/admin/categories");
    const question =
      "Are you sure you want to delete this category? This may affect associated courses.";
    await confirmDelete(page, renamed, question, "Cancel");
    await expect(row(page, renamed)).toBeVisible();
    await confirmDelete(page, renamed, question, "Delete");
    await expectToast(page, "Success", "Category deleted successfully");
    await expect(row(page, renamed)).toHaveCount(0);

    await page.goto("/admin/courses");
    await expect(row(page, courseTitle)).toContainText("Uncategorised");
    await confirmDelete(
      page,
      courseTitle,
      "Are you sure you want to delete this course?",
      "Delete",
    );
    await expectToast(page, "Success", "Course deleted successfully");
  });
});

test.describe("partners", () => {
  test("add with a logo, edit and remove the logo, reset on Add, delete", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/partners");
    await expect(page.getByRole("heading", { level: 1, name: "Partner Management" })).toBeVisible();
    const countHeading = page.getByRole("heading", { name: /^Partners \(\d+\)$/ });
    const before = Number(/\((\d+)\)/.exec((await countHeading.textContent()) ?? "")![1]);

    const name = unique("E2E Partner Academy");
    await page.getByRole("button", { name: "Add Partner" }).click();
    let dialog = page.getByRole("dialog", { name: "Add New Partner" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Website URL").fill("not a url");
    await dialog.getByLabel("Contact email").fill("nobody");
    await dialog.getByRole("button", { name: "Create Partner" }).click();
    await expect(
      dialog.getByText("Please enter a valid URL starting with http:// or https://"),
    ).toBeVisible();
    await expect(dialog.getByText("Please enter a valid email address")).toBeVisible();
    await dialog.getByLabel("Website URL").fill("https://academy.example");
    await dialog.getByLabel("Purchase URL").fill("https://academy.example/buy");
    await dialog.getByLabel("Contact email").fill("training@academy.example");
    await dialog.locator('input[name="logo"]').setInputFiles(png("logo.png"));
    await dialog.getByRole("button", { name: "Create Partner" }).click();
    await expectToast(page, "Success", "Partner created successfully");
    await expect(countHeading).toHaveText(`Partners (${before + 1})`);

    const partnerRow = row(page, name);
    await expect(partnerRow.getByRole("link", { name: /^Buy/ })).toHaveAttribute(
      "href",
      "https://academy.example/buy",
    );
    await expect(partnerRow.getByRole("link", { name: /^Buy/ })).toHaveAttribute(
      "target",
      "_blank",
    );
    await expect(partnerRow.getByRole("link", { name: /^Visit/ })).toHaveAttribute(
      "href",
      "https://academy.example",
    );
    await expect(partnerRow.getByRole("link", { name: /^Visit/ })).toHaveAttribute(
      "target",
      "_blank",
    );
    await expect(partnerRow).toContainText("training@academy.example");
    const logo = partnerRow.getByRole("img", { name: `${name} logo` });
    const logoSrc = await logo.getAttribute("src");
    expect(logoSrc).toMatch(/^\/media\/logos\/partner-\d+-[0-9a-f]+\.png$/);
    expect((await page.request.get(logoSrc!)).status()).toBe(200);

    // Edit: remove the logo (logo_url cleared, the file deleted).
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    dialog = page.getByRole("dialog", { name: "Edit Partner" });
    await expect(dialog.getByLabel("Name")).toHaveValue(name);
    await dialog.getByRole("button", { name: "Remove logo" }).click();
    await expect(dialog.getByAltText("Current logo")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Update Partner" }).click();
    await expectToast(page, "Success", "Partner updated successfully");
    await expect(partnerRow.getByRole("img", { name: `${name} logo` })).toHaveCount(0);
    expect((await page.request.get(logoSrc!)).status()).toBe(404);

    // Add opens an empty form, whatever was edited before.
    await page.getByRole("button", { name: "Add Partner" }).click();
    dialog = page.getByRole("dialog", { name: "Add New Partner" });
    await expect(dialog.getByLabel("Name")).toHaveValue("");
    await expect(dialog.getByLabel("Website URL")).toHaveValue("");
    await dialog.getByRole("button", { name: "Close" }).click();

    await confirmDelete(page, name, "Are you sure you want to delete this partner?", "Cancel");
    await expect(partnerRow).toBeVisible();
    await confirmDelete(page, name, "Are you sure you want to delete this partner?", "Delete");
    await expectToast(page, "Success", "Partner deleted successfully");
    await expect(row(page, name)).toHaveCount(0);
    await expect(countHeading).toHaveText(`Partners (${before})`);
  });
});
