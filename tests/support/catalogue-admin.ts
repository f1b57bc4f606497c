import { expect, type Locator, type Page } from "@playwright/test";

/**
 * The admin catalogue screens in Chromium: an image to upload, names no other test uses, table
 * rows, the delete confirmation, and the public catalogue page as a visitor gets it.
 */

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
export const png = (name: string) => ({ name, mimeType: "image/png", buffer: PNG });

export const CATALOGUE = "/services/counter-fraud-training";

export function unique(label: string) {
  return `${label} ${Date.now().toString(36)}`;
}

export function row(page: Page, text: string): Locator {
  return page.getByRole("row").filter({ hasText: text });
}

/** Opens the delete confirmation of a row, checks its text, and cancels or confirms. */
export async function confirmDelete(
  page: Page,
  name: string,
  question: string,
  answer: "Cancel" | "Delete",
) {
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toHaveText(question);
  await dialog.getByRole("button", { name: answer }).click();
  await expect(dialog).toBeHidden();
}

export async function publicCatalogueTitles(page: Page): Promise<string> {
  const response = await page.request.get(CATALOGUE);
  expect(response.status()).toBe(200);
  return response.text();
}
