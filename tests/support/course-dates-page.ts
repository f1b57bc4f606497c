import { expect, type Page } from "@playwright/test";
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

/** Signs in and opens a classroom date with the New date dialog of the Dates screen. */
export async function openDateAsAdmin(
  page: Page,
  date: {
    courseTitle: string;
    inDays: number;
    from: string;
    to: string;
    places: number;
    venue: string;
    town: string;
  },
): Promise<void> {
  await signInAsAdmin(page);
  await page.goto("/admin/dates");
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await page.getByRole("button", { name: "New date" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Course").selectOption({ label: date.courseTitle });
  await dialog.getByLabel("Starts").fill(localDay(date.inDays, date.from));
  await dialog.getByLabel("Ends").fill(localDay(date.inDays, date.to));
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
