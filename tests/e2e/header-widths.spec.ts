import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The header at every width (decision 0023): no sideways scroll from 320 to 1920 px, labels on
 * one line each. Below 1280 px the links are in the toggle menu (its Admin link only below
 * 768 px, as the spec says); from 1280 px they sit in a row. A keyboard pass and a mouse pass at
 * each width, over the public layout's every page kind served by "/".
 */

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const width of [320, 768, 834, 1024]) {
  test.describe(`at ${width} px: the toggle menu`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("keyboard and mouse reach every link; nothing scrolls sideways", async ({ page }) => {
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      expect(await noSidewaysScroll(page)).toBe(true);
      await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();

      // Keyboard: the toggle opens with Enter, its links are there, Escape closes it.
      const toggle = page.getByLabel("Open menu");
      await toggle.focus();
      await page.keyboard.press("Enter");
      const menu = page.getByRole("navigation", { name: "Mobile" });
      await expect(menu).toBeVisible();
      for (const name of ["Home", "Dark Web Monitoring", "Training", "Contact"]) {
        await expect(menu.getByText(name, { exact: true }).first()).toBeVisible();
      }
      if (width < 768) await expect(menu.getByRole("link", { name: "Admin" })).toBeVisible();
      else await expect(menu.getByRole("link", { name: "Admin" })).toBeHidden();
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();

      // Mouse: open, follow a link; the menu closes on the way.
      await page.getByLabel("Open menu").click();
      await menu.getByRole("link", { name: "About" }).click();
      await expect(page).toHaveURL(/\/about$/);
      await expect(menu).toBeHidden();
      expect(await noSidewaysScroll(page)).toBe(true);
    });
  });
}

for (const width of [1280, 1920]) {
  test.describe(`at ${width} px: the links in a row`, () => {
    test.use({ viewport: { width, height: 900 } });

    test("each label on one line, Contact in view; keyboard and mouse open Training", async ({
      page,
    }) => {
      await page.goto("/");
      await page.waitForLoadState("networkidle");
      expect(await noSidewaysScroll(page)).toBe(true);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav).toBeVisible();
      await expect(page.getByLabel("Open menu")).toBeHidden();
      const lineHeights = await nav
        .locator(":scope > a, :scope > div > button")
        .evaluateAll((items) =>
          items.map((el) => {
            const style = getComputedStyle(el);
            const lines = Math.round(
              (el.getBoundingClientRect().height -
                parseFloat(style.paddingTop) -
                parseFloat(style.paddingBottom)) /
                parseFloat(style.lineHeight),
            );
            return `${el.textContent?.trim()}: ${lines}`;
          }),
        );
      for (const entry of lineHeights) expect(entry).toMatch(/: 1$/);
      const contact = (await nav.getByRole("link", { name: "Contact" }).boundingBox())!;
      expect(contact.x + contact.width).toBeLessThanOrEqual(width);

      // Keyboard: Training opens with Enter and closes with Escape.
      const trigger = nav.getByRole("button", { name: "Training" });
      await trigger.focus();
      await page.keyboard.press("Enter");
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      expect(await noSidewaysScroll(page)).toBe(true);
      await page.keyboard.press("Escape");
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
      // Mouse: hovering opens it; a course in it can be followed.
      await trigger.hover();
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      await nav.getByRole("link", { name: "All Training Courses" }).click();
      await expect(page).toHaveURL(/\/services\/counter-fraud-training$/);
    });
  });
}

test("the Training menu lists every published course of the catalogue", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/services/counter-fraud-training");
  const catalogue = await page
    .locator("main a[href^='/courses/']")
    .evaluateAll((links) => [
      ...new Set(
        links.map((a) => a.getAttribute("href")!).filter((h) => /^\/courses\/[^/]+$/.test(h)),
      ),
    ]);
  expect(catalogue.length).toBeGreaterThan(8);
  const menu = await page
    .getByRole("navigation", { name: "Main" })
    .locator("a[href^='/courses/']")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  expect(new Set(menu)).toEqual(new Set(catalogue));
  await expect(page.getByText(/ more .* course/)).toHaveCount(0);
});
