import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { currentSite, outboxDir } from "#tests/support/e2e-sites.ts";
import { fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";

/**
 * The checkout page in Chromium: the course it sells, buyers that no other test uses, the fields
 * every booking fills, orders placed without a browser, and the e-mails the web server writes
 * as .eml files under DATA_DIR/outbox (it runs without SMTP).
 */

/** The running test's fake Stripe (each worker's site has its own). */
export const fakeStripe = () => currentSite().fakeStripe;
export const COURSE = "introduction-to-counter-fraud"; // £295.00, no partner, published
export const CHECKOUT = `/courses/${COURSE}/checkout`;

let run = 0;
/** A buyer address no other test uses, so its e-mails can be told apart. */
export const uniqueEmail = (who: string) => `${who}.${Date.now()}.${++run}@example.com`;

/** The kinds of the outbox messages sent to `address` (header 'X-NightWatch-Kind'). */
export function mailKindsTo(address: string): string[] {
  let files: string[];
  try {
    files = readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  const kinds: string[] = [];
  for (const file of files) {
    const raw = readFileSync(path.join(outboxDir(), file), "utf8");
    const head = raw.slice(0, raw.indexOf("\n\n"));
    const to = /^To: (.*)$/im.exec(head)?.[1] ?? "";
    if (!to.toLowerCase().includes(address.toLowerCase())) continue;
    kinds.push(/^X-NightWatch-Kind: (.*)$/im.exec(head)?.[1]?.trim() ?? "?");
  }
  return kinds.sort();
}

/** The buyer, the billing address and the terms ticked: what every booking needs. */
export async function fillBilling(page: Page, email: string) {
  await page.getByLabel("First Name").first().fill("Ada");
  await page.getByLabel("Last Name").first().fill("Lovelace");
  await page.getByLabel("Email").first().fill(email);
  await fillCheckoutAddress(page);
}

export async function fillStudent(page: Page, n: number, first: string, email: string) {
  const block = page.getByRole("group", { name: `Student ${n}` });
  await block.getByLabel("First Name").fill(first);
  await block.getByLabel("Last Name").fill("Smith");
  await block.getByLabel("Email").fill(email);
}

export async function openCheckout(page: Page) {
  await page.goto(CHECKOUT);
  // Hydrated: the client-side checks and the toasts work from here on.
  await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
}

/** An order placed without a browser (the no-JS posts), for the admin screen to show. */
export async function placeOrder(
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
