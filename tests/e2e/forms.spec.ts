import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import {
  expectTwoEmails,
  fillEnquiry,
  mailsFor,
  tamperNextPost,
  uniqueEmail,
} from "#tests/support/public-forms.ts";

/**
 * The visitor forms end to end: the enquiry form (and its suspected-spam path), the forms' states
 * and accessibility, and the newsletter. The web server runs without SMTP_URL, so every e-mail
 * lands as an .eml file under DATA_DIR/outbox — which is how these tests see that exactly two
 * messages followed a post.
 */

test.describe("enquiry form", () => {
  test("/contact: success toast, reset, one inquiry with its two e-mails", async ({ page }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("contact");
    await fillEnquiry(page, form, email);
    await form.getByLabel("Service Interest").selectOption("security-consultancy");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
    await expect(form.getByLabel("Full Name")).toHaveValue("");
    await expect(form.getByLabel("Service Interest")).toHaveValue("");
    const { admin, visitor } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain(
      "Service Interest: Security Consultancy\n\nWe would like a call",
    );
    expect(admin.parsed.text).toContain("Inquiry type: Security consultation");
    expect(admin.parsed.text).toContain("Company: Acme Bank");
    expect(visitor.parsed.text).toContain("Dear Jane Tester,");
  });

  test("browser-side checks: messages next to the fields, announced, nothing sent", async ({
    page,
  }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST") posts += 1;
    });
    await form.getByLabel("Email").fill("not-an-email");
    await form.getByRole("button", { name: "Send Message" }).click();
    const name = form.getByLabel("Full Name");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    const describedBy = await name.getAttribute("aria-describedby");
    await expect(page.locator(`#${describedBy}`)).toHaveText("Please enter your full name");
    await expect(page.locator(`#${describedBy}`)).toHaveAttribute("role", "alert");
    await expect(form.getByText("Please enter a valid email address")).toBeVisible();
    await expect(form.getByText("Please enter your message")).toBeVisible();
    await expect(name).toBeFocused();
    // Editing a field clears its message.
    await name.fill("Jane");
    await expect(name).not.toHaveAttribute("aria-invalid", "true");
    expect(posts).toBe(0);
  });

  test("a server failure: 'Error sending message' toast and the form stays filled", async ({
    page,
  }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("contact-fail");
    await fillEnquiry(page, form, email);
    await tamperNextPost(page, (body) => body.set("email", "broken-on-the-way"));
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Error sending message", "Please try again later.");
    await expect(form.getByLabel("Full Name")).toHaveValue("Jane Tester");
    await expect(form.getByLabel("Message")).toHaveValue(
      "We would like a call about our exposure.",
    );
    await expect(form.getByText("Please enter a valid email address")).toBeVisible();
    await page.waitForTimeout(500);
    expect(await mailsFor(email)).toHaveLength(0);
  });

  test("/quote chooses no service for a general contact", async ({ page }) => {
    await page.goto("/quote");
    await expect(page.locator("form#quote-form").getByLabel("Service Interest")).toHaveValue("");
    // An unknown service in the link chooses nothing either.
    await page.goto("/quote?service=anything");
    await expect(page.locator("form#quote-form").getByLabel("Service Interest")).toHaveValue("");
  });

  test("/quote from a training link keeps its service after a success; the message box is ≥ 120 px", async ({
    page,
  }) => {
    await page.goto("/services/counter-fraud-training");
    await page.getByRole("link", { name: "Discuss Training Requirements" }).click();
    await expect(page).toHaveURL(/\/quote\?service=counter-fraud-training$/);
    const form = page.locator("form#quote-form");
    await expect(form.getByLabel("Service Interest")).toHaveValue("counter-fraud-training");
    const box = await form.getByLabel("Message").boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(120);
    const email = uniqueEmail("quote");
    await fillEnquiry(page, form, email);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
    await expect(form.getByLabel("Service Interest")).toHaveValue("counter-fraud-training");
    const { admin } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Inquiry type: Training");
  });

  test("home #contact: the confirmation speaks of our cybersecurity services", async ({ page }) => {
    await page.goto("/#contact");
    const form = page.locator("#contact form#contact-form");
    const email = uniqueEmail("home");
    await fillEnquiry(page, form, email);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
    const { admin, visitor } = await expectTwoEmails(email);
    expect(admin.parsed.text).toContain("Inquiry type: General enquiry");
    expect(visitor.parsed.text).toContain("about our cybersecurity services");
  });

  test("service pages preselect their service", async ({ page }) => {
    await page.goto("/services/dark-web-monitoring");
    await expect(page.locator("form#monitoring-form").getByLabel("Service Interest")).toHaveValue(
      "dark-web-monitoring",
    );
    await page.goto("/services/security-consultancy");
    await expect(page.locator("form#consultation-form").getByLabel("Service Interest")).toHaveValue(
      "security-consultancy",
    );
  });

  test("a honeypot post is kept as suspected spam with no e-mail; an admin filters, releases it, and the e-mails go", async ({
    page,
  }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("bot");
    await fillEnquiry(page, form, email);
    await form.locator('input[name="contact_website"]').evaluate((el: HTMLInputElement) => {
      el.value = "http://cheap-pills.example";
    });
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
    await page.waitForTimeout(1500);
    expect(await mailsFor(email)).toHaveLength(0);

    // The admin sees it, marked.
    await signInAsAdmin(page);
    await page.goto(`/admin/inquiries?q=${encodeURIComponent(email)}`);
    const row = page.getByRole("row").filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row.getByText("Suspected spam")).toBeVisible();

    // 'Suspected spam only' is in the URL and lists only marked rows.
    await page.goto("/admin/inquiries");
    await page.locator("#filter-spam").selectOption("only");
    await expect(page).toHaveURL(/\/admin\/inquiries\?spam=only$/);
    await expect(row).toHaveCount(1);
    // The address changes before the filtered list is drawn: wait for the list itself.
    const rows = page.getByRole("table", { name: "Inquiries" }).locator("tbody tr");
    await expect(rows.filter({ hasNotText: "Suspected spam" })).toHaveCount(0);
    await expect(rows.filter({ hasText: "Suspected spam" })).not.toHaveCount(0);

    // Release: the mark goes, the inquiry leaves the filtered list, and its two e-mails are sent.
    await row.getByRole("button", { name: /^Release / }).click();
    await expectToast(page, "Success", "Inquiry released: its e-mails are on their way");
    await expect(row).toHaveCount(0);
    await page.locator("#filter-spam").selectOption("all");
    await expect(page).toHaveURL(/\/admin\/inquiries$/);
    await expect(row).toHaveCount(1);
    await expect(row.getByText("Suspected spam")).toHaveCount(0);
    await expect(row.getByRole("button", { name: /^Release / })).toHaveCount(0);
    const { visitor } = await expectTwoEmails(email);
    expect(visitor.parsed.text).toContain("Dear Jane Tester,");
  });
});

test.describe("states and accessibility", () => {
  test("while sending: fields disabled, 'Sending...' / 'Subscribing...'", async ({ page }) => {
    await page.goto("/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("slow");
    await fillEnquiry(page, form, email);
    await tamperNextPost(page, () => {}, 1500);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("button", { name: "Sending..." })).toBeDisabled();
    await expect(form.getByLabel("Full Name")).toBeDisabled();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
    await expect(form.getByLabel("Full Name")).toBeEnabled();

    const news = page.locator("form#newsletter-form");
    await news.getByLabel("Email address").fill(uniqueEmail("slow-news"));
    await tamperNextPost(page, () => {}, 1500);
    await news.getByRole("button", { name: "Subscribe" }).click();
    await expect(news.getByRole("button", { name: "Subscribing..." })).toBeDisabled();
    await expect(news.getByLabel("Email address")).toBeDisabled();
    await expectToast(
      page,
      "Successfully Subscribed!",
      "Thank you for subscribing to our newsletter",
    );
  });

  test("forms showing their errors have no axe violations", async ({ page }) => {
    const scan = async () => {
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      ).toEqual([]);
    };
    await page.goto("/contact");
    await page.locator("form#contact-form").getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Please enter your full name")).toBeVisible();
    await scan();

    await page.goto("/services/file-interrogator");
    await page.getByRole("button", { name: "Get License Quote" }).click();
    await expect(page.locator("form#licence-form")).toBeVisible();
    await scan();

    await page.goto("/courses/introduction-to-counter-fraud");
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Submit Inquiry" }).click();
    await expect(dialog.getByText("Please enter your full name")).toBeVisible();
    await scan();
  });
});

test.describe("newsletter", () => {
  test("subscribe, then the same address in other casing is already subscribed", async ({
    page,
  }) => {
    await page.goto("/about");
    const form = page.locator("form#newsletter-form");
    const email = uniqueEmail("news");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expectToast(page, "Email Required", "Please enter your email address");

    await form.getByLabel("Email address").fill(`  ${email.toUpperCase()} `);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expectToast(
      page,
      "Successfully Subscribed!",
      "Thank you for subscribing to our newsletter",
    );
    await expect(form.getByLabel("Email address")).toHaveValue("");

    await form.getByLabel("Email address").fill(email);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expectToast(
      page,
      "Already Subscribed",
      "This email is already subscribed to our newsletter",
    );
    await expect(form.getByLabel("Email address")).toHaveValue(email);
  });
});
