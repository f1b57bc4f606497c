import { expect, type Page } from "@playwright/test";
import { holdScripts } from "#tests/support/e2e-fixtures.ts";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The header's menus for keyboard and mouse users, before and after the page is hydrated.
 *
 * - Training (desktop): before scripts run, CSS shows the panel while the pointer is over it or
 *   focus is in it, so tabbing past it closes it by itself. Once hydrated, Enter, Space or a
 *   click on the trigger opens it (and hovering, for a mouse); focus leaving it or Escape closes
 *   it, and `aria-expanded` says which.
 * - Mobile (< 768 px): a `<details>`, with Training a `<details>` of its own inside it; Escape
 *   and any link click close it.
 */

declare global {
  interface Window {
    __reactRouterDataRouter?: unknown;
    /** Set by watchReact: when React last committed, and how many times it did. */
    __reactCommits?: { count: number; last: number };
  }
}

/**
 * Lets the test see React's commits, through the hook React offers its developer tools (it is
 * read once, when React DOM loads, in production builds too). Call before page.goto.
 */
async function watchReact(page: Page) {
  await page.addInitScript(() => {
    const commits = { count: 0, last: 0 };
    const seen = () => {
      commits.count += 1;
      commits.last = performance.now();
    };
    window.__reactCommits = commits;
    Object.assign(window, {
      __REACT_DEVTOOLS_GLOBAL_HOOK__: {
        supportsFiber: true,
        inject: () => 1,
        onCommitFiberRoot: seen,
        onPostCommitFiberRoot: seen,
        onCommitFiberUnmount: () => {},
      },
    });
  });
}

/** React Router has hydrated the page, and React has had nothing left to render for a while. */
async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () => {
      const commits = window.__reactCommits;
      return (
        Boolean(window.__reactRouterDataRouter) &&
        commits !== undefined &&
        commits.count > 0 &&
        performance.now() - commits.last > 250
      );
    },
    null,
    { polling: 50, timeout: 15_000 },
  );
}

const isHydrated = (page: Page) =>
  page.evaluate(
    () => Boolean(window.__reactRouterDataRouter) || Boolean(window.__reactCommits?.count),
  );

/**
 * Makes the page hydrate and waits for it. A page that loads its scripts at once needs nothing;
 * a page that waits for its visitor starts them on focus in a form. Focus goes back to the top.
 */
async function hydrate(page: Page) {
  await page.locator("main form input:not([type=hidden])").first().focus();
  await waitForHydration(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

function training(page: Page) {
  const trigger = page.getByRole("navigation", { name: "Main" }).getByRole("button", {
    name: "Training",
  });
  const panel = page.locator("nav[aria-label='Main'] [id]", {
    has: page.getByRole("link", { name: "All Training Courses" }),
  });
  return { trigger, panel };
}

/** Where keyboard focus is: in `main`, on the Training trigger, or elsewhere (its text). */
const focusNow = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      inMain: Boolean(el?.closest("main")),
      onTrigger:
        el instanceof HTMLButtonElement &&
        el.closest("nav")?.getAttribute("aria-label") === "Main" &&
        el.hasAttribute("aria-controls"),
      text: el?.textContent?.trim() ?? "",
    };
  });

/**
 * From the top of the page, presses Tab until focus is in the page's main content. `onTrigger`
 * runs once, when the Training trigger has focus.
 */
async function tabIntoMain(page: Page, onTrigger?: () => Promise<void>) {
  await page.getByRole("link", { name: "Skip to content" }).focus();
  let sawTrigger = false;
  for (let stop = 0; stop < 120; stop++) {
    await page.keyboard.press("Tab");
    const focus = await focusNow(page);
    if (focus.inMain) {
      expect(sawTrigger, "the walk passes the Training trigger").toBe(true);
      return;
    }
    if (focus.onTrigger && !sawTrigger) {
      sawTrigger = true;
      await onTrigger?.();
    }
  }
  throw new Error("Tab never took focus into the main content");
}

test.describe("Training menu (desktop)", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("after hydration, a Training menu opened with Enter closes as focus tabs on into the page", async ({
    page,
  }) => {
    await watchReact(page);
    await page.goto("/");
    await hydrate(page);
    const { trigger, panel } = training(page);

    await tabIntoMain(page, async () => {
      // Focus alone does not open it once scripts run; Enter does.
      await expect(trigger).toHaveAttribute("aria-expanded", "false");
      await expect(panel).toBeHidden();
      await page.keyboard.press("Enter");
      await expect(trigger).toHaveAttribute("aria-expanded", "true");
      await expect(panel).toBeVisible();
      // Its links come next in the tab order.
      await page.keyboard.press("Tab");
      await expect(panel.getByRole("link", { name: "All Training Courses" })).toBeFocused();
    });

    await expect(panel).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
  });

  test("before hydration, tabbing through the header leaves the Training menu closed, and it stays closed once hydrated", async ({
    page,
  }) => {
    await watchReact(page);
    const release = await holdScripts(page);
    await page.goto("/", { waitUntil: "commit" });
    const { trigger, panel } = training(page);
    await expect(trigger).toBeVisible();

    await tabIntoMain(page, async () => {
      // CSS shows the panel while focus is in it, so its links can be reached.
      await expect(panel).toBeVisible();
      await page.keyboard.press("Tab");
      await expect(panel.getByRole("link", { name: "All Training Courses" })).toBeFocused();
    });
    await expect(panel).toBeHidden();

    // The pointer opens it too, and leaving closes it.
    await trigger.hover();
    await expect(panel).toBeVisible();
    await page.mouse.move(5, 600);
    await expect(panel).toBeHidden();
    expect(await isHydrated(page)).toBe(false);

    release();
    await waitForHydration(page);
    await expect(panel).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
  });

  test("hydrating while the Training trigger has focus leaves the menu closed, and tabbing on keeps it closed", async ({
    page,
  }) => {
    await watchReact(page);
    const release = await holdScripts(page);
    await page.goto("/", { waitUntil: "commit" });
    const { trigger, panel } = training(page);
    await expect(trigger).toBeVisible();

    await page.getByRole("link", { name: "Skip to content" }).focus();
    while (!(await focusNow(page)).onTrigger) await page.keyboard.press("Tab");
    await expect(panel).toBeVisible();
    expect(await isHydrated(page)).toBe(false);

    release();
    await waitForHydration(page);
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await expect(panel).toBeHidden();

    while (!(await focusNow(page)).inMain) await page.keyboard.press("Tab");
    await expect(panel).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
  });

  test("Enter and Space open the Training menu, Escape closes it and gives focus back; hovering opens it", async ({
    page,
  }) => {
    await watchReact(page);
    await page.goto("/");
    await hydrate(page);
    const { trigger, panel } = training(page);

    await trigger.focus();
    await expect(panel).toBeHidden();
    await page.keyboard.press("Enter");
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await expect(panel).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await expect(panel).toBeHidden();
    await expect(trigger).toBeFocused();

    // Escape from a link inside the panel: closed, focus back on the trigger.
    await page.keyboard.press("Space");
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(panel.getByRole("link").nth(1)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");

    // Shift+Tab back out of it closes it too.
    await page.keyboard.press("Enter");
    await expect(panel).toBeVisible();
    await page.keyboard.press("Shift+Tab");
    await expect(panel).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");

    // A mouse: hovering opens it, leaving closes it.
    await trigger.hover();
    await expect(panel).toBeVisible();
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    await panel.getByRole("link", { name: "Custom Training Quote" }).hover();
    await expect(panel).toBeVisible();
    await page.mouse.move(5, 600);
    await expect(panel).toBeHidden();
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
  });
});

test.describe("mobile menu (375 px)", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("Escape closes it and gives focus back to its toggle; a link click closes it", async ({
    page,
  }) => {
    await watchReact(page);
    await page.goto("/");
    await hydrate(page);
    const mobile = page.getByRole("navigation", { name: "Mobile" });

    await page.getByLabel("Open menu").click();
    await expect(mobile).toBeVisible();
    await expect(page.getByLabel("Close menu")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mobile).toBeHidden();
    await expect(page.getByLabel("Open menu")).toBeFocused();

    // From the keyboard, Escape on a link inside it.
    await page.keyboard.press("Enter");
    await expect(mobile).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(mobile.getByRole("link", { name: "Home" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(mobile).toBeHidden();
    await expect(page.getByLabel("Open menu")).toBeFocused();

    // A link in the Training list (a section of its own, closed until opened) closes it, as
    // does any other.
    await page.getByLabel("Open menu").click();
    await mobile.locator("summary", { hasText: "Training" }).click();
    await mobile.getByRole("link", { name: "All Training Courses" }).click();
    await expect(page).toHaveURL(/\/services\/counter-fraud-training$/);
    await expect(mobile).toBeHidden();
    await expect(page.getByLabel("Open menu")).toBeVisible();
    await page.getByLabel("Open menu").click();
    await mobile.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(mobile).toBeHidden();
  });

  test("before hydration it opens and a link click closes it; opened then, it still closes on Escape once hydrated", async ({
    page,
  }) => {
    await watchReact(page);
    const release = await holdScripts(page);
    await page.goto("/", { waitUntil: "commit" });
    const mobile = page.getByRole("navigation", { name: "Mobile" });

    await page.getByLabel("Open menu").click();
    await expect(mobile).toBeVisible();
    await mobile.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(mobile).toBeHidden();

    await page.getByLabel("Open menu").click();
    await expect(mobile).toBeVisible();
    expect(await isHydrated(page)).toBe(false);
    release();
    await waitForHydration(page);
    await expect(mobile).toBeVisible();
    await expect(page.getByLabel("Close menu")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mobile).toBeHidden();
    await expect(page.getByLabel("Open menu")).toBeVisible();
  });
});
