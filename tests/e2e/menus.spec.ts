import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The header's menus fit the screen they are on (decision 0023).
 *
 * - Desktop: the Training panel lays its groups out in columns, wide enough not to scroll inside
 *   itself, within the window at 1366 and at 1280 px (below, the toggle menu); 'All Training Courses' (top row) and
 *   'Custom Training Quote' (bottom row) always show.
 * - Phone: Training is a section of its own, closed until asked for, so the links after it stay
 *   on the first screen; every row is at least 44 px tall. Both work without JavaScript.
 */

/** A box against the window: inside it, and (for the header's panel) below the header. */
async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, "the element is laid out").not.toBeNull();
  return b!;
}

async function expectInWindow(page: Page, locator: Locator) {
  await expect(locator).toBeVisible();
  const b = await box(locator);
  const size = page.viewportSize()!;
  expect(b.x, "left edge in the window").toBeGreaterThanOrEqual(0);
  expect(b.y, "top edge in the window").toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, "right edge in the window").toBeLessThanOrEqual(size.width);
  expect(b.y + b.height, "bottom edge in the window").toBeLessThanOrEqual(size.height);
}

/** The panel and every element in it that could scroll: none does. */
const innerScrolls = (panel: Locator) =>
  panel.evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll("*"))]
      .filter((el) => el.scrollHeight > el.clientHeight + 1)
      .filter((el) => {
        const overflow = getComputedStyle(el).overflowY;
        return overflow === "auto" || overflow === "scroll";
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  );

function desktopTraining(page: Page) {
  const trigger = page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Training" });
  const panel = page.locator("nav[aria-label='Main'] [id]", {
    has: page.getByRole("link", { name: "All Training Courses" }),
  });
  return { trigger, panel };
}

/** Checks the open desktop panel: no inner scroll, every group and both fixed rows in view. */
async function expectWholePanel(page: Page, panel: Locator) {
  await expect(panel).toBeVisible();
  expect(await innerScrolls(panel)).toEqual([]);
  await expectInWindow(page, panel);
  const header = await box(page.locator("header"));
  expect((await box(panel)).y).toBeGreaterThanOrEqual(header.y + header.height - 1);

  // Both fixed rows, and each group's heading and links.
  await expectInWindow(page, panel.getByRole("link", { name: "All Training Courses" }));
  await expectInWindow(page, panel.getByRole("link", { name: "Custom Training Quote" }));
  await expect(panel.getByRole("link", { name: "Custom Training Quote" })).toHaveAttribute(
    "href",
    "/quote?service=counter-fraud-training",
  );
  for (const heading of ["NightWatch Exclusive", "Cifas", "Harbourside Counter Fraud Academy"]) {
    await expectInWindow(page, panel.getByText(heading, { exact: true }));
  }
  for (const link of await panel.getByRole("link").all()) await expectInWindow(page, link);

  // Groups side by side: Cifas's column starts to the right of the exclusive one.
  const exclusive = await box(panel.getByText("NightWatch Exclusive", { exact: true }));
  const cifas = await box(panel.getByText("Cifas", { exact: true }));
  expect(cifas.x).toBeGreaterThan(exclusive.x + exclusive.width - 1);
}

for (const width of [1366, 1280]) {
  test.describe(`desktop Training panel at ${width}×768`, () => {
    test.use({ viewport: { width, height: 768 } });

    test("opened, it shows every group in columns with no scroll inside it", async ({ page }) => {
      await page.goto("/");
      // Before scripts run the panel is CSS's; nothing done then is carried over (site-header).
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const { trigger, panel } = desktopTraining(page);
      await trigger.click();
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      await expectWholePanel(page, panel);
      // The spec's order: all courses first, the quote last.
      const links = await panel.getByRole("link").allTextContents();
      expect(links[0]).toBe("All Training Courses");
      expect(links.at(-1)).toBe("Custom Training Quote");

      // Escape closes it and focus goes back to the trigger.
      await panel.getByRole("link", { name: "All Training Courses" }).focus();
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
      await expect(trigger).toBeFocused();
    });

    test("a mouse moves from the trigger down into the panel without it closing", async ({
      page,
    }) => {
      await page.goto("/");
      // A hover before the page's scripts run is CSS's, and is not carried over (site-header):
      // hover once they have taken over.
      await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
      const { trigger, panel } = desktopTraining(page);
      await trigger.hover();
      await expect(panel).toBeVisible();
      const quote = await box(panel.getByRole("link", { name: "Custom Training Quote" }));
      // In small steps, through the space between the trigger and the panel's edge.
      await page.mouse.move(quote.x + 10, quote.y + quote.height / 2, { steps: 25 });
      await expect(panel).toBeVisible();
      await panel.getByRole("link", { name: "Custom Training Quote" }).click();
      await expect(page).toHaveURL(/\/quote\?service=counter-fraud-training$/);
    });
  });
}

test.describe("desktop Training panel without JavaScript", () => {
  test.use({ viewport: { width: 1280, height: 768 }, javaScriptEnabled: false });

  test("hovering shows the whole panel, and a link in it can be followed", async ({ page }) => {
    await page.goto("/");
    const { trigger, panel } = desktopTraining(page);
    await expect(panel).toBeHidden();
    await trigger.hover();
    await expectWholePanel(page, panel);
    const quote = await box(panel.getByRole("link", { name: "Custom Training Quote" }));
    await page.mouse.move(quote.x + 10, quote.y + quote.height / 2, { steps: 25 });
    await expect(panel).toBeVisible();
    await page.mouse.move(5, 700);
    await expect(panel).toBeHidden();

    // The keyboard reaches it too: focus in it shows it.
    await trigger.focus();
    await expect(panel).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link", { name: "All Training Courses" })).toBeFocused();
    await panel.getByRole("link", { name: "All Training Courses" }).press("Enter");
    await expect(page).toHaveURL(/\/services\/counter-fraud-training$/);
  });
});

/** The phone menu's rows (links and toggles) that are on screen. */
const mobileRows = (page: Page) =>
  page.locator("header details summary, nav[aria-label='Mobile'] a").filter({ visible: true });

async function expectTallEnough(page: Page) {
  const rows = await mobileRows(page).all();
  expect(rows.length).toBeGreaterThan(8);
  for (const row of rows) {
    const height = (await box(row)).height;
    expect(height, `${await row.textContent()} is at least 44 px tall`).toBeGreaterThanOrEqual(44);
  }
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`phone menu at 375×667${javaScriptEnabled ? "" : " without JavaScript"}`, () => {
    test.use({ viewport: { width: 375, height: 667 }, javaScriptEnabled });

    test("Training starts closed, the other sections are on the first screen, rows ≥ 44 px", async ({
      page,
    }) => {
      await page.goto("/");
      if (javaScriptEnabled) await page.waitForLoadState("networkidle");
      await page.getByLabel("Open menu").click();
      const mobile = page.getByRole("navigation", { name: "Mobile" });
      await expect(mobile).toBeVisible();
      const training = mobile.locator("summary", { hasText: "Training" });
      await expect(training).toBeVisible();
      await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeHidden();
      for (const name of [
        "Home",
        "Dark Web Monitoring",
        "Security Consultancy",
        "File Interrogator",
        "About",
        "Contact",
        "Admin",
      ]) {
        await expectInWindow(page, mobile.getByRole("link", { name, exact: true }));
      }
      expect(await mobile.evaluate((nav) => nav.scrollTop)).toBe(0);
      await expectTallEnough(page);

      // Opened, it lists the courses in the spec's order, each row tall enough to tap.
      await training.click();
      await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeVisible();
      await expect(
        mobile.getByRole("link", { name: "OSINT Investigations Masterclass" }),
      ).toBeVisible();
      await expect(
        mobile.getByRole("link", { name: "- Cifas Fraud Prevention Essentials" }),
      ).toBeVisible();
      await expect(mobile.getByRole("link", { name: "Custom Training Quote" })).toBeVisible();
      await expectTallEnough(page);

      // A course link leads to its page; the menu closes.
      await mobile.getByRole("link", { name: "OSINT Investigations Masterclass" }).click();
      await expect(page).toHaveURL(/\/courses\/osint-investigations-masterclass$/);
      await expect(mobile).toBeHidden();
      if (javaScriptEnabled) {
        // Opened again, Training is closed again.
        await page.getByLabel("Open menu").click();
        await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeHidden();
      }
    });
  });
}

test.describe("phone menu, keyboard", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test("Enter opens Training; Escape inside it closes the menu and focus goes to the toggle", async ({
    page,
  }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.getByLabel("Open menu").click();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    const training = mobile.locator("summary", { hasText: "Training" });
    await training.focus();
    await page.keyboard.press("Enter");
    await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(mobile).toBeHidden();
    await expect(page.getByLabel("Open menu")).toBeFocused();
    // Its label says 'Open menu' again: the inner section's toggling did not confuse it.
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Close menu")).toBeVisible();
    await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeHidden();
  });
});
