import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { londonDate } from "#app/lib/admin/time.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { mailKindsTo, placeOrder } from "#tests/support/checkout-page.ts";

/**
 * The admin Payments screen in Chromium, on orders placed without a browser: stats, search,
 * filters, students, the allowed actions only, toasts and the CSV export.
 */

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
      .first()
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
      form: { intent: "status", orderId: orderId!, status: "canceled", reason: "Not wanted" },
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

    // For finance: paid today (UK day), both found by their paid date; none paid long ago.
    await expect(rows.filter({ hasText: cardBuyer.email })).toContainText("Paid");
    const today = londonDate();
    const [y, m, d] = today.split("-");
    await page.getByLabel("Dates").selectOption({ label: "Paid" });
    await page.getByRole("textbox", { name: "From", exact: true }).fill(`${d}/${m}/${y}`);
    await page.getByRole("textbox", { name: "To", exact: true }).fill(`${d}/${m}/${y}`);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`dates=paid&from=${today}&to=${today}`));
    await expect(rows).toHaveCount(2);
    await page.getByRole("textbox", { name: "To", exact: true }).fill("31/01/2001");
    await page.getByRole("textbox", { name: "From", exact: true }).fill("01/01/2001");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No orders found.")).toBeVisible();
    // The CSV follows the filters, and carries net, VAT and the paid day.
    await page.goto(`/admin/payments?q=${tag}&dates=paid&from=${today}&to=${today}`);
    const financeFile = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const finance = readFileSync((await (await financeFile).path())!, "utf8");
    expect(finance.split("\r\n")[0]).toContain("Net (GBP),VAT (GBP),Paid (UK date)");
    expect(finance).toContain(`,${today},`);
    // Nothing of these is overdue: paid, or invoiced today.
    await page.goto(`/admin/payments?q=${tag}`);
    await page.getByLabel("Status").selectOption({ label: "Overdue" });
    await expect(page).toHaveURL(/status=overdue/);
    await expect(page.getByText("No orders found.")).toBeVisible();
  });
});
