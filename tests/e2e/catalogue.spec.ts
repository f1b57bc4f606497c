import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The course catalogue, the course pages, the sitemap and robots.txt, on the demo
 * content (server/db/seed.server.ts): 12 published courses (9 without a partner, 2 with Cifas,
 * 1 with Harbourside Counter Fraud Academy), one draft and one archived course.
 */

const CATALOGUE = "/services/counter-fraud-training";

const EXCLUSIVE_TITLES = [
  "Dark Web Investigations for Fraud Teams",
  "Data Protection Essentials for Frontline Staff",
  "Failure to Prevent Fraud: Preparing for the New Offence",
  "Insider Fraud Detection",
  "Introduction to Counter Fraud",
  "OSINT Investigations Masterclass",
  "Ransomware Response Planning",
  "Security Awareness for Financial Services",
  "Social Engineering Red Flags for Contact Centres",
];
const CIFAS_TITLES = ["Cifas Fraud Prevention Essentials", "Cifas Internal Fraud Awareness"];
const ACADEMY_TITLES = ["Certificate in Fraud Investigation Interviewing"];
const ALL_TITLES = [...EXCLUSIVE_TITLES, ...CIFAS_TITLES, ...ACADEMY_TITLES].sort((a, b) =>
  a.localeCompare(b, "en-GB"),
);

const PUBLISHED_SLUGS = [
  "introduction-to-counter-fraud",
  "osint-investigations-masterclass",
  "dark-web-investigations-for-fraud-teams",
  "security-awareness-for-financial-services",
  "insider-fraud-detection",
  "failure-to-prevent-fraud-offence",
  "social-engineering-red-flags-for-contact-centres",
  "data-protection-essentials-for-frontline-staff",
  "ransomware-response-planning",
  "cifas-fraud-prevention-essentials",
  "cifas-internal-fraud-awareness",
  "certificate-in-fraud-investigation-interviewing",
];
const UNPUBLISHED_SLUGS = ["advanced-fraud-analytics", "osint-foundations-legacy"];

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

const courseList = (page: Page) =>
  page.getByRole("region", { name: "Available courses" }).getByRole("listitem");
const cardTitles = (page: Page) => courseList(page).getByRole("heading", { level: 3 });

test.describe("catalogue", () => {
  test("lists every published course by title, with badges, prices and links", async ({ page }) => {
    const errors = collectErrors(page);
    const response = await page.goto(CATALOGUE);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["cache-control"]).toContain("s-maxage=60");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Counter fraud training courses",
    );
    await expect(page).toHaveTitle("Counter Fraud Training Courses | NightWatch");
    await expect(cardTitles(page)).toHaveText(ALL_TITLES);
    await expect(page.getByRole("radio", { name: "All Courses" })).toBeChecked();
    await expect(page.getByRole("status")).toHaveText("Showing 12 courses");

    const cifasCard = courseList(page).filter({ hasText: "Cifas Fraud Prevention Essentials" });
    await expect(cifasCard.getByText("CIFAS Partnership")).toBeVisible();
    await expect(cifasCard.getByText("£450.00")).toBeVisible();
    const academyCard = courseList(page).filter({ hasText: ACADEMY_TITLES[0]! });
    await expect(academyCard.getByText("Harbourside Counter Fraud Academy")).toBeVisible();
    const osintCard = courseList(page).filter({ hasText: "OSINT Investigations Masterclass" });
    await expect(osintCard.getByText("NightWatch Exclusive Course")).toBeVisible();
    await expect(osintCard.getByText("£1,450.00")).toBeVisible();
    await expect(osintCard.getByRole("link", { name: /View Details/ })).toHaveAttribute(
      "href",
      "/courses/osint-investigations-masterclass",
    );
    // No price set: no price shown on the card.
    const insiderCard = courseList(page).filter({ hasText: "Insider Fraud Detection" });
    await expect(insiderCard.getByText("£")).toHaveCount(0);

    await expect(page.getByRole("link", { name: "Discuss Training Requirements" })).toHaveAttribute(
      "href",
      "/quote?service=counter-fraud-training",
    );
    expect(errors).toEqual([]);
  });

  test("filters by radio without reloading and keeps the scroll position", async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(CATALOGUE);
    // With JavaScript the submit button is not needed.
    await expect(page.getByRole("button", { name: "Show courses" })).toBeHidden();

    const filter = page.getByRole("group", { name: "Filter courses" });
    // Scroll so the filter is near the top: a navigation that reset the scroll would show.
    await page.evaluate(() => window.scrollTo(0, 250));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBe(250);

    await filter.getByRole("radio", { name: "NightWatch Exclusive" }).check();
    await expect(page).toHaveURL(/\?partner=exclusive$/);
    await expect(cardTitles(page)).toHaveText(EXCLUSIVE_TITLES);
    await expect(page.getByRole("status")).toHaveText("Showing 9 courses");
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

    await filter.getByRole("radio", { name: "In partnership with Cifas" }).check();
    await expect(page).toHaveURL(/\?partner=Cifas$/);
    await expect(cardTitles(page)).toHaveText(CIFAS_TITLES);

    await filter
      .getByRole("radio", { name: "In partnership with Harbourside Counter Fraud Academy" })
      .check();
    await expect(cardTitles(page)).toHaveText(ACADEMY_TITLES);

    await filter.getByRole("radio", { name: "All Courses" }).check();
    await expect(page).toHaveURL(new RegExp(`${CATALOGUE}$`));
    await expect(cardTitles(page)).toHaveText(ALL_TITLES);
    expect(errors).toEqual([]);
  });

  test("a filter is a link: the URL selects the radio and the courses", async ({ page }) => {
    await page.goto(`${CATALOGUE}?partner=cifas`);
    await expect(page.getByRole("radio", { name: "In partnership with Cifas" })).toBeChecked();
    await expect(cardTitles(page)).toHaveText(CIFAS_TITLES);
  });

  test("an unknown partner shows the empty state", async ({ page }) => {
    const response = await page.goto(`${CATALOGUE}?partner=Nobody%20Ltd`);
    expect(response?.status()).toBe(200);
    await expect(page.getByText("No courses found matching your criteria.")).toBeVisible();
    await expect(cardTitles(page)).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveText("Showing 0 courses");
  });

  test("no axe violations, filtered or not", async ({ page }) => {
    await page.goto(CATALOGUE);
    await expectNoAxeViolations(page);
    await page.goto(`${CATALOGUE}?partner=Nobody`);
    await expectNoAxeViolations(page);
  });

  test("the particles load after the page is interactive, decorative only", async ({ page }) => {
    await page.goto(CATALOGUE);
    const canvas = page.locator("canvas");
    await expect(canvas).toHaveCount(1);
    await expect(canvas).toHaveAttribute("aria-hidden", "true");
    expect(await canvas.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe("none");
    // Not part of the server HTML.
    const html = await (await page.request.get(CATALOGUE)).text();
    expect(html).not.toContain("<canvas");
  });

  test("no particles when the visitor prefers reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(CATALOGUE);
    await expect(cardTitles(page)).toHaveCount(12);
    await page.waitForTimeout(1500);
    await expect(page.locator("canvas")).toHaveCount(0);
  });
});

test.describe("catalogue without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the radio filter works as a plain GET form", async ({ page }) => {
    await page.goto(CATALOGUE);
    await expect(cardTitles(page)).toHaveText(ALL_TITLES);
    const submit = page.getByRole("button", { name: "Show courses" });
    await expect(submit).toBeVisible();

    await page.getByRole("radio", { name: "NightWatch Exclusive" }).check();
    await submit.click();
    await expect(page).toHaveURL(/\?partner=exclusive$/);
    await expect(cardTitles(page)).toHaveText(EXCLUSIVE_TITLES);
    await expect(page.getByRole("radio", { name: "NightWatch Exclusive" })).toBeChecked();

    await page.getByRole("radio", { name: "In partnership with Cifas" }).check();
    await page.getByRole("button", { name: "Show courses" }).click();
    await expect(page).toHaveURL(/\?partner=Cifas$/);
    await expect(cardTitles(page)).toHaveText(CIFAS_TITLES);

    await page.getByRole("radio", { name: "All Courses" }).check();
    await page.getByRole("button", { name: "Show courses" }).click();
    await expect(page).toHaveURL(/\?partner=all$/);
    await expect(cardTitles(page)).toHaveText(ALL_TITLES);
  });

  test("the empty state and the course page render without JavaScript", async ({ page }) => {
    await page.goto(`${CATALOGUE}?partner=nobody`);
    await expect(page.getByText("No courses found matching your criteria.")).toBeVisible();
    await page.goto("/courses/introduction-to-counter-fraud");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Introduction to Counter Fraud",
    );
    await expect(page.getByRole("heading", { name: "Course overview" })).toBeVisible();
  });
});

test.describe("course page", () => {
  test("a partner-less course: details, sanitised content and the provider's booking area", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    const response = await page.goto("/courses/introduction-to-counter-fraud");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle("Introduction to Counter Fraud | NightWatch");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Introduction to Counter Fraud",
    );
    await expect(page.getByText("NightWatch Exclusive Course")).toBeVisible();
    const details = page.getByRole("complementary");
    await expect(details.getByText("Fraud Prevention")).toBeVisible();
    await expect(details.getByText("7h")).toBeVisible();
    await expect(details.getByText("£295.00")).toBeVisible();
    await expect(page.getByRole("heading", { name: "What you will learn" })).toBeVisible();
    // Absolute links in the content open in a new tab.
    const actionFraud = page.getByRole("link", { name: "Action Fraud" });
    await expect(actionFraud).toHaveAttribute("target", "_blank");
    await expect(actionFraud).toHaveAttribute("rel", "noopener noreferrer");

    await expect(details.getByRole("link", { name: "Book an Online Course" })).toHaveAttribute(
      "href",
      "/courses/introduction-to-counter-fraud/checkout",
    );
    await expect(details.getByRole("button", { name: "Book a Classroom Class" })).toBeVisible();
    await expect(details.getByText(/bigger group/)).toBeVisible();
    await expect(details.getByRole("link", { name: /Buy Now/ })).toHaveCount(0);

    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}",
    );
    expect(ld).toMatchObject({
      "@type": "Course",
      name: "Introduction to Counter Fraud",
      provider: { "@type": "Organization", name: "NightWatch" },
      offers: { price: "295.00", priceCurrency: "GBP" },
    });
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      /\/courses\/introduction-to-counter-fraud$/,
    );
    expect(errors).toEqual([]);
  });

  test("no price shows 'Contact us' and no offer; no duration shows 'TBD'", async ({ page }) => {
    await page.goto("/courses/insider-fraud-detection");
    await expect(page.getByRole("complementary").getByText("Contact us")).toBeVisible();
    const ld = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}",
    );
    expect(ld["@type"]).toBe("Course");
    expect(ld.offers).toBeUndefined();

    await page.goto("/courses/failure-to-prevent-fraud-offence");
    await expect(page.getByRole("complementary").getByText("TBD")).toBeVisible();
  });

  test("a partner course: 'Buy Now' opens the partner's purchase page in a new tab", async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await page.goto("/courses/cifas-fraud-prevention-essentials");
    await expect(page.getByText("CIFAS Partnership")).toBeVisible();
    const details = page.getByRole("complementary");
    const buy = details.getByRole("link", { name: /Buy Now/ });
    await expect(buy).toHaveAttribute("href", "https://www.cifas.org.uk/training");
    await expect(buy).toHaveAttribute("target", "_blank");
    await expect(buy).toHaveAttribute("rel", "noopener noreferrer");
    await expect(details.getByRole("link", { name: "Book an Online Course" })).toHaveCount(0);
    await expect(details.getByRole("button", { name: "Book a Classroom Class" })).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test("a partner without a purchase URL falls back to the course's external link", async ({
    page,
  }) => {
    await page.goto("/courses/certificate-in-fraud-investigation-interviewing");
    await expect(page.getByRole("link", { name: /Buy Now/ })).toHaveAttribute(
      "href",
      "https://www.harbourside-cfa.co.uk/courses/fraud-investigation-interviewing",
    );
  });

  test("an unknown, draft or archived course is 'Course Not Found' with a 404 inside the site", async ({
    page,
  }) => {
    for (const slug of ["no-such-course", ...UNPUBLISHED_SLUGS]) {
      const response = await page.goto(`/courses/${slug}`);
      expect(response?.status(), slug).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Course Not Found");
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    }
    await page.getByRole("link", { name: "Back to Training Courses" }).click();
    await expect(page).toHaveURL(new RegExp(`${CATALOGUE}$`));
  });

  test("a course id redirects (301) to the slug URL", async ({ page }) => {
    await page.goto("/courses/osint-investigations-masterclass");
    const id = await page.locator("[data-course-id]").getAttribute("data-course-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const response = await page.request.get(`/courses/${id}`, { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers()["location"]).toBe("/courses/osint-investigations-masterclass");

    await page.goto(`/courses/${id}`);
    await expect(page).toHaveURL(/\/courses\/osint-investigations-masterclass$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "OSINT Investigations Masterclass",
    );
  });

  test("no axe violations on a course page, a partner course page and the not-found page", async ({
    page,
  }) => {
    for (const path of [
      "/courses/introduction-to-counter-fraud",
      "/courses/cifas-fraud-prevention-essentials",
      "/courses/no-such-course",
    ]) {
      await page.goto(path);
      await expectNoAxeViolations(page);
    }
  });
});

test.describe("search engines", () => {
  test("sitemap.xml lists every public page and every published course, no drafts", async ({
    request,
    baseURL,
  }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/xml");
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const path of [
      "/",
      "/about",
      "/contact",
      "/quote",
      "/privacy",
      "/terms",
      "/gdpr",
      "/services/dark-web-monitoring",
      "/services/counter-fraud-training",
      "/services/security-consultancy",
      "/services/file-interrogator",
    ]) {
      expect(locs).toContain(`${baseURL}${path}`);
    }
    for (const slug of PUBLISHED_SLUGS) expect(locs).toContain(`${baseURL}/courses/${slug}`);
    for (const slug of UNPUBLISHED_SLUGS) expect(xml).not.toContain(slug);
    expect(locs).toHaveLength(11 + PUBLISHED_SLUGS.length);
    expect(xml.match(/<lastmod>/g)).toHaveLength(PUBLISHED_SLUGS.length);
  });

  test("robots.txt allows the site, keeps crawlers out of admin and booking steps", async ({
    request,
    baseURL,
  }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/plain");
    const lines = (await response.text()).split("\n");
    for (const line of [
      "User-agent: *",
      "Allow: /",
      "Disallow: /admin",
      "Disallow: /auth",
      "Disallow: /courses/*/checkout",
      "Disallow: /courses/*/success",
      "Disallow: /courses/*/canceled",
      `Sitemap: ${baseURL}/sitemap.xml`,
    ]) {
      expect(lines).toContain(line);
    }
  });
});
