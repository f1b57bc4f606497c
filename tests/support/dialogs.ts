import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Closes a modal dialog with Escape, as a keyboard user does. The dialog listens for keys
 * from the same effect that moves the focus into it, so a key pressed the moment its text
 * shows can be lost on a busy machine: wait for the focus first, then check it closed.
 */
export async function closeWithEscape(page: Page, dialog: Locator): Promise<void> {
  await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
}
