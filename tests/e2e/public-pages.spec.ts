import { expect, type Page } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The public content pages: home, about, contact, quote, the legal pages and the
 * dark web monitoring, security consultancy and File Interrogator service pages. Their
 * accessibility (axe, at 1366 and 375 px) is checked with every other page's in axe.spec.ts.
 */

const PUBLIC_CACHE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
const MAILBOXES = ["privacy@nightwatch.co.uk", "legal@nightwatch.co.uk", "dpo@nightwatch.co.uk"];

interface PageCase {
  path: string;
  h1: string | RegExp;
  texts: string[];
}

const PAGES: PageCase[] = [
  {
    path: "/",
    h1: /Dark web monitoring and counter fraud training/i,
    texts: [
      "Get in Touch",
      "Intelligence-led protection against fraud",
      "Know when your data is for sale",
      "Training that stops fraud at the front line",
      "Our Services",
      "Ready to strengthen your defences against fraud?",
    ],
  },
  { path: "/about", h1: "Coming Soon", texts: ["About NightWatch"] },
  {
    path: "/contact",
    h1: "Contact Us",
    texts: ["Send us a message", "info@nightwatch.co.uk", "London, United Kingdom"],
  },
  {
    path: "/quote",
    h1: "Request a Quote",
    texts: ["Tell us what you need", "Helpful details to include", "info@nightwatch.co.uk"],
  },
  {
    path: "/privacy",
    h1: "Privacy Policy",
    texts: ["1. Who we are", "Cookies", "Strictly necessary", "Information Commissioner's Office"],
  },
  {
    path: "/terms",
    h1: "Terms of Service",
    texts: ["1. About these terms", "Course bookings and payment", "law of England and Wales"],
  },
  {
    path: "/gdpr",
    h1: "GDPR Compliance",
    texts: ["1. Our commitment", "within 72 hours", "within one month", "Data Protection Act 2018"],
  },
  {
    path: "/services/dark-web-monitoring",
    h1: /data is for sale/i,
    texts: [
      "Get Custom Monitoring Plan",
      "Emergency alerts",
      "Monthly reporting",
      "Expert consultations",
      "Strategic reports",
    ],
  },
  {
    path: "/services/security-consultancy",
    h1: /consultancy/i,
    texts: [
      "Schedule Consultation",
      "KYC and verification flow development",
      "Strategic and operational threat analysis",
      "Staff training programmes",
      "Technology and process automation",
    ],
  },
  {
    path: "/services/file-interrogator",
    h1: /Detect manipulation and hidden data/i,
    texts: [
      "Metadata analysis",
      "Many file types",
      "Error level analysis",
      "Hex analysis",
      "Thumbnail analysis",
      "Automatic reports",
      "File hashes",
      "Fully offline",
      "Law enforcement",
      "Counter fraud teams",
      "KYC teams",
      "Get License Quote",
    ],
  },
];

/** Collects console errors and uncaught exceptions for the lifetime of the page. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** Today as the legal pages print it, in UK time. */
function todayInLondon(): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "Europe/London",
  }).format(new Date());
}

async function expectContent(page: Page, pageCase: PageCase) {
  await expect(page.locator("h1")).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(pageCase.h1);
  for (const text of pageCase.texts) {
    await expect(page.locator("main").getByText(text).first()).toBeVisible();
  }
}

test.describe("public content pages", () => {
  for (const pageCase of PAGES) {
    test(`${pageCase.path}: content, headers, no console errors`, async ({ page }) => {
      const errors = collectErrors(page);
      const response = await page.goto(pageCase.path);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["cache-control"]).toBe(PUBLIC_CACHE);
      await expectContent(page, pageCase);
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
    });
  }

  test("every page has its own title, description and canonical URL", async ({ page, baseURL }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const { path } of PAGES) {
      await page.goto(path);
      titles.add(await page.title());
      descriptions.add(
        (await page.locator('meta[name="description"]').getAttribute("content")) ?? "",
      );
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        "href",
        `${baseURL}${path}`,
      );
    }
    expect(titles.size).toBe(PAGES.length);
    expect(descriptions.size).toBe(PAGES.length);
    expect([...descriptions].every((d) => d.length > 50)).toBe(true);
  });

  test("every page fits a 375 px wide screen without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const { path } of PAGES) {
      await page.goto(path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test("visiting the public pages sets no cookies (as the privacy policy says)", async ({
    page,
    context,
  }) => {
    for (const { path } of PAGES) await page.goto(path);
    expect(await context.cookies()).toEqual([]);
  });
});

test.describe("home", () => {
  test("hero links to the contact section, which holds the enquiry form", async ({ page }) => {
    await page.goto("/");
    const getInTouch = page.getByRole("link", { name: "Get in Touch" });
    await expect(getInTouch).toHaveAttribute("href", "#contact");
    await expect(page.locator("#contact #contact-form")).toBeAttached();
    await getInTouch.click();
    await expect(page).toHaveURL(/#contact$/);
    await expect(page.locator("#contact h2").first()).toBeInViewport();
  });

  test("the training section lists published partner-less keyword courses, newest first", async ({
    page,
  }) => {
    await page.goto("/");
    const section = page.getByRole("region", {
      name: "Training that stops fraud at the front line",
    });
    const titles = await section.getByRole("heading", { level: 3 }).allTextContents();
    expect(titles).toEqual([
      "Introduction to Counter Fraud",
      "OSINT Investigations Masterclass",
      "Dark Web Investigations for Fraud Teams",
      "Security Awareness for Financial Services",
      "Insider Fraud Detection",
      "Failure to Prevent Fraud: Preparing for the New Offence",
      "Social Engineering Red Flags for Contact Centres",
    ]);
    // Not promoted: no keyword, partner courses, drafts and archived courses.
    for (const absent of [
      "Data Protection Essentials for Frontline Staff",
      "Ransomware Response Planning",
      "Cifas Fraud Prevention Essentials",
      "Certificate in Fraud Investigation Interviewing",
      "Advanced Fraud Analytics",
      "OSINT Foundations (Legacy Edition)",
    ]) {
      await expect(section.getByText(absent)).toHaveCount(0);
    }

    const osint = section
      .getByRole("listitem")
      .filter({ hasText: "OSINT Investigations Masterclass" });
    await expect(
      osint.getByRole("link", { name: "OSINT Investigations Masterclass" }),
    ).toHaveAttribute("href", "/courses/osint-investigations-masterclass");
    await expect(osint.getByText("£1,450.00")).toBeVisible();
    await expect(osint.getByText("14h")).toBeVisible();
    // Unset price and duration are left out rather than shown empty.
    const insider = section.getByRole("listitem").filter({ hasText: "Insider Fraud Detection" });
    await expect(insider.getByText("£")).toHaveCount(0);
    await expect(insider.getByText("7h")).toBeVisible();
    const failure = section.getByRole("listitem").filter({ hasText: "Failure to Prevent Fraud" });
    await expect(failure.getByText("£495.00")).toBeVisible();
    await expect(failure.getByText(/\d+h$/)).toHaveCount(0);

    await expect(section.getByRole("link", { name: "View All Courses" })).toHaveAttribute(
      "href",
      "/services/counter-fraud-training",
    );
    await expect(section.getByRole("link", { name: "Request Custom Training" })).toHaveAttribute(
      "href",
      "/quote?service=counter-fraud-training",
    );
  });

  test("the dark web section, the four service cards and the closing call to action link on", async ({
    page,
  }) => {
    await page.goto("/");
    const darkWeb = page.getByRole("region", { name: "Know when your data is for sale" });
    await expect(
      darkWeb.getByRole("link", { name: "Explore Dark Web Monitoring" }),
    ).toHaveAttribute("href", "/services/dark-web-monitoring");
    await expect(darkWeb.getByRole("link", { name: "Request a Quote" })).toHaveAttribute(
      "href",
      "/quote?service=dark-web-monitoring",
    );

    const services = page.getByRole("region", { name: "Our Services" });
    for (const [title, href] of [
      ["Dark Web Monitoring", "/services/dark-web-monitoring"],
      ["Counter Fraud Training", "/services/counter-fraud-training"],
      ["Security Consultancy", "/services/security-consultancy"],
      ["File Interrogator", "/services/file-interrogator"],
    ] as const) {
      await expect(services.getByRole("heading", { name: title, level: 3 })).toBeVisible();
      await expect(
        services.getByRole("list", { name: `${title} features` }).getByRole("listitem"),
      ).toHaveCount(3);
      await expect(
        services.getByRole("link", { name: `Learn More about ${title}` }),
      ).toHaveAttribute("href", href);
    }

    const cta = page.getByRole("region", {
      name: "Ready to strengthen your defences against fraud?",
    });
    await expect(cta.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/contact");
  });

  test("the page describes the organisation in JSON-LD", async ({ page, baseURL }) => {
    await page.goto("/");
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const organisation = blocks
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((value) => value["@type"] === "Organization");
    expect(organisation).toMatchObject({
      "@context": "https://schema.org",
      name: "NightWatch",
      url: `${baseURL}/`,
      email: "info@nightwatch.co.uk",
      address: { addressLocality: "London", addressCountry: "GB" },
    });
  });
});

test.describe("service pages", () => {
  test("'Get Custom Monitoring Plan' scrolls to the monitoring form", async ({ page }) => {
    await page.goto("/services/dark-web-monitoring");
    const form = page.locator("#monitoring-form");
    await expect(form).toBeAttached();
    const panelHeading = page.getByRole("heading", { name: "Tell us what to watch" });
    await expect(panelHeading).not.toBeInViewport();
    const link = page.getByRole("link", { name: "Get Custom Monitoring Plan" });
    await expect(link).toHaveAttribute("href", "#monitoring-form");
    await link.click();
    await expect(page).toHaveURL(/#monitoring-form$/);
    await expect(panelHeading).toBeInViewport();
  });

  test("'Schedule Consultation' scrolls to the consultation form", async ({ page }) => {
    await page.goto("/services/security-consultancy");
    const form = page.locator("#consultation-form");
    await expect(form).toBeAttached();
    const panelHeading = page.getByRole("heading", { name: "Tell us about your challenge" });
    await expect(panelHeading).not.toBeInViewport();
    const link = page.getByRole("link", { name: "Schedule Consultation" });
    await expect(link).toHaveAttribute("href", "#consultation-form");
    await link.click();
    await expect(page).toHaveURL(/#consultation-form$/);
    await expect(panelHeading).toBeInViewport();
  });

  test("'Get License Quote' shows and hides the licence form", async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto("/services/file-interrogator");
    const toggle = page.getByRole("button", { name: "Get License Quote" });
    const region = page.locator("#licence-quote");
    const heading = page.getByRole("heading", { name: "Request a licence quote" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toHaveAttribute("aria-controls", "licence-quote");
    await expect(heading).toBeHidden();
    await expect(region.locator("#licence-form")).toBeAttached();

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(heading).toBeVisible();
    await expect(region.locator("#licence-form")).toBeVisible();

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(heading).toBeHidden();
    expect(errors).toEqual([]);
  });

  test("?licence=1 opens the licence form on load, with the canonical URL unchanged", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/services/file-interrogator?licence=1");
    await expect(page.getByRole("button", { name: "Get License Quote" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    await expect(page.getByRole("heading", { name: "Request a licence quote" })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `${baseURL}/services/file-interrogator`,
    );
  });
});

test.describe("legal pages", () => {
  for (const path of ["/privacy", "/terms", "/gdpr"]) {
    test(`${path} shows today's date, numbered sections and the three mailboxes`, async ({
      page,
    }) => {
      await page.goto(path);
      await expect(page.getByText(`Last updated: ${todayInLondon()}`)).toBeVisible();
      const headings = await page.locator("main section h2").allTextContents();
      const numbered = headings.filter((h) => /^\d+\. /.test(h));
      expect(numbered.length).toBeGreaterThanOrEqual(8);
      numbered.forEach((heading, index) =>
        expect(heading).toMatch(new RegExp(`^${index + 1}\\. `)),
      );
      for (const mailbox of MAILBOXES) {
        await expect(page.getByRole("link", { name: mailbox }).first()).toHaveAttribute(
          "href",
          `mailto:${mailbox}`,
        );
      }
      // The contents list jumps to each section.
      const contents = page.getByRole("navigation", { name: "On this page" });
      await expect(contents.getByRole("link")).toHaveCount(numbered.length);
    });
  }

  test("the cookie section lists the two strictly necessary cookies: admin session, booking", async ({
    page,
  }) => {
    for (const path of ["/privacy", "/gdpr"]) {
      await page.goto(path);
      const cookies = page.getByRole("region", { name: /Cookies/ });
      await expect(cookies.getByText("Admin session", { exact: true })).toBeVisible();
      await expect(cookies.getByText("Booking confirmation", { exact: true })).toBeVisible();
      await expect(cookies.getByText("Strictly necessary", { exact: true })).toHaveCount(2);
      await expect(cookies.getByText(/httpOnly/)).toHaveCount(2);
      await expect(cookies.getByText(/no analytics/i)).toBeVisible();
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const pageCase of PAGES) {
    test(`${pageCase.path} shows its content`, async ({ page }) => {
      const response = await page.goto(pageCase.path);
      expect(response?.status()).toBe(200);
      await expectContent(page, pageCase);
    });
  }

  test("'Get License Quote' is a link that opens and closes the licence form", async ({ page }) => {
    await page.goto("/services/file-interrogator");
    const heading = page.getByRole("heading", { name: "Request a licence quote" });
    await expect(heading).toBeHidden();

    await page.getByRole("link", { name: "Get License Quote" }).click();
    await expect(page).toHaveURL(/\/services\/file-interrogator\?licence=1#licence-form$/);
    await expect(heading).toBeVisible();
    await expect(page.locator("#licence-quote #licence-form")).toBeVisible();

    await page.getByRole("link", { name: "Get License Quote" }).click();
    await expect(page).toHaveURL(/\/services\/file-interrogator#licensing$/);
    await expect(heading).toBeHidden();
  });

  test("the hero anchors reach their forms", async ({ page }) => {
    await page.goto("/services/dark-web-monitoring");
    await page.getByRole("link", { name: "Get Custom Monitoring Plan" }).click();
    await expect(page.getByRole("heading", { name: "Tell us what to watch" })).toBeInViewport();
    await page.goto("/services/security-consultancy");
    await page.getByRole("link", { name: "Schedule Consultation" }).click();
    await expect(
      page.getByRole("heading", { name: "Tell us about your challenge" }),
    ).toBeInViewport();
  });
});
