import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, holdScripts, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * Nothing a visitor types or chooses before the page's scripts have run is lost when React takes
 * over. Every script of the site is held back until the visitor is done, so each page stays plain
 * server HTML whatever decides when it hydrates; the visitor fills the form meanwhile (typing,
 * radios and selects only: no button is pressed before hydration), then the page hydrates and
 * every value, and everything computed from them, must still be what the visitor chose.
 */

const COURSE = "introduction-to-counter-fraud"; // £295.00, no partner, published
const CHECKOUT = `/courses/${COURSE}/checkout`;
const UNPRICED_COURSE = "/courses/insider-fraud-detection"; // no price: quote only

let run = 0;
const uniqueEmail = (who: string) => `${who}.${Date.now().toString(36)}.${++run}@example.com`;

/** Opens a page without waiting for its scripts (they may hold up DOMContentLoaded). */
async function open(page: Page, url: string) {
  const response = await page.goto(url, { waitUntil: "commit" });
  expect(response?.ok(), `GET ${url}`).toBe(true);
}

/** Neither the route modules nor React have run: what the visitor did so far was done on HTML. */
async function expectNotHydrated(page: Page) {
  const state = await page.evaluate(() => ({
    routeModules: "__reactRouterRouteModules" in window,
    hydrated: document.documentElement.hasAttribute("data-hydrated"),
  }));
  expect(state, "the page must not be hydrated yet").toEqual({
    routeModules: false,
    hydrated: false,
  });
}

/** Lets the scripts go and waits until React has hydrated the document (root sets `html[data-hydrated]`). */
async function waitForHydration(page: Page, release: () => void) {
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", {
    timeout: 45_000,
  });
}

const gbp = (pence: number) =>
  new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP" }).format(pence / 100);

test.describe("what is typed before hydration is kept", () => {
  test.describe.configure({ timeout: 180_000 });

  test("checkout: someone else, 3 students, billing; the summary and the stored order follow", async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await open(page, CHECKOUT);

    const buyerEmail = uniqueEmail("early.buyer");
    const billing = {
      "#checkout-firstName": "Ada",
      "#checkout-lastName": "Lovelace",
      "#checkout-email": buyerEmail,
      "#checkout-phone": "020 7946 0018",
      "#checkout-company": "Analytical Engines Ltd",
      "#checkout-addressLine1": "12 Babbage Street",
      "#checkout-addressLine2": "Floor 3",
      "#checkout-town": "London",
      "#checkout-postcode": "EC1A 1BB",
      "#checkout-country": "United Kingdom",
      "#checkout-poNumber": "PO-EARLY-7",
      "#checkout-vatNumber": "GB123456789",
    };
    for (const [selector, value] of Object.entries(billing)) {
      await page.locator(selector).fill(value);
    }
    await page.locator("#checkout-acceptTerms").check();
    await page.getByRole("radio", { name: /Someone else/ }).check();
    await page.getByLabel("Number of students").selectOption("3");
    const students = [
      { first: "Grace", last: "Hopper", email: uniqueEmail("early.grace") },
      { first: "Alan", last: "Turing", email: uniqueEmail("early.alan") },
      { first: "Joan", last: "Clarke", email: uniqueEmail("early.joan") },
    ];
    for (const [i, student] of students.entries()) {
      const block = page.getByRole("group", { name: `Student ${i + 1}` });
      await expect(block).toBeVisible({ timeout: 5_000 });
      await block.getByLabel("First Name").fill(student.first);
      await block.getByLabel("Last Name").fill(student.last);
      await block.getByLabel("Email").fill(student.email);
    }
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    // Hydrated and enhanced: the checkout now posts through the page's script.
    await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
    await expect(page.getByRole("radio", { name: /Someone else/ })).toBeChecked();
    await expect(page.getByRole("radio", { name: /Myself/ })).not.toBeChecked();
    await expect(page.getByLabel("Number of students")).toHaveValue("3");
    await expect(page.getByRole("group", { name: /^Student \d+$/ })).toHaveCount(3);
    for (const [i, student] of students.entries()) {
      const block = page.getByRole("group", { name: `Student ${i + 1}` });
      await expect(block.getByLabel("First Name")).toHaveValue(student.first);
      await expect(block.getByLabel("Last Name")).toHaveValue(student.last);
      await expect(block.getByLabel("Email")).toHaveValue(student.email);
    }
    for (const [selector, value] of Object.entries(billing)) {
      await expect(page.locator(selector)).toHaveValue(value);
    }
    await expect(page.locator("#checkout-acceptTerms")).toBeChecked();
    const unitText = (await page.getByTestId("unit-price").innerText()).replace(/[£,]/g, "");
    const unitPence = Math.round(Number(unitText) * 100);
    expect(unitPence).toBe(29_500);
    await expect(page.getByTestId("quantity")).toHaveText("3");
    await expect(page.getByTestId("total")).toHaveText(gbp(3 * unitPence));

    // The invoice request is taken with three places.
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(page).toHaveURL(`/courses/${COURSE}/success?invoice=true`);
    await expect(page.getByRole("heading", { name: "Booking Confirmed!" })).toBeVisible();

    await signInAsAdmin(page);
    await page.goto(`/admin/payments?q=${encodeURIComponent(buyerEmail)}`);
    const rows = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    const order = rows.first();
    await expect(order).toContainText("Manual Invoice");
    await expect(order).toContainText(gbp(3 * unitPence));
    // The students are on the order's own page.
    await order.getByRole("link", { name: /^NW-/ }).click();
    const main = page.getByRole("main");
    for (const student of students) {
      await expect(main.getByText(student.email).first()).toBeVisible();
    }
  });

  test("enquiry form: the chosen service and the message", async ({ page }) => {
    const release = await holdScripts(page);
    await open(page, "/contact");
    const form = page.locator("form#contact-form");
    const email = uniqueEmail("early.enquiry");
    await form.getByLabel("Full Name").fill("Jane Early");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Company").fill("Acme Bank");
    await form.getByLabel("Service Interest").selectOption("file-interrogator");
    await form.getByLabel("Message").fill("Typed before the page's scripts ran.");
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    await expect(form.getByLabel("Full Name")).toHaveValue("Jane Early");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(form.getByLabel("Company")).toHaveValue("Acme Bank");
    await expect(form.getByLabel("Service Interest")).toHaveValue("file-interrogator");
    await expect(form.getByLabel("Message")).toHaveValue("Typed before the page's scripts ran.");

    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
  });

  test("licence form: the four required fields enable its button once hydrated", async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await open(page, "/services/file-interrogator?licence=1");
    const form = page.locator("form#licence-form");
    const email = uniqueEmail("early.licence");
    await form.getByLabel("Full Name").fill("Lee Analyst");
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Company / Organisation").fill("City Police");
    await form.getByLabel("Number of Licences").selectOption("6-10");
    await form.getByLabel("Primary Use Case").selectOption("law-enforcement");
    await form.getByLabel("Additional Information").fill("Two analysts' laptops.");
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    await expect(form.getByLabel("Full Name")).toHaveValue("Lee Analyst");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    await expect(form.getByLabel("Company / Organisation")).toHaveValue("City Police");
    await expect(form.getByLabel("Number of Licences")).toHaveValue("6-10");
    await expect(form.getByLabel("Primary Use Case")).toHaveValue("law-enforcement");
    await expect(form.getByLabel("Additional Information")).toHaveValue("Two analysts' laptops.");
    await expect(form.getByRole("button", { name: "Request Licence Quote" })).toBeEnabled();
  });

  test("licence form: with a required field left empty its button is disabled once hydrated", async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await open(page, "/services/file-interrogator?licence=1");
    const form = page.locator("form#licence-form");
    await form.getByLabel("Full Name").fill("Lee Analyst");
    await form.getByLabel("Email").fill(uniqueEmail("early.licence.partial"));
    await form.getByLabel("Company / Organisation").fill("City Police");
    await expectNotHydrated(page);
    // Before hydration the button works (the server checks the fields).
    await expect(form.getByRole("button", { name: "Request Licence Quote" })).toBeEnabled();

    await waitForHydration(page, release);
    const submit = form.getByRole("button", { name: "Request Licence Quote" });
    await expect(submit).toBeDisabled();
    await form.getByLabel("Number of Licences").selectOption("1");
    await expect(submit).toBeEnabled();
  });

  test("course quote form: face-to-face chosen over the online default, with attendees", async ({
    page,
  }) => {
    // The dialog opens only with scripts; before them its form is in the page (`?quote=`).
    const release = await holdScripts(page);
    await open(page, `${UNPRICED_COURSE}?quote=online`);
    const form = page.getByRole("form", { name: /^Enquiry about / });
    const email = uniqueEmail("early.quote");
    await expect(form.getByLabel("Online")).toBeChecked();
    await form.getByLabel("Face-to-face (classroom)").check();
    await form.getByLabel("Full Name").fill("Sam Trainer");
    await form.getByLabel("Email").fill(email);
    await form.locator('input[name="attendees"]').fill("12");
    await form.locator('input[name="budget"]').fill("£6,000");
    await form.locator('textarea[name="message"]').fill("Two days at our Leeds office.");
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    await expect(form.getByLabel("Face-to-face (classroom)")).toBeChecked();
    await expect(form.getByLabel("Online")).not.toBeChecked();
    await expect(form.getByLabel("Full Name")).toHaveValue("Sam Trainer");
    await expect(form.getByLabel("Email")).toHaveValue(email);
    // The hydrated form shows what face-to-face asks for, filled as typed.
    await expect(form.getByLabel("Number of Attendees")).toHaveValue("12");
    await expect(form.getByLabel("Budget (optional)")).toHaveValue("£6,000");
    await expect(form.getByLabel("Training Requirements")).toHaveValue(
      "Two days at our Leeds office.",
    );

    await form.getByRole("button", { name: "Submit Inquiry" }).click();
    await expectToast(
      page,
      "Inquiry Submitted",
      "Thank you for your interest! We'll get back to you with a custom quote for your face-to-face training.",
    );
  });

  test("newsletter: the e-mail address", async ({ page }) => {
    const release = await holdScripts(page);
    await open(page, "/about");
    const form = page.locator("form#newsletter-form");
    const email = uniqueEmail("early.news");
    await form.getByLabel("Email address").fill(email);
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    await expect(form.getByLabel("Email address")).toHaveValue(email);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expectToast(
      page,
      "Successfully Subscribed!",
      "Thank you for subscribing to our newsletter",
    );
    await expect(form.getByLabel("Email address")).toHaveValue("");
  });

  test("course catalogue: the filter chosen before hydration is kept and applied", async ({
    page,
  }) => {
    const release = await holdScripts(page);
    await open(page, "/services/counter-fraud-training");
    const filter = page.getByRole("group", { name: "Filter courses" });
    await filter.getByRole("radio", { name: "NightWatch Exclusive" }).check();
    await expectNotHydrated(page);

    await waitForHydration(page, release);
    await expect(filter.getByRole("radio", { name: "NightWatch Exclusive" })).toBeChecked();
    await expect(page).toHaveURL(/\?partner=exclusive$/);
    // Partner courses are gone from the list; the provider's own remain.
    const list = page.getByRole("region", { name: "Available courses" }).getByRole("listitem");
    await expect(list.filter({ hasText: "Cifas Fraud Prevention Essentials" })).toHaveCount(0);
    await expect(list.filter({ hasText: "OSINT Investigations Masterclass" })).toHaveCount(1);
  });
});
