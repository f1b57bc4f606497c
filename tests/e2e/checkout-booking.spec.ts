import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { expectToast } from "#tests/support/e2e-fixtures.ts";
import { COURSE, fillStudent, openCheckout, uniqueEmail } from "#tests/support/checkout-page.ts";

/**
 * Checkout in Chromium: which courses can be booked (unknown, partner and unpriced ones offer
 * another way), and an invoice booking with billing details and a PO whose success page shows the
 * order only to its buyer.
 */

test.describe("checkout page", () => {
  test("unknown, partner and unpriced courses → 'Course Not Found'; their pages offer another way", async ({
    page,
    request,
  }) => {
    const response = await page.goto("/courses/no-such-course/checkout");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Course Not Found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Training" })).toHaveAttribute(
      "href",
      "/services/counter-fraud-training",
    );
    // A draft is not for sale either.
    expect((await page.goto("/courses/advanced-fraud-analytics/checkout"))?.status()).toBe(404);

    // A partner's course (booked through the partner's 'Buy Now') and one without a price:
    // a typed-in checkout URL is not found, and so is a post to it.
    for (const slug of ["cifas-fraud-prevention-essentials", "insider-fraud-detection"]) {
      const typed = await page.goto(`/courses/${slug}/checkout`);
      expect(typed?.status(), slug).toBe(404);
      await expect(page.getByRole("heading", { name: "Course Not Found" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Request Manual Invoice" })).toHaveCount(0);
      const posted = await request.post(`/courses/${slug}/checkout`, {
        form: {
          intent: "invoice",
          firstName: "Ada",
          lastName: "Lovelace",
          email: uniqueEmail("typed-in"),
          ...BILLING_FORM,
          studentMode: "self",
        },
        maxRedirects: 0,
      });
      expect(posted.status(), `POST ${slug}`).toBe(404);
    }

    // The partner course's page sends buyers to the partner.
    await page.goto("/courses/cifas-fraud-prevention-essentials");
    const partnerDetails = page.getByRole("complementary");
    await expect(partnerDetails.getByRole("link", { name: /Buy Now/ })).toBeVisible();
    await expect(partnerDetails.getByRole("link", { name: "Book an Online Course" })).toHaveCount(
      0,
    );

    // The unpriced course's page offers a quote instead of "Book an Online Course".
    await page.goto("/courses/insider-fraud-detection");
    await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
    const details = page.getByRole("complementary");
    await expect(details.getByRole("link", { name: "Book an Online Course" })).toHaveCount(0);
    await expect(details.getByRole("button", { name: "Book a Classroom Class" })).toBeVisible();
    await details.getByRole("button", { name: "Request a Quote" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
  });

  test("an invoice booking with billing details and a PO; the success page shows the order only to its buyer", async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail("po");
    await openCheckout(page);
    // The country starts as the United Kingdom; the seller (VAT-registered in these tests,
    // prices including VAT) shows the VAT within the price: 1/6 of £295.00.
    await expect(page.getByLabel("Country")).toHaveValue("United Kingdom");
    await expect(page.getByTestId("vat")).toHaveText("£49.17");
    await expect(page.getByTestId("net")).toHaveText("£245.83");
    await page.getByLabel("First Name").first().fill("Ada");
    await page.getByLabel("Last Name").first().fill("Lovelace");
    await page.getByLabel("Email").first().fill(email);
    await page.getByLabel("Organisation").fill("Analytical Engines Ltd");
    await page.getByLabel("Address Line 1").fill("12 Babbage Street");
    await page.getByLabel("Address Line 2").fill("Floor 3");
    await page.getByLabel("Town or City").fill("London");
    await page.getByLabel("Postcode").fill("ec1a 1bb");
    await page.getByLabel("PO Number").fill("PO-2026-0042");
    await page.getByLabel("VAT Number").fill("GB123456789");
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("3");
    for (const [n, first] of [
      [1, "Grace"],
      [2, "Alan"],
      [3, "Joan"],
    ] as const) {
      await fillStudent(page, n, first, uniqueEmail(first.toLowerCase()));
    }

    // The terms must be accepted: a clear message next to the box, nothing posted.
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expectToast(
      page,
      "Terms Not Accepted",
      "Please accept the terms and conditions to complete your booking",
    );
    const terms = page.getByRole("checkbox", { name: /I accept the terms/ });
    await expect(terms).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please accept the terms to continue")).toBeVisible();
    await expect(page.getByRole("link", { name: "terms and conditions" })).toHaveAttribute(
      "href",
      "/terms",
    );
    // A postcode that is not a UK one is refused while the country is the United Kingdom.
    await page.getByLabel("Postcode").fill("12345");
    await terms.check();
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expectToast(page, "Missing Information", "Please enter a valid UK postcode");
    await expect(page.getByText("Please enter a valid UK postcode, e.g. SW1A 1AA")).toBeVisible();
    await page.getByLabel("Postcode").fill("ec1a 1bb");

    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expectToast(
      page,
      "Invoice Requested",
      "Your booking has been submitted. We'll send you an invoice shortly.",
    );
    const successUrl = `/courses/${COURSE}/success?invoice=true`;
    await expect(page).toHaveURL(successUrl);
    await expect(page.getByRole("heading", { name: "Booking Confirmed!" })).toBeVisible();
    // The buyer sees the reference to quote and what was booked.
    await expect(page.getByTestId("order-reference")).toHaveText(/^NW-[0-9A-F]{8}$/);
    await expect(page.getByTestId("order-course")).toHaveText("Introduction to Counter Fraud");
    await expect(page.getByTestId("order-places")).toHaveText("3");
    await expect(page.getByTestId("order-total")).toHaveText("£885.00 (including VAT of £147.50)");
    await expect(page.getByText("Our team will review your booking request.")).toBeVisible();

    // Anyone else opening the same URL sees the spec's page, without the order.
    const stranger = await browser.newContext();
    try {
      const other = await stranger.newPage();
      await other.goto(successUrl);
      await expect(other.getByRole("heading", { name: "Booking Confirmed!" })).toBeVisible();
      await expect(
        other.getByText("You'll receive an invoice by email within 24 hours."),
      ).toBeVisible();
      await expect(other.getByTestId("order-reference")).toHaveCount(0);
      await expect(other.getByText(/NW-[0-9A-F]{8}/)).toHaveCount(0);
      await expect(other.getByText("£885.00")).toHaveCount(0);
    } finally {
      await stranger.close();
    }
  });
});
