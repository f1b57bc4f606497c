import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * Issue 17's erasure request, end to end: a visitor sends an enquiry and books a place by invoice
 * with one address; the admin finds both on Data Requests, exports them as JSON, and erases them
 * through the confirmation. The inquiry is gone; the order stays, anonymised, with its total.
 */

const COURSE = "introduction-to-counter-fraud"; // £295.00, no partner, published

test("an erasure request removes the visitor's inquiry and anonymises their order, keeping its total", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const email = `pat.person.${stamp}@example.com`;

  // The enquiry, through the contact form.
  await page.goto("/contact");
  const contact = page.locator("form#contact-form");
  await contact.getByLabel("Full Name").fill("Pat Person");
  await contact.getByLabel("Email").fill(email);
  await contact.getByLabel("Message").fill("Please tell me about your monitoring service.");
  await contact.getByRole("button", { name: "Send Message" }).click();
  await expect(
    page
      .getByRole("region", { name: /Notifications/ })
      .getByText("Message sent successfully!", { exact: true }),
  ).toBeVisible();

  // The booking by invoice (posted as without JavaScript), one place for the buyer.
  const form: Record<string, string> = {
    intent: "invoice",
    firstName: "Pat",
    lastName: "Person",
    email,
    phone: "+44 20 7946 0000",
    ...BILLING_FORM,
    company: `Person ${stamp} Ltd`,
    studentMode: "others",
    quantity: "1",
    "students[0].firstName": "Pat",
    "students[0].lastName": "Person",
    "students[0].email": email,
  };
  const booked = await request.post(`/courses/${COURSE}/checkout`, { form });
  expect(booked.ok()).toBe(true);
  const reference = /data-testid="order-reference"[^>]*>(NW-[0-9A-F]{8})</.exec(
    await booked.text(),
  )?.[1];
  expect(reference).toMatch(/^NW-[0-9A-F]{8}$/);

  // The admin searches the address (typed in capitals: matching ignores case).
  await signInAsAdmin(page);
  await page.goto("/admin/privacy");
  const main = page.getByRole("main");
  await main.getByLabel("E-mail address").fill(email.toUpperCase());
  await main.getByRole("button", { name: "Find" }).click();
  await expect(main.getByRole("heading", { name: `Held about ${email}` })).toBeVisible();
  await expect(main.getByRole("table", { name: /^Inquiries \(1\)/ })).toBeVisible();
  const orders = main.getByRole("table", { name: /^Orders as buyer \(1\)/ });
  await expect(orders.getByRole("link", { name: reference! })).toBeVisible();

  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations).toEqual([]);

  // The JSON export holds both.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    main.getByRole("link", { name: "Export JSON" }).click(),
  ]);
  const exported = JSON.parse(readFileSync((await download.path())!, "utf8")) as {
    email: string;
    inquiries: { message: string }[];
    orders: { id: string; reference: string; totalAmountCents: number }[];
  };
  expect(exported.email).toBe(email);
  expect(exported.inquiries.map((i) => i.message)).toEqual([
    "Please tell me about your monitoring service.",
  ]);
  expect(exported.orders.map((o) => o.reference)).toEqual([reference]);
  const orderId = exported.orders[0]!.id;

  // Erase, through the one confirmation that says what will happen.
  await main.getByRole("button", { name: "Erase" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(
    /Delete 1 inquiry; anonymise 1 order and 1 student record \(amounts, dates and invoice numbers are kept for 6 years, as UK tax law requires\); delete \d+ stored e-mails?\./,
  );
  // The open question is accessible too.
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await dialog.getByRole("button", { name: "Erase" }).click();
  await expect(
    page
      .getByRole("region", { name: /Notifications/ })
      .getByText(/^Deleted 1 inquiry; anonymised 1 order and 1 student record/),
  ).toBeVisible();
  await expect(main.getByRole("heading", { name: `Nothing is held about ${email}` })).toBeVisible();

  // The inquiry is gone from the Inquiries screen.
  await page.goto(`/admin/inquiries?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("main").getByText("No inquiries match these filters.")).toBeVisible();

  // The order stays, anonymised, with the same total.
  await page.goto(`/admin/payments/${orderId}`);
  const order = page.getByRole("main");
  await expect(order.getByRole("heading", { name: new RegExp(reference!) })).toBeVisible();
  await expect(order.getByText("Erased", { exact: true }).first()).toBeVisible();
  await expect(order.getByText(email)).toHaveCount(0);
  await expect(order.getByText("£295.00").first()).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search, the erase question and the erasure are plain pages and posts", async ({
    page,
    request,
  }) => {
    const stamp = Date.now().toString(36);
    const email = `nojs.${stamp}@example.com`;
    const booked = await request.post(`/courses/${COURSE}/checkout`, {
      form: {
        intent: "invoice",
        firstName: "Noel",
        lastName: "Script",
        email,
        phone: "+44 20 7946 0000",
        ...BILLING_FORM,
        company: `Script ${stamp} Ltd`,
        studentMode: "others",
        quantity: "1",
        "students[0].firstName": "Noel",
        "students[0].lastName": "Script",
        "students[0].email": email,
      },
    });
    expect(booked.ok()).toBe(true);

    await signInAsAdmin(page);
    await page.goto("/admin/privacy");
    const main = page.getByRole("main");
    await main.getByLabel("E-mail address").fill(email);
    await main.getByRole("button", { name: "Find" }).click();
    await expect(main.getByRole("heading", { name: `Held about ${email}` })).toBeVisible();

    await main.getByRole("button", { name: "Erase" }).click();
    const question = main.getByRole("region", { name: `Erase the personal data of ${email}?` });
    await expect(question).toContainText(
      /Anonymise 1 order and 1 student record \(amounts, dates and invoice numbers are kept for 6 years, as UK tax law requires\); delete \d+ stored e-mails?\. This cannot be undone\./,
    );
    await question.getByRole("button", { name: "Erase" }).click();
    await expect(main.getByRole("status")).toHaveText(
      /^Anonymised 1 order and 1 student record \(.*\); deleted \d+ stored e-mails?\.$/,
    );
    await expect(
      main.getByRole("heading", { name: `Nothing is held about ${email}` }),
    ).toBeVisible();
  });
});
