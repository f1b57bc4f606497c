import { expect, type Locator, type Page } from "@playwright/test";
import { currentSite } from "#tests/support/e2e-sites.ts";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The site's pictures (decision 0022): the services' and home page's illustrations,
 * each course's generated artwork (cards, page, checkout, Open Graph PNG), partner logos, and the
 * seller's registered details as configured.
 */

const CATALOGUE = "/services/counter-fraud-training";
// Demo courses (server/db/seed.server.ts), none with an uploaded thumbnail.
const COURSE = { slug: "introduction-to-counter-fraud", title: "Introduction to Counter Fraud" };
const DRAFT_SLUG = "advanced-fraud-analytics";
const PARTNER = "Harbourside Counter Fraud Academy";
const PARTNER_COURSE = {
  slug: "certificate-in-fraud-investigation-interviewing",
  title: "Certificate in Fraud Investigation Interviewing",
};

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Waits until the image has loaded and returns its intrinsic width (0 when it failed). */
async function loadedWidth(image: Locator): Promise<number> {
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  return image.evaluate((img: HTMLImageElement) => img.naturalWidth);
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** The card (an article) that a catalogue heading names. */
function card(page: Page, title: string): Locator {
  return page.locator("article").filter({ has: page.getByRole("heading", { name: title }) });
}

test.describe("illustrations", () => {
  const PAGES = [
    { path: "/", alt: "" },
    { path: "/services/dark-web-monitoring", alt: /^Illustration: a monitoring alert/ },
    { path: "/services/security-consultancy", alt: /^Illustration: a risk matrix/ },
    { path: "/services/file-interrogator", alt: /^Illustration: a document under a magnifier/ },
    { path: CATALOGUE, alt: /^Illustration: a class learning/ },
  ];

  test("each service page and the home page show theirs, as a hashed static SVG", async ({
    page,
  }) => {
    for (const { path: url, alt } of PAGES) {
      await page.goto(url);
      const hero = page.locator("section[aria-labelledby=page-title]");
      const illustration = hero.locator("img[data-illustration]");
      await expect(illustration, url).toHaveCount(1);
      await expect(illustration).toBeVisible();
      // Decorative (home) or described; either way never a bare image.
      await expect(illustration).toHaveAttribute("alt", alt);
      expect(await illustration.getAttribute("src")).toMatch(
        /^\/assets\/[a-z-]+-[A-Za-z0-9_-]{8}\.svg$/,
      );
      // Beside the heading on a wide screen, and never above it.
      const heading = await page.getByRole("heading", { level: 1 }).boundingBox();
      const box = await illustration.boundingBox();
      expect(box!.x, url).toBeGreaterThan(heading!.x + heading!.width / 2);
      expect(await loadedWidth(illustration)).toBeGreaterThan(0);
      const response = await page.request.get((await illustration.getAttribute("src"))!);
      expect(response.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(response.headers()["cache-control"]).toContain("immutable");
      expect((await response.body()).length).toBeLessThan(8_000);
    }
  });

  test("at 375 px: no horizontal overflow, the heading first, the illustration below", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    for (const { path: url } of PAGES) {
      await page.goto(url);
      expect(await horizontalOverflow(page), url).toBeLessThanOrEqual(0);
      const heading = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
      expect(heading.y + heading.height, `${url}: the heading above the fold`).toBeLessThan(740);
      const illustration = page.locator("img[data-illustration]");
      const box = (await illustration.boundingBox())!;
      expect(box.y).toBeGreaterThan(heading.y + heading.height);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(await loadedWidth(illustration)).toBeGreaterThan(0);
      expect(await horizontalOverflow(page), url).toBeLessThanOrEqual(0);
    }
  });
});

test.describe("generated course artwork", () => {
  test("a course without a thumbnail shows its artwork on its card, its page and the home page", async ({
    page,
  }) => {
    await page.goto(CATALOGUE);
    const cardImage = card(page, COURSE.title).locator("img").first();
    const src = await cardImage.getAttribute("src");
    expect(src).toMatch(new RegExp(`^/courses/${COURSE.slug}/artwork\\.svg\\?v=[\\w-]{12}$`));
    // Decorative on the card: its heading names the course.
    await expect(cardImage).toHaveAttribute("alt", "");
    expect(await loadedWidth(cardImage)).toBeGreaterThan(0);
    // Every course's card has its own picture.
    const sources = await page
      .locator("article img")
      .evaluateAll((images) => images.map((img) => img.getAttribute("src")));
    expect(sources.length).toBeGreaterThan(3);
    expect(new Set(sources).size).toBe(sources.length);

    await page.goto(`/courses/${COURSE.slug}`);
    const picture = page.getByRole("img", { name: `Artwork for the course ${COURSE.title}` });
    await expect(picture).toBeVisible();
    await expect(picture).toHaveAttribute("src", src!);
    expect(await loadedWidth(picture)).toBeGreaterThan(0);
    // The same picture, faint, behind the title: hidden from assistive technology.
    const backdrop = page.locator("header [aria-hidden] img");
    await expect(backdrop).toHaveAttribute("src", src!);
    await expect(backdrop).toHaveAttribute("alt", "");

    const svg = await page.request.get(src!);
    expect(svg.status()).toBe(200);
    expect(svg.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(svg.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    // Without the current version (an old page): today's picture, briefly cached.
    const stale = await page.request.get(`/courses/${COURSE.slug}/artwork.svg?v=old`);
    expect(stale.headers()["cache-control"]).toBe("public, max-age=300");

    await page.goto("/");
    const promoted = page
      .locator("li")
      .filter({ has: page.getByRole("link", { name: COURSE.title, exact: true }) })
      .locator("img");
    await expect(promoted).toHaveAttribute("src", src!);
    expect(await loadedWidth(promoted)).toBeGreaterThan(0);
  });

  test("the checkout's booking summary shows the course's artwork", async ({ page }) => {
    await page.goto(`/courses/${COURSE.slug}/checkout`);
    const summary = page.locator("section, div").filter({
      has: page.getByRole("heading", { name: "Booking Summary" }),
    });
    const image = summary.locator(`img[src^="/courses/${COURSE.slug}/artwork.svg?v="]`).first();
    await expect(image).toHaveAttribute("alt", "");
    expect(await loadedWidth(image)).toBeGreaterThan(0);
  });

  test("og:image is a 1200×630 PNG of the artwork; unknown and draft courses are 404", async ({
    page,
  }) => {
    await page.goto(`/courses/${COURSE.slug}`);
    const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
    const baseURL = currentSite().baseURL;
    // Absolute, on the site's public address.
    const ogUrl = new URL(ogImage!);
    expect(ogUrl.origin).toBe(new URL(baseURL).origin);
    expect(`${ogUrl.pathname}${ogUrl.search}`).toMatch(
      new RegExp(`^/courses/${COURSE.slug}/og\\.png\\?v=[\\w-]{12}$`),
    );
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
      "content",
      "summary_large_image",
    );
    await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute(
      "content",
      "1200",
    );
    await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute(
      "content",
      "630",
    );
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute(
      "content",
      `Artwork for the course ${COURSE.title}`,
    );

    const png = await page.request.get(ogImage!);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    expect(png.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    const body = await png.body();
    expect([...body.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(body.readUInt32BE(16)).toBe(1200);
    expect(body.readUInt32BE(20)).toBe(630);

    // A page without a picture keeps the small card.
    await page.goto("/about");
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");

    for (const url of [
      "/courses/no-such-course/artwork.svg",
      "/courses/no-such-course/og.png",
      `/courses/${DRAFT_SLUG}/artwork.svg`,
      `/courses/${DRAFT_SLUG}/og.png`,
    ]) {
      const response = await page.request.get(url);
      expect(response.status(), url).toBe(404);
      expect(response.headers()["cache-control"], url).toBe("no-store");
    }
    expect((await page.request.get(`/courses/${DRAFT_SLUG}`)).status()).toBe(404);
  });
});

test.describe("partner logos", () => {
  /** Gives the demo partner a logo (or takes it away) through the admin Partners screen. */
  async function setPartnerLogo(page: Page, logo: boolean) {
    await page.goto("/admin/partners");
    await page.getByRole("button", { name: `Edit ${PARTNER}` }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Partner" });
    await expect(dialog.getByLabel("Name")).toHaveValue(PARTNER);
    if (logo) {
      await dialog
        .locator('input[name="logo"]')
        .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    } else {
      await dialog.getByRole("button", { name: "Remove logo" }).click();
    }
    await dialog.getByRole("button", { name: "Update Partner" }).click();
    await expectToast(page, "Success", "Partner updated successfully");
  }

  test("a partner course shows the partner's logo on its page and its card", async ({
    page,
    browser,
  }) => {
    await signInAsAdmin(page);
    await setPartnerLogo(page, true);
    // Seen as a visitor (no cookie: the shared page cache answers, cleared by the change).
    const visitor = await browser.newPage();
    try {
      await visitor.goto(`/courses/${PARTNER_COURSE.slug}`);
      const logo = visitor.getByRole("img", { name: `${PARTNER} logo` });
      await expect(logo).toHaveCount(1);
      await expect(logo).toBeVisible();
      expect(await loadedWidth(logo)).toBeGreaterThan(0);
      // In the hero, above the fold, in a box of fixed size.
      const heading = (await visitor.getByRole("heading", { level: 1 }).boundingBox())!;
      const box = (await logo.locator("..").boundingBox())!;
      expect(box.y).toBeLessThan(heading.y);
      expect([box.width, box.height]).toEqual([112, 40]);
      expect(await logo.getAttribute("src")).toMatch(/^\/media\/logos\/partner-/);

      await visitor.goto(CATALOGUE);
      const cardLogo = card(visitor, PARTNER_COURSE.title).getByRole("img", {
        name: `${PARTNER} logo`,
      });
      expect(await loadedWidth(cardLogo)).toBeGreaterThan(0);
      const cardBox = (await cardLogo.locator("..").boundingBox())!;
      expect([cardBox.width, cardBox.height]).toEqual([80, 32]);
      // A partner without a logo shows none.
      await expect(
        card(visitor, "Cifas Fraud Prevention Essentials").getByRole("img", { name: /logo$/ }),
      ).toHaveCount(0);
    } finally {
      await visitor.close();
      await setPartnerLogo(page, false);
    }
    const after = await page.request.get(`/courses/${PARTNER_COURSE.slug}`);
    expect(await after.text()).not.toContain(`${PARTNER} logo`);
  });
});

test.describe("the seller's details", () => {
  // As playwright.config.ts configures the suite's site (no ICO number there).
  const SELLER = {
    name: "NightWatch Intelligence Ltd",
    address: "1 Example Street, London, EC1A 1AA",
    companyNumber: "01234567",
    vatNumber: "GB123456789",
  };

  test("the footer and a legal page name the seller as configured", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByTestId("footer-address")).toHaveText(SELLER.address);
    await expect(footer.getByText("London, United Kingdom")).toHaveCount(0);
    await expect(footer.getByTestId("seller-details")).toHaveText(
      `${SELLER.name}. Registered office: ${SELLER.address}. Company number: ` +
        `${SELLER.companyNumber}. VAT number: ${SELLER.vatNumber}.`,
    );
    await page.goto("/terms");
    await expect(page.getByRole("main").getByTestId("seller-details")).toContainText(
      `Company number: ${SELLER.companyNumber}`,
    );
  });
});
