import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page, type Route } from "@playwright/test";
import { simpleParser } from "mailparser";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The visitor forms end to end: enquiry, licence quote, course quote dialog, newsletter. The
 * web server runs without SMTP_URL, so every e-mail lands as an .eml file under
 * DATA_DIR/outbox — which is how these tests see that exactly two messages followed a post.
 */

const port = Number(process.env.E2E_PORT ?? 4317);
// Same folder as playwright.config.ts gives the web server.
const outboxDir = path.resolve(`test-results/e2e-data-${port}/outbox`);

let counter = 0;
function uniqueEmail(label: string): string {
  counter += 1;
  return `e2e-${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The .eml files (parsed) that mention `address`. */
async function mailsFor(address: string) {
  let files: string[];
  try {
    files = readdirSync(outboxDir).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  const found = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outboxDir, file), "utf8");
    if (!raw.includes(address)) continue;
    const parsed = await simpleParser(raw);
    found.push({ kind: String(parsed.headers.get("x-nightwatch-kind")), parsed, raw });
  }
  return found;
}

/** Waits for the admin alert and the visitor confirmation of one inquiry, and returns them. */
async function expectTwoEmails(address: string) {
  await expect.poll(async () => (await mailsFor(address)).length, { timeout: 15_000 }).toBe(2);
  const mails = await mailsFor(address);
  const admin = mails.find((m) => m.kind === "admin_alert");
  const visitor = mails.find((m) => m.kind === "visitor_confirmation");
  expect(admin, "admin alert").toBeDefined();
  expect(visitor, "visitor confirmation").toBeDefined();
  return { admin: admin!, visitor: visitor! };
}

/**
 * Rewrites the next form post on its way to the server (after the browser's own checks passed),
 * to drive the server's failure paths from a real page.
 */
async function tamperNextPost(page: Page, change: (body: URLSearchParams) => void, delayMs = 0) {
  let done = false;
  const handler = async (route: Route) => {
    const request = route.request();
    if (done || request.method() !== "POST") return route.fallback();
    done = true;
    const body = new URLSearchParams(request.postData() ?? "");
    change(body);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await route.continue({ postData: body.toString() });
  };
  await page.route("**/*", handler);
}

async function fillEnquiry(page: Page, form: ReturnType<Page["locator"]>, email: string) {
  await form.getByLabel("Full Name").fill("Jane Tester");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Company").fill("Acme Bank");
  await form.getByLabel("Phone").fill("020 7946 0000");
  await form.getByLabel("Message").fill("We would like a call about our exposure.");
}

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
    const rows = page.getByRole("table", { name: "Inquiries" }).locator("tbody tr");
    const listed = await rows.count();
    expect(listed).toBeGreaterThan(0);
    await expect(rows.filter({ hasText: "Suspected spam" })).toHaveCount(listed);

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
    await page.goto("/about");
    await page.locator("form#newsletter-form").getByLabel("Email address").fill(email);
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
