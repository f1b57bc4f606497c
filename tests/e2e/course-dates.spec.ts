import { expect, type BrowserContext } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { fillCheckoutAddress } from "#tests/support/e2e-fixtures.ts";
import { fillBilling, fillStudent, uniqueEmail } from "#tests/support/checkout-page.ts";
import {
  dateOnCoursePage,
  openDateAsAdmin,
  townOfThisRun,
} from "#tests/support/course-dates-page.ts";

/**
 * Dated places end to end (decision 0033): an admin opens a date with 4 places on the Dates
 * screen; one buyer books 1 by invoice without JavaScript, another 2 with it, a third the last
 * one by card on the fake Stripe page;
 * the course page then says 'Fully booked', and a post that arrives after that (a page opened
 * earlier, without JavaScript) is refused on the checkout with what was typed kept.
 */

/** A demo course no other spec books (priced, no partner). */
const COURSE = "data-protection-essentials-for-frontline-staff";
const COURSE_TITLE = "Data Protection Essentials for Frontline Staff";
/** Its own town on every run, so a retried test reads only its own date. */
const TOWN = townOfThisRun("Leeds");

/** A checkout page without JavaScript, filled in; `submit` posts it (a plain form post). */
async function openLateCheckout(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel("First Name").first().fill("Late");
  await page.getByLabel("Last Name").first().fill("Buyer");
  await page.getByLabel("Email").first().fill(uniqueEmail("dated-late"));
  await fillCheckoutAddress(page);
  return {
    page,
    submit: () => page.getByRole("button", { name: "Request Manual Invoice" }).click(),
  };
}

test("an admin opens a date with 4 places; invoices for 1 (without JavaScript) and 2 and a card payment for 1 fill it; a late post is refused", async ({
  page,
  browser,
}) => {
  await openDateAsAdmin(page, {
    courseTitle: COURSE_TITLE,
    inDays: 45,
    from: "09:30",
    to: "16:30",
    places: 4,
    venue: "Leeds Training Rooms",
    town: TOWN,
  });
  await expect(page.getByRole("cell", { name: COURSE_TITLE }).first()).toBeVisible();

  const visitor = await browser.newContext();
  const cardBuyer = await browser.newContext();
  const late = await browser.newContext({ javaScriptEnabled: false });
  try {
    // One place by invoice without JavaScript: the date's own checkout, a plain form post.
    const noScript = await late.newPage();
    await dateOnCoursePage(noScript, COURSE, TOWN, "4 places left");
    await noScript
      .getByTestId("course-date")
      .filter({ hasText: TOWN })
      .getByRole("link", { name: /Book this date/ })
      .click();
    const first = await openLateCheckout(late, noScript.url());
    await first.submit();
    await expect(first.page).toHaveURL(new RegExp(`/courses/${COURSE}/success\\?invoice=true`));

    // An invoice for 2 places, with JavaScript.
    const buyer = await visitor.newPage();
    await dateOnCoursePage(buyer, COURSE, TOWN, "3 places left");
    const booking = buyer.getByTestId("course-date").filter({ hasText: TOWN });
    await booking.getByRole("link", { name: /Book this date/ }).click();
    await expect(buyer).toHaveURL(new RegExp(`/courses/${COURSE}/checkout\\?date=`));
    const checkoutUrl = buyer.url();
    await expect(buyer.locator('input[name="enhanced"]')).toHaveCount(1);
    await expect(buyer.getByTestId("booking-date")).toContainText("09:30–16:30");
    await expect(buyer.getByTestId("booking-date")).toContainText(TOWN);
    // No more than the places left can be chosen.
    await buyer.getByRole("radio", { name: /Someone else/ }).check();
    await expect(buyer.getByLabel("Number of students").locator("option")).toHaveCount(3);
    await buyer.getByLabel("Number of students").selectOption("2");
    await fillBilling(buyer, uniqueEmail("dated-invoice"));
    await fillStudent(buyer, 1, "Grace", uniqueEmail("dated-student1"));
    await fillStudent(buyer, 2, "Alan", uniqueEmail("dated-student2"));
    await buyer.getByRole("button", { name: "Request Manual Invoice" }).click();
    await expect(buyer).toHaveURL(new RegExp(`/courses/${COURSE}/success\\?invoice=true`));

    // Someone opens the checkout without JavaScript while one place is left, and types; so does
    // someone with JavaScript.
    const lateAnswer = await openLateCheckout(late, checkoutUrl);
    const lateScripted = await openLateCheckout(visitor, checkoutUrl);
    await expect(lateScripted.page.locator('input[name="enhanced"]')).toHaveCount(1);
    await expect(lateScripted.page.getByTestId("date-fully-booked")).toHaveCount(0);

    // The last place by card.
    const payer = await cardBuyer.newPage();
    await dateOnCoursePage(payer, COURSE, TOWN, "1 place left");
    await payer.goto(checkoutUrl);
    await expect(payer.locator('input[name="enhanced"]')).toHaveCount(1);
    await fillBilling(payer, uniqueEmail("dated-card"));
    const [stripeTab] = await Promise.all([
      cardBuyer.waitForEvent("page"),
      payer.getByRole("button", { name: "Pay with Card" }).click(),
    ]);
    await stripeTab.waitForLoadState();
    await stripeTab.getByRole("button", { name: /^Pay £/ }).click();
    await expect(stripeTab.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();

    // Fully booked: no way to book the date is offered.
    await dateOnCoursePage(buyer, COURSE, TOWN, "Fully booked");
    await expect(
      buyer
        .getByTestId("course-date")
        .filter({ hasText: TOWN })
        .getByRole("link", { name: /Book this date/ }),
    ).toHaveCount(0);

    // The checkout opened without JavaScript before the card payment took the last place,
    // posted after it: refused on the page, nothing booked, what was typed kept.
    await lateAnswer.submit();
    await expect(lateAnswer.page.getByRole("alert")).toContainText("Fully Booked");
    // The way on: the date's waiting list.
    await expect(
      lateAnswer.page
        .getByTestId("date-fully-booked")
        .getByRole("link", { name: "Join the waiting list" }),
    ).toHaveAttribute("href", /\/waiting-list\?date=/);
    await expect(lateAnswer.page.getByLabel("First Name").first()).toHaveValue("Late");
    await expect(lateAnswer.page.getByTestId("booking-date")).toContainText(TOWN);

    // With JavaScript: the same refusal, then the page reads its places again and shows the way
    // to the waiting list, with what was typed still in the form.
    await lateScripted.submit();
    await expect(lateScripted.page.getByText("Fully Booked").first()).toBeVisible();
    await expect(
      lateScripted.page
        .getByTestId("date-fully-booked")
        .getByRole("link", { name: "Join the waiting list" }),
    ).toBeVisible();
    await expect(lateScripted.page.getByLabel("First Name").first()).toHaveValue("Late");
    await expect(lateScripted.page).toHaveURL(/\/checkout\?date=/);
  } finally {
    await visitor.close();
    await cardBuyer.close();
    await late.close();
  }
});
