import { expect, test, type Page } from "@playwright/test";

/**
 * Hydration on interaction (app/lib/hydration.ts, server/hydration.server.ts, decision 0008):
 * the home page is sent without the framework, works as plain HTML, and fetches the framework
 * and hydrates only when the visitor starts to use a form, a button or the mobile menu.
 */

const FRAMEWORK = /\/assets\/(framework|entry\.client|root|site|home)-[\w-]+\.js$/;

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
  return { scripts, errors, framework: () => scripts.filter((s) => FRAMEWORK.test(s)) };
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

test.describe("home page: hydration on interaction", () => {
  test("reading the page fetches no framework; the particles still run", async ({ page }) => {
    const seen = watch(page);
    const response = await page.goto("/");
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('type="text/x-deferred-module"');
    await page.waitForLoadState("networkidle");
    // The particle field starts when the browser is idle, without React.
    await expect(page.locator("[data-particles] canvas")).toHaveCount(1);
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(500);
    expect(seen.framework()).toEqual([]);
    expect(seen.scripts.every((s) => /\/assets\/particle-field-[\w-]+\.js$/.test(s))).toBe(true);
    expect(await hydrated(page)).toBe(false);
    // Links are plain links: following one loads the next page, which hydrates on load.
    await page.getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.errors).toEqual([]);
  });

  test("focusing the enquiry form hydrates it; what was typed is kept and sent", async ({
    page,
  }) => {
    const seen = watch(page);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(seen.framework()).toEqual([]);

    const name = page.locator("#contact-form-name");
    await name.click();
    await name.pressSequentially("Grace Hopper");
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.framework().length).toBeGreaterThanOrEqual(5);
    await expect(name).toHaveValue("Grace Hopper");
    await expect(name).toBeFocused();
    // One field, not two: hydration took over the canvas the page had already drawn.
    await expect(page.locator("canvas")).toHaveCount(1);

    await page.locator("#contact-form-email").fill("grace@example.com");
    await page
      .locator("#contact-form-message")
      .fill("We would like to hear about dark web monitoring for a building society.");
    await page.getByRole("button", { name: "Send Message" }).click();
    const toast = page
      .getByRole("region", { name: /Notifications/ })
      .getByRole("listitem")
      .filter({ hasText: "Message sent successfully!" });
    await expect(toast).toBeVisible();
    await expect(name).toHaveValue("");
    expect(seen.errors).toEqual([]);
  });

  test("the Training menu opens by CSS before hydration and stays open once hydrated", async ({
    page,
  }) => {
    const seen = watch(page);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const nav = page.getByRole("navigation", { name: "Main" });
    const trigger = nav.getByRole("button", { name: "Training" });
    const panel = page.locator(`#${await trigger.getAttribute("aria-controls")}`);

    await trigger.hover();
    await expect(panel).toBeVisible();
    expect(await hydrated(page)).toBe(false);

    // Pressing the button fetches the framework; the panel the visitor is using stays open.
    await trigger.click();
    await expect.poll(() => hydrated(page)).toBe(true);
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await expect(panel).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    expect(seen.errors).toEqual([]);
  });

  test("the mobile menu opens before hydration and reads 'Close menu' once hydrated", async ({
    page,
  }) => {
    const seen = watch(page);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Open menu").click();
    const mobileNav = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobileNav).toBeVisible();
    await expect.poll(() => hydrated(page)).toBe(true);
    await expect(page.getByLabel("Close menu")).toBeVisible();
    await expect(mobileNav).toBeVisible();
    expect(seen.errors).toEqual([]);
  });

  test("a form posted before the framework arrives is still taken", async ({ browser }) => {
    // No scripts at all: the plain form post is what a visitor gets until hydration.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await page.locator("#contact-form-name").fill("Alan Turing");
    await page.locator("#contact-form-email").fill("alan@example.com");
    await page
      .locator("#contact-form-message")
      .fill("Please send details of your counter fraud training courses.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
    await context.close();
  });

  test("no particle code is fetched when the visitor prefers reduced motion", async ({
    browser,
  }) => {
    const context = await browser.newContext({ reducedMotion: "reduce" });
    const page = await context.newPage();
    const seen = watch(page);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(1500);
    expect(seen.scripts).toEqual([]);
    await expect(page.locator("canvas")).toHaveCount(0);
    await context.close();
  });

  test("other pages hydrate without being touched", async ({ page }) => {
    const seen = watch(page);
    await page.goto("/about");
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.framework().length).toBeGreaterThan(0);
    expect(seen.errors).toEqual([]);
  });
});

test.describe("public pages: hydration after the first paint", () => {
  /** Holds the framework back for a while, so the visitor acts before the page is hydrated. */
  async function slowFramework(page: Page, ms: number) {
    await page.route(/\/assets\/framework-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.continue();
    });
  }

  test("the scripts are fetched after the page is on screen, without preloads", async ({
    page,
  }) => {
    const seen = watch(page);
    const response = await page.goto("/courses/introduction-to-counter-fraud");
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('type="text/x-deferred-module"');
    // Nobody touches the page: it hydrates by itself.
    await expect.poll(() => hydrated(page)).toBe(true);
    expect(seen.framework().length).toBeGreaterThanOrEqual(3);
    expect(seen.errors).toEqual([]);
  });

  test("a dialog trigger clicked before hydration opens the dialog once it is there", async ({
    page,
  }) => {
    const seen = watch(page);
    await slowFramework(page, 1500);
    await page.goto("/courses/introduction-to-counter-fraud");
    expect(await hydrated(page)).toBe(false);
    await page.getByRole("button", { name: "Book a Classroom Class" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    // Opened by React, not by the plain-HTML fallback (a reload with ?quote=…).
    expect(new URL(page.url()).search).toBe("");
    expect(seen.errors).toEqual([]);
  });

  test("a form posted before hydration is posted by React once it is there", async ({ page }) => {
    const seen = watch(page);
    await slowFramework(page, 1500);
    await page.goto("/about");
    expect(await hydrated(page)).toBe(false);
    const form = page.locator("form#newsletter-form");
    await form.getByLabel("Email address").fill(`early-${Date.now()}@example.com`);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(
      page
        .getByRole("region", { name: /Notifications/ })
        .getByText("Successfully Subscribed!", { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/about$/);
    expect(seen.errors).toEqual([]);
  });

  test("if the scripts cannot load, a form is posted the plain way", async ({ page }) => {
    await page.route(/\/assets\/framework-[\w-]+\.js$/, (route) => route.abort());
    await page.goto("/about");
    const form = page.locator("form#newsletter-form");
    await form.getByLabel("Email address").fill(`plain-${Date.now()}@example.com`);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(page).toHaveURL(/\/newsletter$/);
    await expect(page.getByRole("status")).toContainText("Successfully Subscribed!");
  });
});
