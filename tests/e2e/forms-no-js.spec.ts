import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectTwoEmails, tamperNextPost, uniqueEmail } from "#tests/support/public-forms.ts";

/**
 * The visitor forms without JavaScript: the enquiry form, the classroom quote, the footer
 * newsletter and the licence form with the page's no-script toggle.
 */

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the enquiry form posts, shows errors with values kept, then success", async ({ page }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("nojs");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Message").fill("Sent without scripts.");
    await form.getByRole("button", { name: "Send Message" }).click();
    // The form posts to its own fragment: the answer page opens at the form.
    await expect(page).toHaveURL(/\/contact#contact-form$/);
    const again = page.locator("form#contact-form");
    await expect(again.getByText("Please enter your full name")).toBeVisible();
    await expect(again.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
    await expect(again.getByLabel("Email")).toHaveValue(email);
    await expect(again.getByLabel("Message")).toHaveValue("Sent without scripts.");
    await again.getByLabel("Full Name").fill("Nora Script");
    await again.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status").getByText("Message sent successfully!")).toBeVisible();
    await expectTwoEmails(email);
  });

  test("the classroom quote opens in the page and posts", async ({ page }) => {
    await page.goto("/courses/introduction-to-counter-fraud");
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    await expect(page).toHaveURL(/quote=face_to_face/);
    const form = page.getByRole("form", { name: /Enquiry about Introduction to Counter Fraud/ });
    const email = uniqueEmail("nojs-course");
    await form.getByLabel("Full Name").fill("Cole Classroom");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel(/Training requirements/).fill("Half-day refresher for 6 people.");
    await form.getByRole("button", { name: "Submit Inquiry" }).click();
    await expect(
      page.getByText(
        "Thank you for your interest! We'll get back to you with a custom quote for your face-to-face training.",
      ),
    ).toBeVisible();
    const { admin } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Attendees: 1");
  });

  test("the footer newsletter shows a result page", async ({ page }) => {
    // The first post as sent, to send it again below.
    let firstPost = "";
    await page.route("**/newsletter", async (route) => {
      if (route.request().method() === "POST" && !firstPost)
        firstPost = route.request().postData()!;
      await route.fallback();
    });
    await page.goto("/about");
    const email = uniqueEmail("nojs-news");
    const form = page.locator("form#newsletter-form");
    await form.getByLabel("Email address").fill(email);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter#newsletter-answer$/);
    await expect(page.getByRole("heading", { name: "Successfully Subscribed!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the page you were on" })).toHaveAttribute(
      "href",
      "/about",
    );
    // The same post again, key and all, as the page kept in the page cache (or the browser's
    // history) sends it — whether or not this visit got that page: the first answer, nothing new.
    await page.goto("/about");
    await tamperNextPost(page, (body) => {
      for (const name of [...body.keys()]) body.delete(name);
      for (const [name, value] of new URLSearchParams(firstPost)) body.append(name, value);
    });
    await page.locator("form#newsletter-form").getByLabel("Email address").fill(email);
    await page.locator("form#newsletter-form").getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { name: "Successfully Subscribed!" })).toBeVisible();
    // The address typed otherwise is another post: it is already subscribed.
    await page.goto("/about");
    await page
      .locator("form#newsletter-form")
      .getByLabel("Email address")
      .fill(email.toUpperCase());
    await page.locator("form#newsletter-form").getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByRole("heading", { name: "Already Subscribed" })).toBeVisible();
  });

  test("the licence form works with the page's no-script toggle", async ({ page }) => {
    await page.goto("/services/file-interrogator?licence=1#licence-form");
    const form = page.locator("form#licence-form");
    const email = uniqueEmail("nojs-licence");
    await form.getByLabel("Full Name").fill("Nils");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Request Licence Quote" }).click();
    await expect(page.getByText("Please enter your company or organisation")).toBeVisible();
    await page.locator("form#licence-form").getByLabel("Company / Organisation").fill("Org");
    await page.locator("form#licence-form").getByLabel("Number of Licences").selectOption("50+");
    await page
      .locator("form#licence-form")
      .getByRole("button", { name: "Request Licence Quote" })
      .click();
    await expect(page.getByRole("status").getByText("License Inquiry Sent")).toBeVisible();
    await expectTwoEmails(email);
  });
});
