import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";

/**
 * A public form posted without JavaScript answers with a page opened at the form, its result in
 * view below the sticky header (decision 0023): each form posts to its own fragment (the page's
 * address plus `#<form id>`), and html's scroll-padding-top keeps the target clear of the header.
 * With JavaScript the same forms post through fetchers: no fragment, no jump.
 */

let run = 0;
const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++run}@example.com`;

/** The element is in the window, below the sticky header, not under it. */
async function expectInViewBelowHeader(page: Page, target: Locator) {
  await expect(target).toBeVisible();
  await expect
    .poll(async () => {
      const header = await page.locator("header").first().boundingBox();
      const box = await target.boundingBox();
      const height = page.viewportSize()!.height;
      if (!header || !box) return "not laid out";
      if (box.y < header.y + header.height - 1) return `under the header (top ${box.y})`;
      if (box.y + Math.min(box.height, 40) > height) return `below the fold (top ${box.y})`;
      return "in view";
    })
    .toBe("in view");
}

const scrolled = (page: Page) => page.evaluate(() => window.scrollY);

for (const viewport of [
  { name: "phone", width: 375, height: 667 },
  { name: "desktop", width: 1366, height: 768 },
]) {
  test.describe(`without JavaScript, on a ${viewport.name}`, () => {
    test.use({
      javaScriptEnabled: false,
      viewport: { width: viewport.width, height: viewport.height },
    });

    test("/contact: the errors, then the success, open at the form", async ({ page }) => {
      await page.goto("/contact");
      const form = page.locator("form#contact-form");
      await form.getByLabel("Email").fill(uniqueEmail("frag-contact"));
      await form.getByLabel("Message").fill("Posted without scripts.");
      await form.getByRole("button", { name: "Send Message" }).click();

      await expect(page).toHaveURL(/\/contact#contact-form$/);
      const again = page.locator("form#contact-form");
      await expectInViewBelowHeader(
        page,
        again.getByText("Please correct the fields marked below."),
      );
      await expectInViewBelowHeader(page, again.getByText("Please enter your full name"));
      if (viewport.name === "phone") expect(await scrolled(page)).toBeGreaterThan(0);

      await again.getByLabel("Full Name").fill("Fran Fragment");
      await again.getByRole("button", { name: "Send Message" }).click();
      await expect(page).toHaveURL(/\/contact#contact-form$/);
      const success = page.locator("#contact-form[role=status]");
      await expect(success).toContainText("Message sent successfully!");
      await expectInViewBelowHeader(page, success);
      if (viewport.name === "phone") expect(await scrolled(page)).toBeGreaterThan(0);
    });

    test("home: the enquiry's answer opens at the form, far down the page", async ({ page }) => {
      await page.goto("/");
      const form = page.locator("form#contact-form");
      await form.getByLabel("Full Name").fill("Hana Home");
      await form.getByLabel("Email").fill(uniqueEmail("frag-home"));
      await form.getByRole("button", { name: "Send Message" }).click();
      await expect(page).toHaveURL(/\/\?index#contact-form$/);
      const again = page.locator("form#contact-form");
      await expectInViewBelowHeader(
        page,
        again.getByText("Please correct the fields marked below."),
      );
      await expect(again.getByLabel("Message")).toHaveAttribute("aria-invalid", "true");
      expect(await scrolled(page)).toBeGreaterThan(0);
    });

    test("/quote keeps its service and opens at the form", async ({ page }) => {
      await page.goto("/quote?service=counter-fraud-training");
      const form = page.locator("form#quote-form");
      await form.getByLabel("Full Name").fill("Quinn Quote");
      await form.getByLabel("Email").fill(uniqueEmail("frag-quote"));
      await form.getByLabel("Message").fill("Six people, classroom.");
      await form.getByRole("button", { name: "Send Message" }).click();
      await expect(page).toHaveURL(/\/quote\?service=counter-fraud-training#quote-form$/);
      await expectInViewBelowHeader(
        page,
        page.locator("#quote-form[role=status]").getByText("Message sent successfully!"),
      );
    });

    test("File Interrogator: the licence form's errors and success open at the form", async ({
      page,
    }) => {
      await page.goto("/services/file-interrogator?licence=1#licence-form");
      const form = page.locator("form#licence-form");
      await form.getByLabel("Full Name").fill("Lena Licence");
      await form.getByLabel("Email").fill(uniqueEmail("frag-licence"));
      await form.getByRole("button", { name: "Request Licence Quote" }).click();
      await expect(page).toHaveURL(/\/services\/file-interrogator\?licence=1#licence-form$/);
      const again = page.locator("form#licence-form");
      await expectInViewBelowHeader(
        page,
        again.getByText("Please correct the fields marked below."),
      );
      await expect(again.getByText("Please enter your company or organisation")).toBeVisible();

      await again.getByLabel("Company / Organisation").fill("Org");
      await again.getByLabel("Number of Licences").selectOption("2-5");
      await again.getByRole("button", { name: "Request Licence Quote" }).click();
      await expect(page).toHaveURL(/\/services\/file-interrogator\?licence=1#licence-form$/);
      await expectInViewBelowHeader(
        page,
        page.locator("#licence-form[role=status]").getByText("License Inquiry Sent"),
      );
      expect(await scrolled(page)).toBeGreaterThan(0);
    });

    test("the footer newsletter's answer page opens at its answer", async ({ page }) => {
      await page.goto("/about");
      const form = page.locator("form#newsletter-form");
      await form.getByLabel("Email address").fill(uniqueEmail("frag-news"));
      await form.getByRole("button", { name: "Subscribe" }).click();
      await expect(page).toHaveURL(/\/newsletter#newsletter-answer$/);
      await expectInViewBelowHeader(
        page,
        page.getByRole("heading", { name: "Successfully Subscribed!" }),
      );

      // An address the server turns down: the answer and the form to try again, in view.
      await page.goto("/about");
      await page.locator("form#newsletter-form").getByLabel("Email address").fill("not-an-email");
      await page.locator("form#newsletter-form").getByRole("button", { name: "Subscribe" }).click();
      await expect(page).toHaveURL(/\/newsletter#newsletter-answer$/);
      await expectInViewBelowHeader(page, page.getByRole("heading", { name: "Invalid Email" }));
    });

    test("a course's classroom quote answers in its section", async ({ page }) => {
      await page.goto("/courses/introduction-to-counter-fraud");
      await page.getByRole("button", { name: "Book a Classroom Class" }).click();
      const form = page.getByRole("form", { name: /Enquiry about Introduction to Counter Fraud/ });
      await form.getByLabel("Full Name").fill("Cleo Classroom");
      await form.getByLabel("Email").fill(uniqueEmail("frag-course"));
      await form.getByLabel(/Training requirements/).fill("A refresher for 4 people.");
      await form.getByRole("button", { name: "Submit Inquiry" }).click();
      await expect(page).toHaveURL(
        /\?quote=face_to_face#course-quote-[\w-]+-face_to_face-section$/,
      );
      await expectInViewBelowHeader(
        page,
        page
          .getByRole("status")
          .getByText(
            "Thank you for your interest! We'll get back to you with a custom quote for your face-to-face training.",
          ),
      );
    });

    test("checkout: the errors open at the form, 'Update' at the students, an invoice at its confirmation", async ({
      page,
    }) => {
      const course = "introduction-to-counter-fraud";
      await page.goto(`/courses/${course}/checkout`);
      await page.getByRole("button", { name: "Request Manual Invoice" }).click();
      await expect(page).toHaveURL(new RegExp(`/courses/${course}/checkout#checkout-form$`));
      await expectInViewBelowHeader(page, page.getByRole("alert").getByText("Missing Information"));

      await page.locator("#checkout-firstName").fill("Ada");
      await page.locator("#checkout-lastName").fill("Lovelace");
      await page.locator("#checkout-email").fill(uniqueEmail("frag-checkout"));
      await fillCheckoutAddress(page);
      await page.getByRole("radio", { name: /Someone else/ }).check();
      await page.getByLabel("Number of students").selectOption("2");
      await page.getByRole("button", { name: "Update student details" }).click();
      await expect(page).toHaveURL(new RegExp(`/courses/${course}/checkout#student-information$`));
      await expectInViewBelowHeader(
        page,
        page.getByRole("heading", { name: "Student Information" }),
      );
      expect(await scrolled(page)).toBeGreaterThan(0);

      for (const n of [1, 2]) {
        const block = page.getByRole("group", { name: `Student ${n}` });
        await block.getByLabel("First Name").fill(`Student${n}`);
        await block.getByLabel("Last Name").fill("Smith");
        await block.getByLabel("Email").fill(`student${n}.${Date.now()}@example.com`);
      }
      await page.getByRole("button", { name: "Request Manual Invoice" }).click();
      // Its own fragment, not the checkout's carried over the redirect.
      await expect(page).toHaveURL(`/courses/${course}/success?invoice=true#main`);
      await expectInViewBelowHeader(
        page,
        page.getByRole("heading", { name: "Booking Confirmed!" }),
      );
    });
  });
}

test.describe("with JavaScript", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("the same form posts through a fetcher: a toast, no fragment, no jump", async ({ page }) => {
    await page.goto("/contact");
    // Hydrated once the submit button's form answers through React.
    await page.waitForLoadState("networkidle");
    const form = page.locator("form#contact-form");
    await form.getByLabel("Full Name").fill("Jo Script");
    await form.getByLabel("Email").fill(uniqueEmail("frag-js"));
    await form.getByLabel("Message").fill("Posted with scripts.");
    await form.getByRole("button", { name: "Send Message" }).scrollIntoViewIfNeeded();
    const before = await scrolled(page);
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!").first()).toBeVisible();
    await expect(page).toHaveURL(/\/contact$/);
    expect(Math.abs((await scrolled(page)) - before)).toBeLessThan(5);
  });
});
