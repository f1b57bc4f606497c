import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { toUkWallTime } from "#app/lib/catalogue/course-date-form.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { uniqueEmail } from "#tests/support/checkout-page.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * Course dates in the browser (decision 0033): a date opened by the admin on the Dates screen,
 * and a date's entry on its course page as a visitor sees it. Each spec gives its date a town of
 * its own, so a retried test reads only the date it made.
 */

/** A town no other run uses: `prefix` and a few characters of the time. */
export const townOfThisRun = (prefix: string) => `${prefix} ${Date.now().toString(36).slice(-5)}`;

/** A `datetime-local` value `days` from now at `time` (the form reads it as UK time). */
export function localDay(days: number, time: string): string {
  const day = new Date(Date.now() + days * 24 * 3600_000);
  return `${day.toISOString().slice(0, 10)}T${time}`;
}

/**
 * Today in the UK ('YYYY-MM-DD') and a start at least `minutes` from now on it ('HH:MM', on a
 * five-minute mark); null in the last minutes of the UK day, when no such start is left today.
 */
export function laterToday(minutes: number): { on: string; from: string } | null {
  const now = new Date();
  const start = new Date(Math.ceil((now.getTime() + minutes * 60_000) / 300_000) * 300_000);
  const [today] = toUkWallTime(now).split("T");
  const [day, time] = toUkWallTime(start).split("T");
  return day === today && time! <= "23:30" ? { on: day!, from: time! } : null;
}

/** Signs in and opens a classroom date with the New date dialog of the Dates screen. */
export async function openDateAsAdmin(
  page: Page,
  date: {
    courseTitle: string;
    /** Days from now, or `on` a UK day ('YYYY-MM-DD'). */
    inDays: number;
    on?: string;
    from: string;
    to: string;
    places: number;
    venue: string;
    town: string;
  },
): Promise<void> {
  const at = (time: string) => (date.on ? `${date.on}T${time}` : localDay(date.inDays, time));
  await signInAsAdmin(page);
  await page.goto("/admin/dates");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByRole("button", { name: "New date" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Course").selectOption({ label: date.courseTitle });
  await dialog.getByLabel("Starts").fill(at(date.from));
  await dialog.getByLabel("Ends").fill(at(date.to));
  await dialog.getByLabel("Format").selectOption("classroom");
  await dialog.getByLabel("Places").fill(String(date.places));
  await dialog.getByLabel("Venue", { exact: true }).fill(date.venue);
  await dialog.getByLabel("Town").fill(date.town);
  await dialog.getByRole("button", { name: "Create Date" }).click();
  await expectToast(page, "Success", "Date created successfully");
}

/**
 * The course page's entry for the date in `town`, once it says `placesLeft` (pages are cached
 * for a few seconds, so it is reloaded until then).
 */
export async function dateOnCoursePage(
  page: Page,
  course: string,
  town: string,
  placesLeft: string,
) {
  const entry = page.getByTestId("course-date").filter({ hasText: town });
  await expect
    .poll(
      async () => {
        await page.goto(`/courses/${course}`);
        return entry.getByTestId("places-left").textContent();
      },
      { timeout: 20_000, intervals: [500, 1000, 2000] },
    )
    .toBe(placesLeft);
  return entry;
}

/**
 * The checkout address of a date's "Book this date" link on its course page, as a visitor
 * without JavaScript sees it (showing `placesLeft`), for bookDateByInvoice.
 */
export async function dateCheckoutUrl(
  browser: Browser,
  course: string,
  town: string,
  placesLeft: string,
): Promise<string> {
  const visitor = await browser.newContext({ javaScriptEnabled: false });
  try {
    const entry = await dateOnCoursePage(await visitor.newPage(), course, town, placesLeft);
    const href = await entry.getByRole("link", { name: /Book this date/ }).getAttribute("href");
    return new URL(href!, entry.page().url()).toString();
  } finally {
    await visitor.close();
  }
}

/**
 * Books `places` of a date by invoice, as a browser without JavaScript posts the checkout at
 * `checkoutUrl` (the date's "Book this date" link): one place for the booker, more for students
 * Student0 Smith, Student1 Smith, …
 */
export async function bookDateByInvoice(
  request: APIRequestContext,
  checkoutUrl: string,
  email: string,
  places: number,
) {
  const form: Record<string, string> = {
    intent: "invoice",
    firstName: "Booker",
    lastName: "Buyer",
    email,
    ...BILLING_FORM,
    studentMode: places === 1 ? "self" : "others",
    quantity: String(places),
    courseDateId: new URL(checkoutUrl).searchParams.get("date")!,
  };
  for (let i = 0; i < places; i++) {
    form[`students[${i}].firstName`] = `Student${i}`;
    form[`students[${i}].lastName`] = "Smith";
    form[`students[${i}].email`] = uniqueEmail(`student${i}`);
  }
  const response = await request.post(checkoutUrl, { form, maxRedirects: 0 });
  expect(response.status(), await response.text()).toBe(303);
}
