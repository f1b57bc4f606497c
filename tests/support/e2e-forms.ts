import { expect, type Page } from "@playwright/test";

/** The toast on screen shows exactly this title and description. */
export async function expectToast(page: Page, title: string, description: string) {
  const region = page.getByRole("region", { name: /Notifications/ });
  await expect(region.getByText(title, { exact: true })).toBeVisible();
  await expect(region.getByText(description, { exact: true })).toBeVisible();
}
