import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast } from "#tests/support/e2e-fixtures.ts";
import {
  CHECKOUT,
  COURSE,
  fakeStripe,
  fillBilling,
  fillStudent,
  mailKindsTo,
  openCheckout,
  uniqueEmail,
} from "#tests/support/checkout-page.ts";

/**
 * Checkout in Chromium (decision 0005): invoice and card flows end to end, cancel, self vs someone
 * else, every validation message, and a forged webhook. Card payments go to the fake Stripe the
 * Playwright config starts (tests/support/fake-stripe.ts); it "pays", sends the signed webhook back
 * and returns the browser to the success page. The web server runs without SMTP, so each e-mail
 * lands as an .eml file under DATA_DIR/outbox: a receipt there means the order's paid transition
 * committed.
 */

test.describe("checkout page", () => {
  test("is reached from the course page and shows the booking summary", async ({ page }) => {
    await page.goto(`/courses/${COURSE}`);
    await page.getByRole("link", { name: "Book an Online Course" }).click();
    await expect(page).toHaveURL(CHECKOUT);
    await expect(page.getByRole("heading", { name: "Checkout", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Course" })).toHaveAttribute(
      "href",
      `/courses/${COURSE}`,
    );
    await expect(page.getByRole("heading", { name: "Billing Information" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Student Information" })).toBeVisible();
    const summary = page
      .getByRole("heading", { name: "Booking Summary" })
      .locator("..")
      .locator("..");
    await expect(summary.getByText("Introduction to Counter Fraud")).toBeVisible();
    await expect(summary.getByText("7 hours")).toBeVisible();
    await expect(page.getByTestId("unit-price")).toHaveText("£295.00");
    await expect(page.getByTestId("quantity")).toHaveText("1");
    await expect(page.getByTestId("total")).toHaveText("£295.00");
    await expect(page.getByRole("button", { name: "Pay with Card" })).toBeEnabled();
    await expect(page.getByRole("button", { name: "Request Manual Invoice" })).toBeEnabled();
  });

  test("self vs someone else: switching to self resets quantity and clears students", async ({
    page,
  }) => {
    await openCheckout(page);
    await expect(page.getByRole("radio", { name: /Myself/ })).toBeChecked();
    await expect(page.getByRole("group", { name: /Student \d/ })).toHaveCount(0);
    await expect(page.getByLabel("Number of students")).toHaveCount(0);

    await page.getByRole("radio", { name: /Someone else/ }).check();
    await expect(page.getByRole("group", { name: "Student 1" })).toBeVisible();
    await page.getByLabel("Number of students").selectOption("3");
    await expect(page.getByRole("group", { name: /Student \d/ })).toHaveCount(3);
    await expect(page.getByTestId("quantity")).toHaveText("3");
    await expect(page.getByTestId("total")).toHaveText("£885.00");
    await fillStudent(page, 1, "Grace", "grace@example.com");

    await page.getByRole("radio", { name: /Myself/ }).check();
    await expect(page.getByRole("group", { name: /Student \d/ })).toHaveCount(0);
    await expect(page.getByTestId("quantity")).toHaveText("1");
    await expect(page.getByTestId("total")).toHaveText("£295.00");

    // Back to someone else: one empty block, the earlier entries are gone.
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await expect(page.getByRole("group", { name: /Student \d/ })).toHaveCount(1);
    await expect(page.getByLabel("Number of students")).toHaveValue("1");
    await expect(
      page.getByRole("group", { name: "Student 1" }).getByLabel("First Name"),
    ).toHaveValue("");
    // At most ten students.
    const options = await page.getByLabel("Number of students").locator("option").allTextContents();
    expect(options).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
  });

  test("each validation message", async ({ page }) => {
    await openCheckout(page);
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expectToast(
      page,
      "Missing Information",
      "Please fill in all required billing information",
    );

    await fillBilling(page, uniqueEmail("validation"));
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("2");
    await fillStudent(page, 1, "Grace", "grace@example.com");
    await page.getByRole("group", { name: "Student 2" }).getByLabel("First Name").fill("Alan");
    await page.getByRole("button", { name: "Pay with Card" }).click();
    await expectToast(
      page,
      "Missing Student Information",
      "Please fill in all details for student 2",
    );

    // Stripe refuses the session: 'Payment Error', and no tab is opened.
    await fillStudent(page, 2, "Alan", "alan@example.com");
    const failed = await page.request.post(`${fakeStripe()}/__fake/fail-next-create?status=400`);
    expect(failed.ok()).toBe(true);
    await page.getByRole("button", { name: "Pay with Card" }).click();
    await expectToast(
      page,
      "Payment Error",
      "There was an error processing your request. Please try again.",
    );
    await expect(page.getByText("Secure payment opened in a new tab")).toHaveCount(0);
  });

  test("invoice flow end to end", async ({ page }) => {
    const email = uniqueEmail("invoice");
    await openCheckout(page);
    await fillBilling(page, email);
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("2");
    const grace = uniqueEmail("grace");
    const alan = uniqueEmail("alan");
    await fillStudent(page, 1, "Grace", grace);
    await fillStudent(page, 2, "Alan", alan);
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();

    await expectToast(
      page,
      "Invoice Requested",
      "Your booking has been submitted. We'll send you an invoice shortly.",
    );
    await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true`);
    await expect(page.getByRole("heading", { name: "Booking Confirmed!" })).toBeVisible();
    const steps = page.getByRole("listitem").filter({ hasText: /review|invoice|access|Joining/ });
    await expect(page.getByText("Our team will review your booking request.")).toBeVisible();
    await expect(
      page.getByText("You'll receive an invoice by email within 24 hours."),
    ).toBeVisible();
    await expect(
      page.getByText("Course access will be provided once payment is received."),
    ).toBeVisible();
    await expect(
      page.getByText("Joining instructions will be sent to each student."),
    ).toBeVisible();
    expect(await steps.count()).toBeGreaterThanOrEqual(4);
    await expect(page.getByRole("link", { name: "View More Courses" })).toHaveAttribute(
      "href",
      "/services/counter-fraud-training",
    );
    await expect(page.getByRole("link", { name: "Back to Course" })).toHaveAttribute(
      "href",
      `/courses/${COURSE}`,
    );

    // The buyer's confirmation is queued with the order; nobody is sent a receipt yet.
    await expect
      .poll(() => mailKindsTo(email), { timeout: 15_000 })
      .toEqual(["invoice_request_confirmation"]);
    expect(mailKindsTo(grace)).toEqual([]);
  });

  test("card flow: the fake Stripe page opens in a new tab, pays, and the order is paid", async ({
    page,
    context,
    browser,
  }) => {
    const email = uniqueEmail("card");
    const student = uniqueEmail("student");
    await openCheckout(page);
    await fillBilling(page, email);
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("2");
    const student2 = uniqueEmail("student2");
    await fillStudent(page, 1, "Grace", student);
    await fillStudent(page, 2, "Alan", student2);
    await expect(page.getByTestId("total")).toHaveText("£590.00");

    const [stripeTab] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("button", { name: "Pay with Card" }).click(),
    ]);
    await expect(page.getByText("Secure payment opened in a new tab")).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue to payment" })).toHaveAttribute(
      "href",
      new RegExp(`^${fakeStripe()}/pay/cs_test_`),
    );

    await stripeTab.waitForLoadState();
    expect(stripeTab.url()).toMatch(new RegExp(`^${fakeStripe()}/pay/cs_test_`));
    await expect(stripeTab.getByText("Introduction to Counter Fraud × 2")).toBeVisible();
    await expect(stripeTab.getByText(`Email: ${email}`)).toBeVisible();
    await stripeTab.getByRole("button", { name: "Pay £590.00" }).click();

    await expect(stripeTab).toHaveURL(
      new RegExp(`/courses/${COURSE}/success\\?session_id=cs_test_`),
    );
    await expect(stripeTab.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    // In the page's main region: while the verification streams in, React may hold a hidden
    // copy of the settled answer elsewhere in the document for a moment.
    const paidMain = stripeTab.getByRole("main");
    await expect(
      paidMain.getByText("You will receive a confirmation email shortly."),
    ).toBeVisible();
    await expect(
      paidMain.getByText("Course access details will be sent within 24 hours."),
    ).toBeVisible();
    await expect(
      paidMain.getByText("Please check your spam folder if you don't see our email."),
    ).toBeVisible();
    await expect(paidMain.getByText(/^NW-[0-9A-F]{8}$/)).toBeVisible();
    await expect(paidMain.getByTestId("order-places")).toHaveText("2");
    await expect(paidMain.getByTestId("order-total")).toHaveText(
      "£590.00 (including VAT of £98.33)",
    );
    // The same return URL in another browser: verified, but no order shown.
    const stranger = await browser.newContext();
    try {
      const other = await stranger.newPage();
      await other.goto(stripeTab.url());
      await expect(other.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
      await expect(other.getByText(/NW-[0-9A-F]{8}/)).toHaveCount(0);
      await expect(other.getByTestId("order-total")).toHaveCount(0);
    } finally {
      await stranger.close();
    }

    // Paid in the database: the receipt and the joining details were queued by the paid
    // transition — once, although the webhook and the success page both confirmed it.
    await expect.poll(() => mailKindsTo(email), { timeout: 15_000 }).toEqual(["order_receipt"]);
    await expect
      .poll(() => mailKindsTo(student), { timeout: 15_000 })
      .toEqual(["course_joining_details"]);
    expect(mailKindsTo(student2)).toEqual(["course_joining_details"]);

    // Reloading the success page verifies again and changes nothing.
    await stripeTab.reload();
    await expect(stripeTab.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
    await stripeTab.waitForTimeout(500);
    expect(mailKindsTo(email)).toEqual(["order_receipt"]);
  });

  test("cancel flow: back from Stripe to 'Payment Canceled', then try again", async ({
    page,
    context,
  }) => {
    await openCheckout(page);
    await fillBilling(page, uniqueEmail("cancel"));
    const [stripeTab] = await Promise.all([
      context.waitForEvent("page"),
      page.getByRole("button", { name: "Pay with Card" }).click(),
    ]);
    await stripeTab.getByRole("link", { name: "Cancel and return" }).click();
    await expect(stripeTab).toHaveURL(`/courses/${COURSE}/canceled`);
    await expect(stripeTab.getByRole("heading", { name: "Payment Canceled" })).toBeVisible();
    await expect(stripeTab.getByText(/No charges were made/)).toBeVisible();
    await expect(stripeTab.getByRole("link", { name: "Back to Course" })).toHaveAttribute(
      "href",
      `/courses/${COURSE}`,
    );
    await stripeTab.getByRole("link", { name: "Try Again" }).click();
    await expect(stripeTab).toHaveURL(CHECKOUT);
    await expect(stripeTab.getByRole("button", { name: "Pay with Card" })).toBeVisible();
  });

  test("a forged webhook is refused", async ({ request }) => {
    const response = await request.post("/api/stripe/webhook", {
      headers: { "stripe-signature": "t=1,v1=forged", "content-type": "application/json" },
      data: { id: "evt_forged", type: "checkout.session.completed", data: { object: {} } },
    });
    expect(response.status()).toBe(400);
  });
});
