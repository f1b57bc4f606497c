import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * An anchor's target lands below the sticky header, not under it (html's scroll-padding-top),
 * on a desktop and on a phone: the home page's contact section, the monitoring and consultation
 * forms the heroes' buttons lead to, File Interrogator's licensing and a legal page's section.
 */

const TARGETS: { path: string; id: string; link?: string }[] = [
  { path: "/", id: "contact" },
  {
    path: "/services/dark-web-monitoring",
    id: "monitoring-form",
    link: "Get Custom Monitoring Plan",
  },
  {
    path: "/services/security-consultancy",
    id: "consultation-form",
    link: "Schedule Consultation",
  },
  { path: "/services/file-interrogator", id: "licensing" },
];

/** Where the target's top is against the header's bottom and the window's height. */
async function placement(page: Page, id: string) {
  return page.evaluate((targetId) => {
    const header = document.querySelector("header")!.getBoundingClientRect();
    const target = document.getElementById(targetId)!.getBoundingClientRect();
    return {
      gap: Math.round(target.top - header.bottom),
      inView: target.top < window.innerHeight,
      scrolled: window.scrollY > 0,
    };
  }, id);
}

for (const viewport of [
  { name: "desktop", width: 1366, height: 768 },
  { name: "phone", width: 375, height: 667 },
]) {
  test.describe(`on a ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const target of TARGETS) {
      test(`${target.path}#${target.id} lands below the header`, async ({ page }) => {
        await page.goto(`${target.path}#${target.id}`);
        await expect
          .poll(() => placement(page, target.id))
          .toMatchObject({ inView: true, scrolled: true });
        expect((await placement(page, target.id)).gap).toBeGreaterThanOrEqual(0);
      });
    }

    for (const target of TARGETS.filter((t) => t.link)) {
      test(`'${target.link}' scrolls its form below the header`, async ({ page }) => {
        await page.goto(target.path);
        await page.getByRole("link", { name: target.link }).first().click();
        await expect(page).toHaveURL(new RegExp(`#${target.id}$`));
        await expect
          .poll(() => placement(page, target.id))
          .toMatchObject({ inView: true, scrolled: true });
        expect((await placement(page, target.id)).gap).toBeGreaterThanOrEqual(0);
      });
    }
  });
}
