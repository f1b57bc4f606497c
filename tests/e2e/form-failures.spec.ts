import { expect, type Page, type Route } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";

/**
 * When a form's post gets no answer from the site — the connection drops, or a proxy in front
 * answers 502 with its own HTML page — the page stays as it was: the form shows its usual error
 * toast and everything typed is still there. Never the whole-page "Something went wrong".
 * Also: the checkout marks each missing field next to it and moves focus to the first.
 */

type Failure = "abort" | "502";

/** Makes the next POST fail the given way (the browser-side checks have passed by then). */
async function failNextPost(page: Page, how: Failure) {
  let done = false;
  await page.route("**/*", async (route: Route) => {
    if (done || route.request().method() !== "POST") return route.fallback();
    done = true;
    if (how === "abort") return route.abort("connectionreset");
    return route.fulfill({
      status: 502,
      contentType: "text/html",
      body: "<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>",
    });
  });
}

async function expectNoErrorPage(page: Page) {
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /Bad Gateway/ })).toHaveCount(0);
}

for (const how of ["abort", "502"] as const) {
  test.describe(`a post that gets no answer (${how})`, () => {
    test("enquiry: 'Error sending message', everything typed kept", async ({ page }) => {
      await page.goto("/contact");
      const form = page.locator("form#contact-form");
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      await form.getByLabel("Full Name").fill("Nora Network");
      await form.getByLabel("Email").fill("nora@example.com");
      await form.getByLabel("Company").fill("Dropped Connections Ltd");
      await form.getByLabel("Phone").fill("Mobile: 07700 900123");
      await form.getByLabel("Message").fill("Please call me back about monitoring.");
      await failNextPost(page, how);
      await form.getByRole("button", { name: "Send Message" }).click();
      await expectToast(page, "Error sending message", "Please try again later.");
      await expectNoErrorPage(page);
      await expect(form.getByLabel("Full Name")).toHaveValue("Nora Network");
      await expect(form.getByLabel("Company")).toHaveValue("Dropped Connections Ltd");
      await expect(form.getByLabel("Phone")).toHaveValue("Mobile: 07700 900123");
      await expect(form.getByLabel("Message")).toHaveValue("Please call me back about monitoring.");
      // The form is usable again: the next post goes through.
      await form.getByRole("button", { name: "Send Message" }).click();
      await expectToast(
        page,
        "Message sent successfully!",
        "We'll get back to you within 24 hours.",
      );
    });

    test("newsletter: 'Subscription Failed', the address kept", async ({ page }) => {
      await page.goto("/about");
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const form = page.getByRole("form", { name: "Newsletter sign-up" });
      await form.getByLabel("Email address").fill(`kept-${how}-${Date.now()}@example.com`);
      await failNextPost(page, how);
      await form.getByRole("button", { name: "Subscribe" }).click();
      await expectToast(
        page,
        "Subscription Failed",
        "There was an error subscribing to our newsletter. Please try again.",
      );
      await expectNoErrorPage(page);
      await expect(form.getByLabel("Email address")).toHaveValue(/^kept-/);
    });

    test("checkout: 'Payment Error', billing and students kept", async ({ page }) => {
      await page.goto("/courses/introduction-to-counter-fraud/checkout");
      await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
      await page.getByLabel("First Name").first().fill("Ada");
      await page.getByLabel("Last Name").first().fill("Lovelace");
      await page.getByLabel("Email").first().fill("ada@example.com");
      await fillCheckoutAddress(page);
      await page.getByLabel("Someone else").check();
      await page.getByLabel("Number of students").selectOption("2");
      for (const n of [1, 2]) {
        const block = page.getByRole("group", { name: `Student ${n}` });
        await block.getByLabel("First Name").fill(`Student${n}`);
        await block.getByLabel("Last Name").fill("Smith");
        await block.getByLabel("Email").fill(`student${n}@example.com`);
      }
      await failNextPost(page, how);
      await page.getByRole("button", { name: "Request Manual Invoice" }).click();
      await expectToast(
        page,
        "Payment Error",
        "There was an error processing your request. Please try again.",
      );
      await expectNoErrorPage(page);
      await expect(page).toHaveURL(/\/checkout$/);
      await expect(page.getByLabel("First Name").first()).toHaveValue("Ada");
      await expect(page.getByRole("group", { name: "Student 2" }).getByLabel("Email")).toHaveValue(
        "student2@example.com",
      );
      await expect(page.getByTestId("total")).toHaveText("£590.00");
    });
  });
}

test.describe("checkout field errors", () => {
  test("each missing field is marked next to it, focus moves to the first, the spec's toast", async ({
    page,
  }) => {
    await page.goto("/courses/introduction-to-counter-fraud/checkout");
    await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST") posts++;
    });
    await page.getByLabel("Email").first().fill("not-an-address");
    await page.getByLabel("Someone else").check();
    await page.getByLabel("Number of students").selectOption("2");
    await page.getByRole("group", { name: "Student 2" }).getByLabel("First Name").fill("Alan");
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();

    await expectToast(
      page,
      "Missing Information",
      "Please fill in all required billing information",
    );
    const first = page.getByLabel("First Name").first();
    await expect(first).toBeFocused();
    await expect(first).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Last Name").first()).toHaveAttribute("aria-invalid", "true");
    // The billing address (an invoice needs one) and the terms too; the optional fields, the
    // organisation among them, are not marked.
    for (const label of ["Address Line 1", "Town or City", "Postcode"]) {
      await expect(page.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
    }
    await expect(page.getByRole("checkbox", { name: /I accept the terms/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    for (const label of ["Organisation", "Address Line 2", "PO Number", "VAT Number", "Phone"]) {
      await expect(page.getByLabel(label)).not.toHaveAttribute("aria-invalid", "true");
    }
    const email = page.getByLabel("Email").first();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter a valid email address").first()).toBeVisible();
    // The message is the field's description for assistive technology.
    const describedBy = await email.getAttribute("aria-describedby");
    expect(describedBy).toBeTruthy();
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(
      "Please enter a valid email address",
    );
    // Student 2's first name was given; its other fields and all of student 1's are marked.
    const student2 = page.getByRole("group", { name: "Student 2" });
    await expect(student2.getByLabel("First Name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(student2.getByLabel("Last Name")).toHaveAttribute("aria-invalid", "true");
    const student1 = page.getByRole("group", { name: "Student 1" });
    await expect(student1.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    expect(posts).toBe(0);

    // Editing a field clears its mark.
    await first.fill("Ada");
    await expect(first).not.toHaveAttribute("aria-invalid", "true");
  });

  test("the server's field messages are shown the same way (browser check bypassed)", async ({
    page,
  }) => {
    await page.goto("/courses/introduction-to-counter-fraud/checkout");
    await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
    await page.getByLabel("First Name").first().fill("Ada");
    await page.getByLabel("Last Name").first().fill("Lovelace");
    await page.getByLabel("Email").first().fill("ada@example.com");
    await fillCheckoutAddress(page);
    // Rewritten on its way: the server finds the billing e-mail invalid.
    let done = false;
    await page.route("**/*", async (route) => {
      if (done || route.request().method() !== "POST") return route.fallback();
      done = true;
      const body = new URLSearchParams(route.request().postData() ?? "");
      body.set("email", "broken-on-the-way");
      await route.continue({ postData: body.toString() });
    });
    await page.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expectToast(page, "Missing Information", "Please enter a valid billing email address");
    const email = page.getByLabel("Email").first();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toBeFocused();
    await expect(page.getByLabel("First Name").first()).toHaveValue("Ada");
  });
});
