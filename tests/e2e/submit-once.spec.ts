import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import {
  E2E_CHECKOUT_COURSE,
  fillCheckoutAddress,
  holdScripts,
  signInAsAdmin,
} from "#tests/support/e2e-fixtures.ts";

/**
 * One submission, one result, in a real browser: three clicks on "Request Manual Invoice" — fast,
 * with the page's scripts running, and before they have run (a plain form post, three times) —
 * place one order. Counted on the admin Payments screen by the buyer's unique address.
 */

const CHECKOUT = `/courses/${E2E_CHECKOUT_COURSE}/checkout`;
let run = 0;
const uniqueEmail = () => `thrice.${Date.now().toString(36)}.${++run}@example.com`;

async function fillBooking(page: Page, email: string) {
  await page.getByLabel("First Name").first().fill("Tri");
  await page.getByLabel("Last Name").first().fill("Clicker");
  await page.getByLabel("Email").first().fill(email);
  await fillCheckoutAddress(page);
}

/** Three clicks on the button as fast as a mouse gives them, whatever the button's state. */
async function clickThrice(page: Page) {
  const box = (await page.getByRole("button", { name: "Request Manual Invoice" }).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  for (let i = 0; i < 3; i++) await page.mouse.click(x, y);
}

async function ordersOf(page: Page, email: string): Promise<number> {
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("heading", { name: "Manage Payments" })).toBeVisible();
  return page.locator("[data-order-id]").count();
}

test("three fast clicks with the page's scripts running place one order", async ({ page }) => {
  await page.goto(CHECKOUT);
  await expect(page.locator('input[name="enhanced"]')).toHaveCount(1);
  const email = uniqueEmail();
  await fillBooking(page, email);
  await clickThrice(page);
  await expect(page).toHaveURL(
    new RegExp(`${CHECKOUT.replace("checkout", "success")}\\?invoice=true`),
  );
  await signInAsAdmin(page);
  expect(await ordersOf(page, email)).toBe(1);
});

test("three clicks before the scripts have run place one order", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto(CHECKOUT, { waitUntil: "commit" });
  const email = uniqueEmail();
  await fillBooking(page, email);
  // Every post reaches the server at once, but its answer is held until all three are in, as on
  // a slow connection, so the page is still there for the next click. Each click waits for the
  // previous post to have left: clicks closer together than that are merged by the browser into
  // one submission (the later replaces a submission not yet sent), however fast the machine.
  let posts = 0;
  let allPosted = () => {};
  const posted = new Promise<void>((resolve) => (allPosted = resolve));
  await page.route("**/checkout", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    posts++;
    const answer = await route.fetch({ maxRedirects: 0 });
    await posted;
    // The browser has dropped the navigations it no longer waits for.
    await route.fulfill({ response: answer }).catch(() => {});
  });
  const box = (await page.getByRole("button", { name: "Request Manual Invoice" }).boundingBox())!;
  for (let click = 1; click <= 3; click++) {
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => posts).toBe(click);
  }
  allPosted();
  await expect(page).toHaveURL(/\/success\?invoice=true/);
  release();
  await page.unroute("**/checkout");
  await signInAsAdmin(page);
  expect(await ordersOf(page, email)).toBe(1);
  // The posts the browser stopped waiting for have finished by now, and made nothing more.
  await page.waitForTimeout(1_000);
  expect(await ordersOf(page, email)).toBe(1);
});
