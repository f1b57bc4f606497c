import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * Every page hydrates the standard React Router way: its scripts load with it, with no
 * console error or CSP violation (the shared pages' scripts are allowed by hash), and the hero
 * particles start once the browser is idle — never for a visitor who prefers reduced motion.
 */

/** Script files the page fetched, and its console errors and CSP violations, as they happen. */
function watch(page: Page) {
  const scripts: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { scripts, errors };
}

/** React Router has hydrated when its router exists in the page. */
const hydrated = (page: Page) =>
  page.evaluate(
    () => "__reactRouterDataRouter" in window && Boolean(window.__reactRouterDataRouter),
  );

declare global {
  interface Window {
    __reactRouterDataRouter?: unknown;
  }
}

for (const path of [
  "/",
  "/services/counter-fraud-training",
  "/courses/introduction-to-counter-fraud",
]) {
  test(`${path} hydrates on load, untouched, with no error or CSP violation`, async ({ page }) => {
    const seen = watch(page);
    await page.goto(path);
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.scripts.some((s) => /\/assets\/entry\.client-[\w-]+\.js$/.test(s))).toBe(true);
    // A second visit may be answered from the page cache: the same policy must hold.
    await page.reload();
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.errors).toEqual([]);
  });
}

test("the home page's particles start once the browser is idle", async ({ page }) => {
  const seen = watch(page);
  await page.goto("/");
  await expect(page.locator("[data-particles] canvas")).toHaveCount(1);
  expect(seen.scripts.some((s) => /\/assets\/particle-field-[\w-]+\.js$/.test(s))).toBe(true);
  expect(seen.errors).toEqual([]);
});

test("no particle code is fetched when the visitor prefers reduced motion", async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: "reduce" });
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto("/");
  await expect.poll(() => hydrated(page)).toBe(true);
  await page.waitForTimeout(1500);
  expect(seen.scripts.filter((s) => /particle-field/.test(s))).toEqual([]);
  await expect(page.locator("canvas")).toHaveCount(0);
  await context.close();
});
