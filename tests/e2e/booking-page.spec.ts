import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { test } from "#tests/support/e2e-test.ts";
import { mailKindsTo, placeOrder, uniqueEmail } from "#tests/support/checkout-page.ts";
import {
  bookDateByInvoice,
  dateCheckoutUrl,
  openDateAsAdmin,
  townOfThisRun,
} from "#tests/support/course-dates-page.ts";
import { expectToast, holdScripts, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";
import { outboxDir } from "#tests/support/e2e-sites.ts";

/**
 * The booker's page (decision 0037): a date is booked for two students by invoice; the booker
 * opens the page from the link in their confirmation e-mail — without JavaScript it shows the
 * booking whole — and gives place 2 to a colleague, typing before the page's scripts have run;
 * the booker, the old and the new student are e-mailed. 'Find my booking' e-mails the link again;
 * a link with one character changed opens nothing. An invoice is paid by card from the page its
 * e-mail links to, pressed before the page's scripts have run.
 */

const COURSE = "dark-web-investigations-for-fraud-teams";
const COURSE_TITLE = "Dark Web Investigations for Fraud Teams";
const TOWN = townOfThisRun("Leeds");

/** The e-mails the site has written so far (none before its first). */
function emlFiles(): string[] {
  try {
    return readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
}

/** The path of the booking link in the latest e-mail of `kind` to `address` (the .eml written). */
async function bookingLinkIn(address: string, kind: string, anchor = ""): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const file of emlFiles()) {
          const raw = readFileSync(path.join(outboxDir(), file), "utf8");
          const head = raw.slice(0, raw.indexOf("\n\n"));
          if (!new RegExp(`^X-NightWatch-Kind: ${kind}$`, "im").test(head)) continue;
          if (!head.toLowerCase().includes(address.toLowerCase())) continue;
          const mail = await simpleParser(raw);
          const found = new RegExp(`https?://[^\\s/]+(/bookings/[^\\s#]+${anchor})`).exec(
            mail.text ?? "",
          );
          if (found) link = found[1];
        }
        return link !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return link!;
}

async function expectHydrated(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: 45_000 });
}

test("a booker opens their page from the confirmation and gives a place to a colleague", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await openDateAsAdmin(page, {
    courseTitle: COURSE_TITLE,
    inDays: 40,
    from: "09:30",
    to: "16:30",
    places: 4,
    venue: "Leeds Training Rooms",
    town: TOWN,
  });
  const checkoutUrl = await dateCheckoutUrl(browser, COURSE, TOWN, "4 places left");
  const booker = uniqueEmail("booker");
  await bookDateByInvoice(request, checkoutUrl, booker, 2);
  const link = await bookingLinkIn(booker, "invoice_request_confirmation");

  // Without JavaScript: the whole booking.
  const noScripts = await browser.newContext({ javaScriptEnabled: false });
  try {
    const plain = await noScripts.newPage();
    await plain.goto(link);
    await expect(plain.getByRole("heading", { name: COURSE_TITLE })).toBeVisible();
    await expect(plain.getByTestId("booking-status")).toHaveText("Received: invoice to follow");
    await expect(
      plain.locator("section[aria-labelledby=date-heading]").getByText("Leeds Training Rooms"),
    ).toBeVisible();
    await expect(plain.getByTestId("place-1")).toContainText("Student0 Smith");
    await expect(plain.getByTestId("place-2")).toContainText("Student1 Smith");
    await expect(plain.getByRole("link", { name: "Add to calendar" })).toBeVisible();
    await expect(plain.getByText(/You can name or change students here until/)).toBeVisible();
    // The address is the key: no link followed from the page passes it to another site.
    await expect(plain.locator('meta[name="referrer"]')).toHaveAttribute("content", "same-origin");
  } finally {
    await noScripts.close();
  }

  // Typed before the page's scripts run, sent once they have.
  const release = await holdScripts(page);
  await page.goto(link, { waitUntil: "commit" });
  const place = page.getByTestId("place-2");
  await place.getByText("Give this place to someone else").click();
  const form = place.getByRole("form", { name: "Change the student of place 2" });
  const colleague = uniqueEmail("colleague");
  await form.getByLabel("First name").fill("Grace");
  await form.getByLabel("Last name").fill("Hopper");
  await form.getByLabel("E-mail").fill(colleague);
  release();
  await expectHydrated(page);
  await expect(form.getByLabel("First name")).toHaveValue("Grace");
  await expect(form.getByLabel("E-mail")).toHaveValue(colleague);
  await form.getByRole("button", { name: "Give this place to them" }).click();
  await expectToast(
    page,
    "Student saved",
    "Saved: Grace Hopper now holds the place. We have e-mailed you, the new student and anyone who held it before.",
  );
  await expect(page.getByTestId("place-2")).toContainText("Grace Hopper");
  await expect(page.getByTestId("place-1")).toContainText("Student0 Smith");

  await expect.poll(() => mailKindsTo(colleague), { timeout: 20_000 }).toContain("place_given");
  await expect.poll(() => mailKindsTo(booker), { timeout: 20_000 }).toContain("student_changed");

  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // 'Find my booking' e-mails the link; the page never shows it.
  await page.goto("/bookings");
  await expectHydrated(page);
  await page.getByLabel("E-mail used to book").fill(booker);
  await page.getByRole("button", { name: "E-mail me my booking links" }).click();
  await expectToast(page, "Check your inbox", /If we have bookings made with that address/);
  const again = await bookingLinkIn(booker, "booking_links");
  expect(again).toMatch(/^\/bookings\/[0-9a-f-]{36}\./);
  await page.goto(again);
  await expect(page.getByTestId("place-2")).toContainText("Grace Hopper");

  // One character changed: nothing of the booking.
  const last = link.at(-1) === "A" ? "B" : "A";
  await page.goto(`${link.slice(0, -1)}${last}`);
  await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();
  await expect(page.locator("#main").getByText(COURSE_TITLE)).toHaveCount(0);
});

test("a booker asks to move one place of a paid booking to another date and staff approve it in one click", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const town = townOfThisRun("York");
  const later = `Harrogate Rooms ${town}`;
  for (const [inDays, venue, where] of [
    [30, "York Training Rooms", town],
    [50, later, townOfThisRun("Harrogate")],
  ] as const) {
    await openDateAsAdmin(page, {
      courseTitle: COURSE_TITLE,
      inDays,
      from: "09:30",
      to: "16:30",
      places: 4,
      venue,
      town: where,
    });
  }
  const checkoutUrl = await dateCheckoutUrl(browser, COURSE, town, "4 places left");
  const booker = uniqueEmail("mover");
  await bookDateByInvoice(request, checkoutUrl, booker, 2);
  const link = await bookingLinkIn(booker, "invoice_request_confirmation");
  const orderId = link.split("/").at(-1)!.split(".")[0]!;
  // Invoiced and paid: the moved place takes what was paid for it (decision 0046).
  for (const status of ["invoiced", "paid"]) {
    const changed = await page.request.post("/admin/payments", {
      form: { intent: "status", orderId, status },
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(changed.status()).toBeLessThan(400);
  }

  // The booker, in their own browser: place 2 to the later date.
  const booking = await (await browser.newContext()).newPage();
  await booking.goto(link);
  await expectHydrated(booking);
  await booking.getByText("Ask to move places to another date").click();
  const form = booking.getByRole("form", { name: "Ask to move places" });
  await form.getByRole("radio", { name: new RegExp(later) }).check();
  await form.getByRole("checkbox", { name: /Place 1:/ }).uncheck();
  await form.getByRole("button", { name: "Ask to move" }).click();
  await expectToast(booking, "Request sent", /we have your request/i);
  await booking.reload();
  await expect(booking.getByTestId("move-request")).toContainText("place 2");
  await expect.poll(() => mailKindsTo(booker), { timeout: 20_000 }).toContain("move_requested");

  // Staff, on the order page: one click.
  await page.goto(`/admin/payments/${orderId}`);
  await expectHydrated(page);
  const asked = page.getByTestId("move-request");
  await expect(asked).toContainText("to move place 2");
  await asked.getByRole("button", { name: "Approve move" }).click();
  await expectToast(page, "Success", /1 place moved to .* as order/);
  await expect(page.getByTestId("move-request")).toHaveCount(0);

  // The booker's page now holds one place; the moved student has the new date.
  await booking.reload();
  await expect(booking.getByTestId("place-1")).toContainText("Student0 Smith");
  await expect(booking.getByTestId("place-2")).toHaveCount(0);
  await expect(booking.getByTestId("moved-out")).toContainText(
    "1 place moved to another date as booking",
  );
  await expect.poll(() => mailKindsTo(booker), { timeout: 20_000 }).toContain("order_moved");

  // The money went with the place: out of this order, into the new one, both paid in full.
  await page.reload();
  const payments = page.getByRole("list", { name: "Payments" });
  await expect(payments).toContainText(/£\d[\d,.]* moved out with places on .* \(To NW-/);
  await expect(page.getByText("Paid in full", { exact: true })).toBeVisible();
  await booking.context().close();
});

test("an invoice is paid by card from the booker's page its e-mail links to", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("pay-by-card");
  await placeOrder(request, "invoice", { firstName: "Penny", email, company: "Penny Ltd" });
  await signInAsAdmin(page);
  await page.goto(`/admin/payments?q=${encodeURIComponent(email)}`);
  const row = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  const orderId = (await row.getAttribute("data-order-id"))!;
  const invoiced = await page.request.post("/admin/payments", {
    form: { intent: "status", orderId, status: "invoiced" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(invoiced.status()).toBeLessThan(400);

  // The invoice's e-mail links to the page's "Pay by card".
  const link = await bookingLinkIn(email, "invoice_issued", "#pay");
  const buyer = await page.context().browser()!.newPage();
  const release = await holdScripts(buyer);
  await buyer.goto(link, { waitUntil: "commit" });
  const section = buyer.getByRole("region", { name: "Pay by card" });
  await expect(section).toContainText(/£295\.00 is owed on invoice INV-/);
  await section.getByRole("button", { name: "Pay £295.00 by card" }).click();
  release();
  // Stripe's payment page (the fake's), then back to the booking.
  await buyer.waitForURL(/\/pay\/cs_/);
  await buyer.getByRole("button", { name: /^Pay / }).click();
  await expect(buyer.getByTestId("card-payment")).toHaveText(
    "Thank you: your card payment of £295.00 has been received. Your receipt is on its way by e-mail.",
  );
  await expect(buyer.getByTestId("booking-status")).toHaveText("Paid");
  await expect(buyer.getByRole("button", { name: /by card/ })).toHaveCount(0);
  await buyer.close();

  await page.goto(`/admin/payments/${orderId}`);
  await expect(page.getByRole("list", { name: "Payments" })).toContainText("£295.00 by card on");
  await expect(page.getByText("Paid in full", { exact: true })).toBeVisible();
});
