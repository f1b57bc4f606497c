import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser } from "mailparser";
import { test } from "#tests/support/e2e-test.ts";
import { uniqueEmail } from "#tests/support/checkout-page.ts";
import { expectToast, fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";
import { outboxDir } from "#tests/support/e2e-sites.ts";
import {
  bookDateByInvoice,
  dateOnCoursePage,
  openDateAsAdmin,
  townOfThisRun,
} from "#tests/support/course-dates-page.ts";

/**
 * A waiting list end to end (decision 0034): a date with 3 places is filled by two invoice
 * requests (2 and 1 places); a visitor without JavaScript joins its waiting list for 2; the admin
 * cancels the booking of 2; the visitor's offer e-mail links to a checkout filled in from the
 * entry, which books the 2 places.
 */

/** A demo course no other spec books (£345.00, no partner). */
const COURSE = "social-engineering-red-flags-for-contact-centres";
const COURSE_TITLE = "Social Engineering Red Flags for Contact Centres";
/** Its own town on every run, so a retried test reads only its own date. */
const TOWN = townOfThisRun("York");

/** The link in the waiting list offer e-mailed to `address` (the .eml the site wrote). */
async function offerLink(address: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        for (const file of readdirSync(outboxDir()).filter((f) => f.endsWith(".eml"))) {
          const raw = readFileSync(path.join(outboxDir(), file), "utf8");
          if (!raw.includes(address) || !/X-NightWatch-Kind: waiting_list_offer/i.test(raw)) {
            continue;
          }
          const mail = await simpleParser(raw);
          const found = /https?:\/\/\S+\/checkout\?\S+/.exec(mail.text ?? "");
          if (found) link = found[0];
        }
        return link;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return link;
}

test("a full date's waiting list: a visitor joins without JavaScript, a cancellation offers the places, the e-mailed link books them", async ({
  page,
  browser,
  request,
}) => {
  // The admin opens a date with 3 places.
  await openDateAsAdmin(page, {
    courseTitle: COURSE_TITLE,
    inDays: 50,
    from: "10:00",
    to: "16:00",
    places: 3,
    venue: "York Conference Rooms",
    town: TOWN,
  });

  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const waiter = await browser.newContext();
  try {
    const noScript = await visitor.newPage();
    const entry = await dateOnCoursePage(noScript, COURSE, TOWN, "3 places left");
    const checkoutUrl = new URL(
      (await entry.getByRole("link", { name: /Book this date/ }).getAttribute("href"))!,
      noScript.url(),
    ).toString();
    const groupBuyer = uniqueEmail("wl-group");
    await bookDateByInvoice(request, checkoutUrl, groupBuyer, 2);
    await bookDateByInvoice(request, checkoutUrl, uniqueEmail("wl-single"), 1);

    // Fully booked: the date offers its waiting list instead; joined without JavaScript.
    const full = await dateOnCoursePage(noScript, COURSE, TOWN, "Fully booked");
    await expect(full.getByRole("link", { name: /Book this date/ })).toHaveCount(0);
    await full.getByRole("link", { name: /Join the waiting list/ }).click();
    const waiting = uniqueEmail("wl-waiting");
    const form = noScript.getByRole("form", { name: "Join the waiting list" });
    await form.getByLabel("First name").fill("Wendy");
    await form.getByLabel("Last name").fill("Waiting");
    await form.getByRole("textbox", { name: "E-mail" }).fill(waiting);
    await form.getByLabel("Organisation").fill("Waiting Bank plc");
    await form.getByLabel("Places wanted").fill("2");
    await form.getByRole("checkbox").check();
    await form.getByRole("button", { name: "Join the waiting list" }).click();
    await expect(noScript.getByText("You're on the Waiting List")).toBeVisible();

    // The admin cancels the booking of 2: its places go to the waiting list first.
    await page.goto(`/admin/payments?q=${encodeURIComponent(groupBuyer)}`);
    const row = page.getByRole("table", { name: "Orders" }).locator("tbody tr");
    await expect(row).toHaveCount(1);
    await page.waitForLoadState("networkidle");
    await row.getByRole("button", { name: /^Cancel/ }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByLabel("Reason").fill("The group cannot come");
    await dialog.getByRole("button", { name: "Cancel Order" }).click();
    await expectToast(page, "Status Updated", "Order status changed to canceled");

    // The offer's link opens the date's checkout filled in from the entry; it books the 2 places.
    const link = new URL(await offerLink(waiting));
    const buyer = await waiter.newPage();
    await buyer.goto(`${link.pathname}${link.search}`);
    await expect(buyer.locator('input[name="enhanced"]')).toHaveCount(1);
    await expect(buyer.getByTestId("booking-date")).toContainText(TOWN);
    await expect(buyer.getByLabel("Email").first()).toHaveValue(waiting);
    await expect(buyer.getByLabel("First Name").first()).toHaveValue("Wendy");
    await expect(buyer.getByTestId("quantity")).toHaveText("2");
    for (const [n, block] of [1, 2].entries()) {
      const student = buyer.getByRole("group", { name: `Student ${block}` });
      await student.getByLabel("First Name").fill(`Colleague${n}`);
      await student.getByLabel("Last Name").fill("Waiting");
      await student.getByLabel("Email").fill(uniqueEmail(`wl-colleague${n}`));
    }
    await fillCheckoutAddress(buyer);
    await buyer.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(buyer).toHaveURL(new RegExp(`/courses/${COURSE}/success\\?invoice=true`));
    await dateOnCoursePage(noScript, COURSE, TOWN, "Fully booked");
  } finally {
    await visitor.close();
    await waiter.close();
  }
});
