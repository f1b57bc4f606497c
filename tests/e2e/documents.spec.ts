import { readFileSync } from "node:fs";
import { expect, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { placeOrder } from "#tests/support/checkout-page.ts";

/**
 * The document register in Chromium on the production build: a month with an invoice, a card
 * payment's receipt, a cancelled invoice's credit note, an invoice part paid and one paid and
 * part refunded by bank (both recorded on the order page); the screen's sums, the register CSV,
 * Xero's import and the ZIP of PDFs, each read back and checked against the others.
 */

const XERO_TEMPLATE_HEADER =
  "*ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,InventoryItemCode,*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,Currency,BrandingTheme";

const pence = (figure: string) => Math.round(Number(figure.replace(/[£,]/g, "")) * 100);

async function download(page: Page, link: string): Promise<{ name: string; body: Buffer }> {
  const file = page.waitForEvent("download");
  await page.getByRole("link", { name: link }).click();
  const done = await file;
  return { name: done.suggestedFilename(), body: readFileSync((await done.path())!) };
}

function csvRows(body: Buffer): string[][] {
  return parse(body.toString("utf8"), { bom: true }) as string[][];
}

async function orderIdOf(page: Page, email: string): Promise<string> {
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  return (await row.getAttribute("data-order-id"))!;
}

async function setStatus(page: Page, orderId: string, fields: Record<string, string>) {
  const response = await page.request.post("/admin/payments", {
    form: { intent: "status", orderId, ...fields },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(response.status(), JSON.stringify(fields)).toBeLessThan(400);
}

test("a month's documents: the screen's sums, the register CSV, Xero's import and the PDFs agree", async ({
  page,
  request,
}) => {
  test.slow();
  const tag = `doc${Date.now().toString(36)}`;
  const ivy = {
    firstName: `Ivy${tag}`,
    email: `ivy.${tag}@example.com`,
    company: `Ivy ${tag} Ltd`,
  };
  const cid = {
    firstName: `Cid${tag}`,
    email: `cid.${tag}@example.com`,
    company: `Cid ${tag} Ltd`,
  };
  const carl = {
    firstName: `Carl${tag}`,
    email: `carl.${tag}@example.com`,
    company: `Carl ${tag} Ltd`,
  };
  const dot = {
    firstName: `Dot${tag}`,
    email: `dot.${tag}@example.com`,
    company: `Dot ${tag} Ltd`,
  };
  const eve = {
    firstName: `Eve${tag}`,
    email: `eve.${tag}@example.com`,
    company: `Eve ${tag} Ltd`,
  };
  await placeOrder(request, "invoice", ivy);
  await placeOrder(request, "invoice", cid);
  await placeOrder(request, "invoice", dot);
  await placeOrder(request, "invoice", eve);
  const stripePage = await placeOrder(request, "card", carl);
  const paid = await request.post(stripePage, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
  await request.get(paid.headers().location!);

  await signInAsAdmin(page);
  await setStatus(page, await orderIdOf(page, ivy.email), { status: "invoiced" });
  const cidOrder = await orderIdOf(page, cid.email);
  await setStatus(page, cidOrder, { status: "invoiced" });
  await setStatus(page, cidOrder, { status: "canceled", reason: "Withdrawn by the buyer" });

  // Dot's finance team pays £100.00 of the invoice: recorded on the order page as it arrived.
  const dotOrder = await orderIdOf(page, dot.email);
  await setStatus(page, dotOrder, { status: "invoiced" });
  await page.goto(`/admin/payments/${dotOrder}`);
  await page.getByRole("button", { name: "Record Payment" }).click();
  const payment = page.getByRole("dialog");
  await payment.getByRole("textbox", { name: "Amount (£)" }).fill("100.00");
  await payment.getByRole("textbox", { name: "Reference" }).fill(`DOT ${tag}`);
  await payment.getByRole("button", { name: "Record Payment" }).click();
  await expectToast(page, "Payment Recorded", "Recorded: £100.00 received. £195.00 still owed.");
  const received = page.getByRole("list", { name: "Payments" });
  await expect(received).toContainText(`£100.00 by bank transfer on`);
  await expect(received).toContainText(`(ref DOT ${tag})`);
  await expect(page.getByText("£195.00 owed")).toBeVisible();

  // Eve paid in full, then £54.00 was paid back by bank transfer: a credit note.
  const eveOrder = await orderIdOf(page, eve.email);
  await setStatus(page, eveOrder, { status: "invoiced" });
  await setStatus(page, eveOrder, { status: "paid" });
  await page.goto(`/admin/payments/${eveOrder}`);
  await page.getByRole("button", { name: "Record Bank Refund" }).click();
  const refund = page.getByRole("dialog");
  await refund.getByRole("textbox", { name: "Amount (£)" }).fill("54.00");
  await refund.getByRole("button", { name: "Record Refund" }).click();
  await expectToast(page, "Refund Recorded", /^Recorded: £54\.00 refunded; credit note CN-/);

  await page.goto("/admin/dashboard");
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: "Documents", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Documents", level: 1 })).toBeVisible();
  const rows = page.getByRole("table", { name: "Documents" }).locator("tbody tr");
  const ours = rows.filter({ hasText: tag });
  await expect(ours).toHaveCount(7);
  await expect(rows.filter({ hasText: ivy.company })).toContainText("Awaiting payment");
  await expect(rows.filter({ hasText: dot.company })).toContainText("Part paid");
  await expect(
    rows.filter({ hasText: eve.company }).filter({ hasText: "Credit note" }),
  ).toContainText("−£54.00");
  await expect(
    rows.filter({ hasText: eve.company }).filter({ hasNotText: "Credit note" }),
  ).toContainText("Part refunded");
  await expect(rows.filter({ hasText: carl.company })).toContainText("Paid");
  const credit = rows.filter({ hasText: cid.company }).filter({ hasText: "Credit note" });
  await expect(credit).toContainText("−£295.00");
  await expect(credit).toContainText(/credits INV-/);
  await expect(page.getByRole("table", { name: "By month" })).toBeVisible();
  const netOfCredits = await page
    .getByRole("heading", { name: "Net of credits", exact: true })
    .locator("xpath=../..")
    .locator("p")
    .first()
    .innerText();

  // The register: a row per document, credits negative, adding up to the screen's figure.
  const register = await download(page, "Register (CSV)");
  expect(register.name).toMatch(/^documents-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...lines] = csvRows(register.body);
  const col = (name: string) => header!.indexOf(name);
  expect(lines.reduce((sum, row) => sum + pence(row[col("Total (GBP)")]!), 0)).toBe(
    pence(netOfCredits),
  );
  const creditLine = lines.find(
    (row) => row[col("Organisation")] === cid.company && row[1] === "Credit note",
  );
  expect(creditLine![col("Total (GBP)")]).toBe("-295.00");
  const invoiceNumber = lines.find((row) => row[col("Organisation")] === ivy.company)![0]!;

  // Xero's import: the template's columns, and the same net money, line by line.
  const xero = await download(page, "Xero sales import (CSV)");
  const [xeroHeader, ...xeroLines] = csvRows(xero.body);
  expect(xeroHeader!.join(",")).toBe(XERO_TEMPLATE_HEADER);
  const x = (row: string[], name: string) => row[xeroHeader!.indexOf(name)]!;
  expect(
    xeroLines.reduce(
      (sum, row) => sum + Number(x(row, "*Quantity")) * pence(x(row, "*UnitAmount")),
      0,
    ),
  ).toBe(lines.reduce((sum, row) => sum + pence(row[col("Net (GBP)")]!), 0));
  expect(xeroLines.find((row) => x(row, "*InvoiceNumber") === invoiceNumber)).toBeTruthy();

  // The PDFs, one per document, named after its number.
  const zip = await download(page, "PDFs (ZIP)");
  const files = unzipSync(new Uint8Array(zip.body));
  expect(Object.keys(files)).toHaveLength(lines.length);
  expect(Buffer.from(files[`${invoiceNumber}.pdf`]!).subarray(0, 5).toString()).toBe("%PDF-");

  // An earlier range, typed the UK way: nothing issued then.
  await page.getByRole("textbox", { name: "From", exact: true }).fill("01/01/2001");
  await page.getByRole("textbox", { name: "To", exact: true }).fill("31/01/2001");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/from=2001-01-01&to=2001-01-31/);
  await expect(page.getByText("No documents were issued in these dates.")).toBeVisible();
});
