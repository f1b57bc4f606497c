import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { londonDate } from "#app/lib/admin-time.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { expectToast, fillCheckoutAddress, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * Checkout in Chromium (issue 5): invoice and card flows end to end, cancel, self vs someone
 * else, every validation message, and the page without JavaScript. Card payments go to the fake
 * Stripe the Playwright config starts (tests/support/fake-stripe.ts); it "pays", sends the
 * signed webhook back and returns the browser to the success page. The web server runs without
 * SMTP, so each e-mail lands as an .eml file under DATA_DIR/outbox: a receipt there means the
 * order's paid transition committed.
 */

const port = Number(process.env.E2E_PORT ?? 4317);
const fakeStripe = `http://127.0.0.1:${Number(process.env.FAKE_STRIPE_PORT ?? port + 1000)}`;
const outboxDir = path.resolve(`test-results/e2e-data-${port}/outbox`);

const COURSE = "introduction-to-counter-fraud"; // £295.00, no partner, published
const CHECKOUT = `/courses/${COURSE}/checkout`;

let run = 0;
/** A buyer address no other test uses, so its e-mails can be told apart. */
const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++run}@example.com`;

/** The kinds of the outbox messages sent to `address` (header 'X-NightWatch-Kind'). */
function mailKindsTo(address: string): string[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  const kinds: string[] = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outboxDir, file), "utf8");
    const head = raw.slice(0, raw.indexOf("\n\n"));
    const to = /^To: (.*)$/im.exec(head)?.[1] ?? "";
    if (!to.toLowerCase().includes(address.toLowerCase())) continue;
    kinds.push(/^X-NightWatch-Kind: (.*)$/im.exec(head)?.[1]?.trim() ?? "?");
  }
  return kinds.sort();
}

/** The buyer, the billing address and the terms ticked: what every booking needs. */
async function fillBilling(page: Page, email: string) {
  await page.getByLabel("First Name").first().fill("Ada");
  await page.getByLabel("Last Name").first().fill("Lovelace");
  await page.getByLabel("Email").first().fill(email);
  await fillCheckoutAddress(page);
}

async function fillStudent(page: Page, n: number, first: string, email: string) {
  const block = page.getByRole("group", { name: `Student ${n}` });
  await block.getByLabel("First Name").fill(first);
  await block.getByLabel("Last Name").fill("Smith");
  await block.getByLabel("Email").fill(email);
}

async function openCheckout(page: Page) {
  await page.goto(CHECKOUT);
  // Hydrated: the client-side checks and the toasts work from here on.
  await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
}

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
    const failed = await page.request.post(`${fakeStripe}/__fake/fail-next-create?status=400`);
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
      new RegExp(`^${fakeStripe}/pay/cs_test_`),
    );

    await stripeTab.waitForLoadState();
    expect(stripeTab.url()).toMatch(new RegExp(`^${fakeStripe}/pay/cs_test_`));
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
    expect(location).toMatch(new RegExp(`^${fakeStripe}/pay/cs_test_`));
    const stripePage = await (await request.get(location)).text();
    expect(stripePage).toContain("Total: <strong>£295.00</strong>");
  });
});

/** An order placed without a browser (the no-JS posts), for the admin screen to show. */
async function placeOrder(
  request: APIRequestContext,
  intent: "invoice" | "card",
  buyer: { firstName: string; email: string; company?: string },
  students: { firstName: string; email: string }[] = [],
): Promise<string> {
  const form: Record<string, string> = {
    intent,
    firstName: buyer.firstName,
    lastName: "Buyer",
    email: buyer.email,
    ...BILLING_FORM,
    company: buyer.company ?? "Buyer Ltd",
    studentMode: students.length ? "others" : "self",
    quantity: String(Math.max(1, students.length)),
  };
  students.forEach((s, i) => {
    form[`students[${i}].firstName`] = s.firstName;
    form[`students[${i}].lastName`] = "Student";
    form[`students[${i}].email`] = s.email;
  });
  const response = await request.post(CHECKOUT, { form, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  return response.headers().location ?? "";
}

test.describe("admin Payments screen", () => {
  test("stats, search, filters, students, allowed actions only, toasts, CSV", async ({
    page,
    request,
  }) => {
    const tag = `pay${Date.now().toString(36)}`;
    const invoiceBuyer = {
      firstName: `Ivy${tag}`,
      email: `ivy.${tag}@example.com`,
      company: `Ivy ${tag} Ltd`,
    };
    const cardBuyer = { firstName: `Carl${tag}`, email: `carl.${tag}@example.com` };
    await placeOrder(request, "invoice", invoiceBuyer, [
      { firstName: "Grace", email: `grace.${tag}@example.com` },
      { firstName: "Alan", email: `alan.${tag}@example.com` },
    ]);
    // A card order paid through the fake Stripe page (its webhook and the success page race).
    const stripePage = await placeOrder(request, "card", cardBuyer);
    const paid = await request.post(stripePage, { maxRedirects: 0 });
    expect(paid.status()).toBe(303);
    const success = await (await request.get(paid.headers().location!)).text();
    // Streamed: the 'Verifying payment...' fallback first, then the verified outcome.
    expect(success).toContain("Verifying payment...");
    expect(success).toContain("Payment Successful!");
    expect(success.indexOf("Verifying payment...")).toBeLessThan(
      success.indexOf("Payment Successful!"),
    );

    await signInAsAdmin(page);
    await page.goto("/admin/payments");
    await expect(page.getByRole("heading", { name: "Manage Payments" })).toBeVisible();
    for (const label of ["Total Orders", "Pending", "Invoiced", "Paid", "Revenue"]) {
      await expect(page.getByRole("heading", { name: label, exact: true })).toBeVisible();
    }
    const revenueBefore = await page
      .getByRole("heading", { name: "Revenue", exact: true })
      .locator("xpath=../..")
      .locator("p")
      .innerText();
    expect(revenueBefore).toMatch(/^£[\d,]+\.\d\d$/);

    // Search (in the URL, so the view can be linked and reloaded).
    const search = page.getByPlaceholder("Search by name, email, course, or company...");
    await search.fill(tag);
    await search.press("Enter");
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
    const rows = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
    await expect(rows).toHaveCount(2);
    for (const head of ["Order", "Customer", "Course", "Amount", "Status", "Actions"]) {
      await expect(page.getByRole("columnheader", { name: head })).toBeVisible();
    }

    const cardRow = rows.filter({ hasText: cardBuyer.email });
    await expect(cardRow).toContainText("Card Payment");
    await expect(cardRow).toContainText("Paid");
    await expect(cardRow).toContainText("Buyer attends");
    await expect(cardRow.getByRole("button")).toHaveCount(0); // paid: no actions

    const invoiceRow = rows.filter({ hasText: invoiceBuyer.email });
    await expect(invoiceRow).toContainText("Manual Invoice");
    await expect(invoiceRow).toContainText("£590.00");
    await expect(invoiceRow).toContainText("2 students");
    await expect(invoiceRow.getByRole("button", { name: /^Mark Paid/ })).toHaveCount(0);

    // Each change asks first (the order page and its own spec cover the dialogs' texts).
    const confirm = page.getByRole("alertdialog");
    await invoiceRow.getByRole("button", { name: /^Mark Invoiced/ }).click();
    await confirm.getByRole("button", { name: "Issue and Send Invoice" }).click();
    await expectToast(page, "Status Updated", "Order status changed to invoiced");
    await expect(invoiceRow).toContainText("Invoiced");
    await expect(invoiceRow.getByRole("button", { name: /^Mark Invoiced/ })).toHaveCount(0);

    await invoiceRow.getByRole("button", { name: /^Mark Paid/ }).click();
    await expect(confirm).toContainText(`grace.${tag}@example.com`);
    await confirm.getByRole("button", { name: "Mark Paid and Send" }).click();
    await expectToast(page, "Status Updated", "Order status changed to paid");
    await expect(invoiceRow.getByRole("button")).toHaveCount(0);
    // The invoice followed 'Mark Invoiced'; the receipt and joining details follow 'Mark Paid'.
    await expect
      .poll(() => mailKindsTo(invoiceBuyer.email), { timeout: 15_000 })
      .toEqual(["invoice_issued", "invoice_request_confirmation", "order_receipt"]);

    // The server refuses what the screen does not offer.
    const orderId = await invoiceRow.getAttribute("data-order-id");
    const refused = await page.request.post("/admin/payments", {
      form: { intent: "status", orderId: orderId!, status: "canceled" },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(refused.status()).toBe(409);

    // Filters by status and method; nothing found.
    await page.goto(`/admin/payments?q=${tag}&status=paid&method=invoice`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(invoiceBuyer.email);
    await page.getByLabel("Method").selectOption({ label: "Card Payment" });
    await expect(page).toHaveURL(/method=stripe/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(cardBuyer.email);
    await page.goto(`/admin/payments?q=${tag}&status=canceled`);
    await expect(page.getByText("No orders found.")).toBeVisible();

    // Refresh reloads the data in place.
    await page.goto(`/admin/payments?q=${tag}`);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(rows).toHaveCount(2);

    // CSV of the current filters.
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`orders-${londonDate()}.csv`);
    const csv = readFileSync((await file.path())!, "utf8");
    const lines = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Reference,Order ID,/);
    expect(csv).toContain(invoiceBuyer.email);
    expect(csv).toContain(cardBuyer.email);
  });
});
