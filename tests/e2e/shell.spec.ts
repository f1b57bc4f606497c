import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/** The site shell of the foundation: header, Training dropdown, mobile menu, 404, redirects. */

test.describe("header and footer", () => {
  test("header links lead to the spec's routes and the active link is highlighted", async ({
    page,
  }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
    for (const [name, href] of [
      ["Dark Web Monitoring", "/services/dark-web-monitoring"],
      ["Security Consultancy", "/services/security-consultancy"],
      ["File Interrogator", "/services/file-interrogator"],
      ["About", "/about"],
      ["Contact", "/quote"],
    ] as const) {
      await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
    }
  });

  test("the Training dropdown groups courses: all, exclusive, one group per partner, quote", async ({
    page,
  }) => {
    await page.goto("/");
    // The click toggles React state: wait until the page is hydrated.
    await page.waitForLoadState("networkidle");
    const nav = page.getByRole("navigation", { name: "Main" });
    const trigger = nav.getByRole("button", { name: "Training" });
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await trigger.click();
    await expect(trigger).toHaveAttribute("aria-expanded", "true");
    const panel = page.locator(`#${await trigger.getAttribute("aria-controls")}`);
    const links = await panel.getByRole("link").allTextContents();
    expect(links[0]).toBe("All Training Courses");
    expect(links.at(-1)).toBe("Custom Training Quote");
    // Exclusive (partner-less) courses come before any partner course, which carry a dash.
    const firstDash = links.findIndex((t) => t.startsWith("- "));
    expect(firstDash).toBeGreaterThan(1);
    expect(links.slice(1, firstDash).some((t) => t === "OSINT Investigations Masterclass")).toBe(
      true,
    );
    expect(links.slice(firstDash, -1).every((t) => t.startsWith("- "))).toBe(true);
    expect(links).toContain("- Cifas Fraud Prevention Essentials");
    await expect(panel.getByText("Cifas", { exact: true })).toBeVisible();
    // Drafts and archived courses are never listed.
    expect(links.join("|")).not.toContain("Advanced Fraud Analytics");
    expect(links.join("|")).not.toContain("Legacy Edition");
    await page.keyboard.press("Escape");
    await expect(trigger).toHaveAttribute("aria-expanded", "false");
    await expect(panel).toBeHidden();
  });

  test("the dropdown links are in the server HTML (no JavaScript needed)", async ({ request }) => {
    const html = await (await request.get("/")).text();
    expect(html).toContain("All Training Courses");
    expect(html).toContain("OSINT Investigations Masterclass");
    expect(html).toContain("Custom Training Quote");
  });

  test("the footer has the contact details, five promoted courses at most and legal links", async ({
    page,
  }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    // The registered office as configured (SELLER_ADDRESS in playwright.config.ts).
    await expect(footer.getByTestId("footer-address")).toHaveText(
      "1 Example Street, London, EC1A 1AA",
    );
    await expect(footer.getByRole("link", { name: "Browse All Courses" })).toBeVisible();
    const courseLinks = footer.locator('a[href^="/courses/"]');
    await expect(courseLinks).toHaveCount(5);
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/privacy",
    );
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
      "href",
      "/terms",
    );
    await expect(footer.getByRole("link", { name: "GDPR" })).toHaveAttribute("href", "/gdpr");
    await expect(footer.getByText(`© ${new Date().getFullYear()} NightWatch`)).toBeVisible();
  });
});

test.describe("mobile menu (375 px)", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("collapses into a toggle that also offers Admin, and closes on a link click", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByLabel("Open menu").click();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    await expect(mobile).toBeVisible();
    await expect(mobile.getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/auth");
    // Training's courses are a section of their own, closed until opened.
    await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeHidden();
    await mobile.locator("summary", { hasText: "Training" }).click();
    await expect(mobile.getByRole("link", { name: "All Training Courses" })).toBeVisible();
    await mobile.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(mobile).toBeHidden();
  });
});

test.describe("not found and redirects", () => {
  test("an unknown route answers 404 with 'Oops! Page not found' and a link home", async ({
    page,
  }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("/training redirects permanently to the catalogue", async ({ request }) => {
    const response = await request.get("/training", { maxRedirects: 0 });
    expect(response.status()).toBe(308);
    expect(response.headers()["location"]).toBe("/services/counter-fraud-training");
  });

  test("admin pages have no site header or footer", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/dashboard");
    await expect(page.getByText("Admin Panel").first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
  });
});

test("navigating scrolls back to the top", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});
