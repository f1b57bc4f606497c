import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast } from "#tests/support/e2e-fixtures.ts";
import { expectTwoEmails, tamperNextPost, uniqueEmail } from "#tests/support/public-forms.ts";

/**
 * The quote forms end to end: the File Interrogator licence form and the course quote dialog,
 * their checks, successes and failures. E-mails land as .eml files under DATA_DIR/outbox (the web
 * server runs without SMTP_URL).
 */

test.describe("File Interrogator licence form", () => {
  test("submit stays disabled until name, email, company and licence count are filled", async ({
    page,
  }) => {
    await page.goto("/services/file-interrogator");
    await page.getByRole("button", { name: "Get License Quote" }).click();
    const form = page.locator("form#licence-form");
    const submit = form.getByRole("button", { name: "Request Licence Quote" });
    await expect(submit).toBeDisabled();
    const email = uniqueEmail("licence");
    await form.getByLabel("Full Name").fill("Lee Analyst");
    await expect(submit).toBeDisabled();
    await form.getByLabel("Email").fill(email);
    await expect(submit).toBeDisabled();
    await form.getByLabel("Company / Organisation").fill("City Police");
    await expect(submit).toBeDisabled();
    await form.getByLabel("Number of Licences").selectOption("6-10");
    await expect(submit).toBeEnabled();
    await form.getByLabel("Company / Organisation").fill("");
    await expect(submit).toBeDisabled();
    await form.getByLabel("Company / Organisation").fill("City Police");
    await form.getByLabel("Primary Use Case").selectOption("law-enforcement");
    await submit.click();
    await expectToast(
      page,
      "License Inquiry Sent",
      "We'll contact you within 24 hours with pricing and next steps.",
    );
    await expect(form.getByLabel("Full Name")).toHaveValue("");
    await expect(submit).toBeDisabled();
    const { admin, visitor } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Licences: 6–10 licences");
    expect(admin.parsed.text).toContain("Inquiry type: File Interrogator");
    expect(visitor.parsed.text).toContain("within 2 business days");
  });

  test("a server failure: 'Error' / 'Failed to send inquiry. Please try again.'", async ({
    page,
  }) => {
    await page.goto("/services/file-interrogator");
    await page.getByRole("button", { name: "Get License Quote" }).click();
    const form = page.locator("form#licence-form");
    await form.getByLabel("Full Name").fill("Lee");
    await form.getByLabel("Email").fill(uniqueEmail("licence-fail"));
    await form.getByLabel("Company / Organisation").fill("Org");
    await form.getByLabel("Number of Licences").selectOption("1");
    await tamperNextPost(page, (body) => body.set("licence_count", "a-million"));
    await form.getByRole("button", { name: "Request Licence Quote" }).click();
    await expectToast(page, "Error", "Failed to send inquiry. Please try again.");
    await expect(form.getByLabel("Full Name")).toHaveValue("Lee");
    await expect(form.getByText("Please choose how many licences you need")).toBeVisible();
  });
});

test.describe("course quote dialog", () => {
  const coursePath = "/courses/introduction-to-counter-fraud";

  test("face-to-face needs attendees (default 1) and requirements; online does not", async ({
    page,
  }) => {
    await page.goto(coursePath);
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Face-to-face (classroom)")).toBeChecked();
    await expect(dialog.getByLabel("Number of Attendees")).toHaveValue("1");
    const email = uniqueEmail("f2f");
    await dialog.getByLabel("Full Name").fill("Sam Trainer");
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByLabel("Number of Attendees").fill("0");
    await dialog.getByRole("button", { name: "Submit Inquiry" }).click();
    await expect(dialog.getByText("Attendees must be a whole number of at least 1")).toBeVisible();
    await expect(dialog.getByText("Please describe your training requirements")).toBeVisible();

    // Online: no attendees or budget, and the message is optional.
    await dialog.getByLabel("Online").check();
    await expect(dialog.getByLabel("Number of Attendees")).toHaveCount(0);
    await expect(dialog.getByLabel("Budget (optional)")).toHaveCount(0);
    await expect(dialog.getByLabel("Message (optional)")).toBeVisible();

    await dialog.getByLabel("Face-to-face (classroom)").check();
    await dialog.getByLabel("Number of Attendees").fill("12");
    await dialog.getByLabel("Budget (optional)").fill("£6,000");
    await dialog.getByLabel("Training Requirements").fill("Two days at our Leeds office.");
    await dialog.getByRole("button", { name: "Submit Inquiry" }).click();
    await expectToast(
      page,
      "Inquiry Submitted",
      "Thank you for your interest! We'll get back to you with a custom quote for your face-to-face training.",
    );
    await expect(dialog).toBeHidden();
    const { admin, visitor } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Course: Introduction to Counter Fraud");
    expect(admin.parsed.text).toContain("Attendees: 12");
    expect(admin.parsed.text).toContain("Budget: £6,000");
    expect(admin.parsed.text).toContain("Modality: Face-to-face (classroom)");
    expect(visitor.parsed.text).toContain("Next steps:");
  });

  test("online enrolment: message optional, online success text", async ({ page }) => {
    await page.goto(coursePath);
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Online").check();
    const email = uniqueEmail("online");
    await dialog.getByLabel("Full Name").fill("Olive Online");
    await dialog.getByLabel("Email").fill(email);
    await dialog.getByRole("button", { name: "Submit Inquiry" }).click();
    await expectToast(
      page,
      "Inquiry Submitted",
      "Thank you for your interest! We'll contact you soon to process your course enrollment.",
    );
    await expect(dialog).toBeHidden();
    const { admin } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Modality: Online");
    expect(admin.parsed.text).not.toContain("Attendees:");
  });

  test("a failure: destructive 'Error' toast, dialog stays open and filled", async ({ page }) => {
    await page.goto(coursePath);
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Online").check();
    await dialog.getByLabel("Full Name").fill("Fay Fail");
    await dialog.getByLabel("Email").fill(uniqueEmail("dialog-fail"));
    await tamperNextPost(page, (body) =>
      body.set("course_id", "00000000-0000-4000-8000-000000000000"),
    );
    await dialog.getByRole("button", { name: "Submit Inquiry" }).click();
    await expectToast(page, "Error", "Failed to submit your inquiry. Please try again.");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Full Name")).toHaveValue("Fay Fail");
  });
});
