import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { outboxDir } from "#tests/support/e2e-sites.ts";
import { test } from "#tests/support/e2e-test.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * Issue 16's round trip: a buyer books 3 places by invoice with a PO; the admin finds the order
 * by its reference, opens it and marks it invoiced; the outbox then holds one e-mail to the buyer
 * with one PDF, whose text is a VAT invoice for that order. The site runs without SMTP, so the
 * message lands as an .eml file under DATA_DIR/outbox. The seller is VAT-registered with prices
 * including VAT (playwright.config.ts): £295.00 × 3 = £885.00, of which VAT £147.50.
 */

const COURSE = "introduction-to-counter-fraud"; // £295.00, no partner, published

/** The .eml messages to `address` whose kind header is `kind`. */
function messagesTo(address: string, kind: string): string[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(outboxDir(), file), "utf8"))
    .filter((raw) => {
      const head = raw.slice(0, raw.search(/\r?\n\r?\n/));
      return (
        (/^To: (.*)$/im.exec(head)?.[1] ?? "").toLowerCase().includes(address) &&
        /^X-NightWatch-Kind: (.*)$/im.exec(head)?.[1]?.trim() === kind
      );
    });
}

/** The base64 bodies of a message's application/pdf parts, decoded. */
function pdfAttachments(raw: string): Buffer[] {
  const parts = raw.split(/\r?\n--[^\r\n]+/);
  return parts
    .filter((part) => /Content-Type: application\/pdf/i.test(part))
    .map((part) =>
      Buffer.from(part.slice(part.search(/\r?\n\r?\n/)).replace(/\s+/g, ""), "base64"),
    );
}

test("a buyer books 3 places by invoice with a PO; the admin invoices it; the e-mail carries the VAT invoice PDF", async ({
  page,
  request,
}) => {
  const stamp = Date.now().toString(36);
  const email = `finance.${stamp}@example.com`;
  const po = `PO-${stamp.toUpperCase()}`;
  const form: Record<string, string> = {
    intent: "invoice",
    firstName: "Fran",
    lastName: "Finance",
    email,
    phone: "+44 20 7946 0000",
    ...BILLING_FORM,
    company: `Ledger ${stamp} Bank`,
    postcode: "SW1A 1AA",
    poNumber: po,
    studentMode: "others",
    quantity: "3",
  };
  for (const [i, name] of ["Grace", "Alan", "Joan"].entries()) {
    form[`students[${i}].firstName`] = name;
    form[`students[${i}].lastName`] = "Student";
    form[`students[${i}].email`] = `${name.toLowerCase()}.${stamp}@example.com`;
  }
  // The buyer's post (as without JavaScript); the success page shows them their reference.
  const booked = await request.post(`/courses/${COURSE}/checkout`, { form });
  expect(booked.ok()).toBe(true);
  const reference = /data-testid="order-reference"[^>]*>(NW-[0-9A-F]{8})</.exec(
    await booked.text(),
  )?.[1];
  expect(reference).toMatch(/^NW-[0-9A-F]{8}$/);

  // The admin finds the order by its reference and opens it.
  await signInAsAdmin(page);
  await page.goto(`/admin/payments?q=${encodeURIComponent(reference!.toLowerCase())}`);
  const rows = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("link", { name: reference! }).click();
  const main = page.getByRole("main");
  await expect(main.getByText(po)).toBeVisible();
  await expect(main.getByText("SW1A 1AA")).toBeVisible();

  await main.getByRole("button", { name: /^Mark Invoiced/ }).click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: "Issue and Send Invoice" })
    .click();
  await expectToast(page, "Status Updated", "Order status changed to invoiced");

  // One e-mail to the buyer, with one PDF: the VAT invoice of this order.
  await expect.poll(() => messagesTo(email, "invoice_issued").length, { timeout: 15_000 }).toBe(1);
  const pdfs = pdfAttachments(messagesTo(email, "invoice_issued")[0]!);
  expect(pdfs).toHaveLength(1);
  const text = await pdfText(pdfs[0]!);
  const number = /INV-\d{4}-\d{4}/.exec(text)?.[0];
  expect(number).toBeDefined();
  for (const expected of [reference!, po, "SW1A 1AA", "VAT invoice", "GB123456789"]) {
    expect(text).toContain(expected);
  }
  // Net, VAT and total of 3 × £295.00 with VAT included (20 %: one sixth).
  for (const amount of ["£737.50", "£147.50", "£885.00"]) expect(text).toContain(amount);

  // The order page offers the same document for download.
  await page.reload();
  const download = main.getByRole("link", { name: new RegExp(number!) });
  const href = await download.getAttribute("href");
  const response = await page.request.get(href!);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(await pdfText(await response.body())).toContain(number!);
});
