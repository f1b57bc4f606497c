import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";
import {
  CHECKOUT,
  COURSE,
  fakeStripe,
  fillStudent,
  uniqueEmail,
} from "#tests/support/checkout-page.ts";

/**
 * The checkout page without JavaScript: errors in the page, the student blocks redrawn as the
 * booking changes, and 'Pay with Card' answering with a redirect to the fake Stripe page.
 */

test.describe("checkout without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("errors are shown in the page; the student list is redrawn on 'Update'", async ({
    page,
  }) => {
    await page.goto(CHECKOUT);
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    const summary = page.getByRole("alert").first();
    await expect(summary).toContainText("Missing Information");
    await expect(summary).toContainText("Please fill in all required billing information");
    // Without JavaScript too, each missing field is marked next to it.
    await expect(page.getByLabel("First Name").first()).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter an email address")).toBeVisible();

    await page.getByLabel("First Name").first().fill("Ada");
    await page.getByLabel("Last Name").first().fill("Lovelace");
    await page.getByLabel("Email").first().fill(uniqueEmail("nojs"));
    await fillCheckoutAddress(page);
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("2");
    await page.getByRole("button", { name: "Update student details" }).click();
    await expect(page.getByRole("group", { name: /Student \d/ })).toHaveCount(2);
    // What was typed survives the round trip.
    await expect(page.getByLabel("First Name").first()).toHaveValue("Ada");

    await fillStudent(page, 1, "Grace", "grace@example.com");
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(page.getByRole("alert").first()).toContainText(
      "Please fill in all details for student 2",
    );
    await fillStudent(page, 2, "Alan", "alan@example.com");
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true#main`);
    await expect(page.getByRole("heading", { name: "Booking Confirmed!" })).toBeVisible();
  });

  test("the student blocks follow who the booking is for and how many, as they are chosen", async ({
    page,
  }) => {
    await page.goto(CHECKOUT);
    const blocks = page.getByRole("group", { name: /^Student \d+$/ });
    await expect(blocks).toHaveCount(0);
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await expect(blocks).toHaveCount(1);
    await page.getByLabel("Number of students").selectOption("3");
    await expect(blocks).toHaveCount(3);
    await page.getByLabel("Number of students").selectOption("2");
    await expect(blocks).toHaveCount(2);
    await page.getByRole("radio", { name: /Myself/ }).check();
    await expect(blocks).toHaveCount(0);

    // Posted straight away, without 'Update': the hidden blocks are not asked for.
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.locator("#checkout-firstName").fill("Ada");
    await page.locator("#checkout-lastName").fill("Lovelace");
    await page.locator("#checkout-email").fill(uniqueEmail("nojs-live"));
    await fillCheckoutAddress(page);
    await fillStudent(page, 1, "Grace", "grace@example.com");
    await fillStudent(page, 2, "Alan", "alan@example.com");
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true#main`);
  });

  test("'Pay with Card' answers with a 303 to the Stripe page", async ({ request }) => {
    const response = await request.post(CHECKOUT, {
      form: {
        intent: "card",
        firstName: "Ada",
        lastName: "Lovelace",
        email: uniqueEmail("nojs-card"),
        ...BILLING_FORM,
        studentMode: "self",
        // Ignored: the amount always comes from the database.
        price: "0.01",
      },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    const location = response.headers().location ?? "";
    expect(location).toMatch(new RegExp(`^${fakeStripe()}/pay/cs_test_`));
    const stripePage = await (await request.get(location)).text();
    expect(stripePage).toContain("Total: <strong>£295.00</strong>");
  });
});
