import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { confirmDelete, png, row, unique } from "#tests/support/catalogue-admin.ts";

/**
 * A course page a buyer can decide from, and /about: an admin adds a trainer (with a photo) and a
 * course's buyer details, and the course page shows them; /about says Coming Soon until the About
 * profile is published, then shows it with the trainer. Without JavaScript, a trainer is added on
 * the page. Everything is put back afterwards (the profile a draft again, the rows deleted).
 */

test("trainers and course details on the course page; /about from Coming Soon to published", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAsAdmin(page);
  const trainerName = unique("E2E Ada Trainer");
  const courseTitle = unique("E2E Buyer Course");
  const slug = courseTitle
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1, name: "Coming Soon" })).toBeVisible();

  try {
    // A trainer, with a photo.
    await page.goto("/admin/trainers");
    await page.getByRole("button", { name: "Add Trainer" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Trainer" });
    await dialog.getByRole("button", { name: "Create Trainer" }).click();
    await expect(dialog.getByText("Please enter the trainer's name")).toBeVisible();
    await dialog.getByLabel("Name").fill(trainerName);
    await dialog.getByLabel("Role").fill("Lead Counter Fraud Trainer");
    await dialog.getByLabel("Short bio").fill("Twenty years of fraud investigation.");
    await dialog.getByLabel("Credentials").fill("- Accredited Counter Fraud Specialist");
    await dialog.locator('input[name="photo"]').setInputFiles(png("ada.png"));
    await dialog.getByRole("button", { name: "Create Trainer" }).click();
    await expectToast(page, "Success", "Trainer created successfully");
    await expect(row(page, trainerName)).toContainText("Lead Counter Fraud Trainer");

    // A published course with the buyer's details and the trainer.
    await page.goto("/admin/courses");
    await page.getByRole("button", { name: "Add Course" }).click();
    const course = page.getByRole("dialog", { name: "Add Course" });
    await course.getByLabel("Title").fill(courseTitle);
    await course.getByLabel("Status").selectOption("published");
    await course.getByLabel("Who should attend").fill("- Fraud investigators\n- Analysts");
    await course.getByLabel("What you will learn").fill("How to interview a suspect");
    await course.getByLabel("Prerequisites").fill("None");
    await course.getByLabel("Format and what's included").fill("One day in a classroom");
    await course.getByLabel("CPD hours").fill("7.25");
    await course.getByRole("button", { name: "Create Course" }).click();
    await expect(course.getByText(/CPD hours from 0 to 99.9/)).toBeVisible();
    await course.getByLabel("CPD hours").fill("7.5");
    await course.getByLabel("Trainer 1", { exact: true }).selectOption({ label: trainerName });
    await course.getByRole("button", { name: "Create Course" }).click();
    await expectToast(page, "Success", "Course created successfully");

    await page.goto(`/courses/${slug}`);
    const audience = page.getByRole("region", { name: "Who should attend" });
    await expect(audience.getByRole("listitem")).toHaveText(["Fraud investigators", "Analysts"]);
    await expect(page.getByRole("region", { name: "What you will learn" })).toContainText(
      "How to interview a suspect",
    );
    await expect(page.getByRole("region", { name: "Prerequisites" })).toContainText("None");
    await expect(page.getByRole("region", { name: "Format and what's included" })).toContainText(
      "One day in a classroom",
    );
    await expect(page.getByRole("complementary", { name: "Course details" })).toContainText(
      "7.5 hours",
    );
    const trainer = page.getByTestId("course-trainer");
    await expect(trainer).toContainText(trainerName);
    await expect(trainer).toContainText("Lead Counter Fraud Trainer");
    await expect(trainer).toContainText("Twenty years of fraud investigation.");
    await expect(trainer.getByRole("img", { name: `Photo of ${trainerName}` })).toBeVisible();

    // Without JavaScript a trainer is added on the page itself.
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      await noScript.addCookies(await page.context().cookies());
      const plain = await noScript.newPage();
      await plain.goto("/admin/trainers");
      await plain.getByRole("link", { name: "Add Trainer" }).click();
      await plain.getByRole("button", { name: "Create Trainer" }).click();
      await expect(plain.getByText("Please enter the trainer's name")).toBeVisible();
      await plain.getByLabel("Name").fill(`${trainerName} II`);
      await plain.getByRole("button", { name: "Create Trainer" }).click();
      await expect(plain.getByText("Trainer created successfully")).toBeVisible();
      await expect(row(plain, `${trainerName} II`)).toBeVisible();
      // Edited on the page: a refused post keeps what was typed, then it saves.
      await row(plain, `${trainerName} II`)
        .getByRole("link", { name: `Edit ${trainerName} II` })
        .click();
      await expect(plain.getByRole("heading", { name: "Edit Trainer" })).toBeVisible();
      await plain.getByLabel("Name").fill("");
      await plain.getByLabel("Role").fill("Deputy Trainer");
      await plain.getByRole("button", { name: "Update Trainer" }).click();
      await expect(plain.getByText("Please enter the trainer's name")).toBeVisible();
      await expect(plain.getByLabel("Role")).toHaveValue("Deputy Trainer");
      await plain.getByLabel("Name").fill(`${trainerName} II`);
      await plain.getByRole("button", { name: "Update Trainer" }).click();
      await expect(plain.getByText("Trainer updated successfully")).toBeVisible();
      await expect(row(plain, `${trainerName} II`)).toContainText("Deputy Trainer");
      // Deleted on the page, after its question.
      await row(plain, `${trainerName} II`)
        .getByRole("link", { name: `Delete ${trainerName} II` })
        .click();
      await expect(
        plain.getByRole("heading", { name: "Are you sure you want to delete this trainer?" }),
      ).toBeVisible();
      await plain.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(plain.getByText("Trainer deleted successfully")).toBeVisible();
      await expect(row(plain, `${trainerName} II`)).toHaveCount(0);
    } finally {
      await noScript.close();
    }

    // The About profile, published.
    await page.goto("/admin/about");
    await page.getByLabel("Our story").fill("We train the people who stop fraud.");
    await page.getByLabel("Accreditations").fill("- CPD Certification Service");
    await page.getByLabel("Partner bodies").fill("Fraud Advisory Panel");
    await page.getByLabel("Published (shown on /about)").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Success", "About page published");

    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: "Who we are" })).toBeVisible();
    await expect(page.getByText("We train the people who stop fraud.")).toBeVisible();
    const ada = page.getByTestId("about-trainer").filter({ hasText: "Lead Counter Fraud Trainer" });
    await expect(ada).toContainText("Accredited Counter Fraud Specialist");
    await expect(page.getByRole("region", { name: "Accreditations" })).toContainText(
      "CPD Certification Service",
    );
    await expect(page.getByRole("region", { name: "Partner bodies" })).toContainText(
      "Fraud Advisory Panel",
    );
    await expect(page.getByTestId("about-company")).toBeVisible();
  } finally {
    // Back as it was: /about a draft ('Coming Soon'), the course and trainers gone.
    await page.goto("/admin/about");
    await page.getByLabel("Published (shown on /about)").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Success", "About page saved as a draft");
    await page.goto("/about");
    await expect(page.getByRole("heading", { level: 1, name: "Coming Soon" })).toBeVisible();

    await page.goto("/admin/courses");
    if (await row(page, courseTitle).count()) {
      await confirmDelete(
        page,
        courseTitle,
        "Are you sure you want to delete this course?",
        "Delete",
      );
      await expectToast(page, "Success", "Course deleted successfully");
    }
    await page.goto("/admin/trainers");
    for (const name of [`${trainerName} II`, trainerName]) {
      if (await row(page, name).count()) {
        await confirmDelete(page, name, "Are you sure you want to delete this trainer?", "Delete");
        await expectToast(page, "Success", "Trainer deleted successfully");
      }
    }
  }
});
