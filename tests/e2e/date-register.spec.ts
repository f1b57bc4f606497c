import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { uniqueEmail } from "#tests/support/checkout-page.ts";
import {
  bookDateByInvoice,
  dateCheckoutUrl,
  laterToday,
  openDateAsAdmin,
  townOfThisRun,
} from "#tests/support/course-dates-page.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * A date's register on a tablet (decision 0035): a date starting later today is booked for three
 * places (a buyer attending and two students); the admin, on a 768 px wide screen, opens its
 * register from the Dates screen, marks each place by touch, saves, and finds the marks kept;
 * the sign-in sheet and the CSV download with every name.
 */

/** A demo course no other spec books (£895.00, no partner). */
const COURSE = "dark-web-investigations-for-fraud-teams";
const COURSE_TITLE = "Dark Web Investigations for Fraud Teams";
const TOWN = townOfThisRun("Leeds");

test.use({ viewport: { width: 768, height: 1024 }, hasTouch: true });

test("staff mark attendance on a tablet and download the register", async ({
  page,
  browser,
  request,
}) => {
  const today = laterToday(20);
  test.skip(!today, "no date can start later today in the last minutes of the UK day");
  await openDateAsAdmin(page, {
    courseTitle: COURSE_TITLE,
    inDays: 0,
    on: today!.on,
    from: today!.from,
    to: "23:55",
    places: 5,
    venue: "Leeds Training Rooms",
    town: TOWN,
  });

  const checkoutUrl = await dateCheckoutUrl(browser, COURSE, TOWN, "5 places left");
  await bookDateByInvoice(request, checkoutUrl, uniqueEmail("register-group"), 2);
  await bookDateByInvoice(request, checkoutUrl, uniqueEmail("register-self"), 1);

  await page.goto("/admin/dates");
  const row = page.getByRole("row").filter({ hasText: TOWN });
  await row.getByRole("link", { name: /^Register for/ }).click();
  await expect(page.getByRole("heading", { name: "Register" })).toBeVisible();
  await expect(page.getByText(/3 of 5 places booked, 0 marked/)).toBeVisible();
  const places = page.getByTestId("register-place");
  await expect(places).toHaveCount(3);
  // Nothing wider than the tablet's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);

  const group = (name: string) => page.getByRole("group", { name: `Attendance of ${name}` });
  await group("Student0 Smith").getByText("Present").tap();
  await group("Student1 Smith").getByText("Partial").tap();
  await group("Booker Buyer").getByText("Absent").tap();
  await page.getByRole("button", { name: "Save attendance" }).tap();
  await expect(page.getByText("Attendance saved: 1 Present, 1 Absent, 1 Partial")).toBeVisible();

  await page.reload();
  await expect(page.getByText(/3 of 5 places booked, 3 marked/)).toBeVisible();
  await expect(group("Student0 Smith").getByRole("radio", { name: "Present" })).toBeChecked();
  await expect(group("Student1 Smith").getByRole("radio", { name: "Partial" })).toBeChecked();
  await expect(group("Booker Buyer").getByRole("radio", { name: "Absent" })).toBeChecked();

  const [sheet] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Sign-in sheet (PDF)" }).click(),
  ]);
  expect(sheet.suggestedFilename()).toBe(`sign-in-sheet-${today!.on}.pdf`);
  const printed = await pdfText(readFileSync((await sheet.path())!));
  for (const words of [COURSE_TITLE, "Student0 Smith", "Student1 Smith", "Booker Buyer", TOWN]) {
    expect(printed).toContain(words);
  }
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const text = readFileSync((await csv.path())!, "utf8");
  expect(text).toMatch(/Student0 Smith,.*,present\r?\n/);
  expect(text).toMatch(/Booker Buyer,.*,absent\r?\n/);
});
