import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import { expectToast, signInAsAdmin } from "#tests/support/e2e-fixtures.ts";

/**
 * The few-second cache of public pages for visitors without cookies (server/page-cache.server.ts),
 * against the production server: anonymous visitors get the same bytes (no nonce, no stamp), in
 * the encoding they take; only shareable pages are kept; a forged Host cannot reach the shared
 * copy; visitors with cookies are rendered for; an admin change is visible at once.
 */

const COURSE = "/courses/introduction-to-counter-fraud";

/**
 * Asks until the answer comes from the cache (the first may render, or find an expired copy);
 * `next` gives the URL of each further try.
 */
async function getFromCache(visitor: APIRequestContext, path: string, next = () => path) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const response = await visitor.get(attempt === 0 ? path : next());
    expect(response.status()).toBe(200);
    if (response.headers()["x-page-cache"] === "hit") return response;
  }
  throw new Error(`${path} never came from the page cache`);
}

test.describe("page cache", () => {
  let visitor: APIRequestContext;
  test.beforeEach(async ({ playwright, baseURL }) => {
    visitor = await playwright.request.newContext({ baseURL });
  });
  test.afterEach(async () => {
    await visitor.dispose();
  });

  test("two anonymous visitors get the same bytes and headers: nothing per visitor", async () => {
    const first = await getFromCache(visitor, "/");
    const second = await getFromCache(visitor, "/");
    const [a, b] = await Promise.all([first.body(), second.body()]);
    expect(a.equals(b)).toBe(true);
    const shared = (response: APIResponse) => {
      const { date: _date, "x-request-id": _id, ...rest } = response.headers();
      return rest;
    };
    expect(shared(first)).toEqual(shared(second));
    // The page's scripts are allowed by hash; the render's mark on them (a nonce attribute)
    // is named nowhere in the policy, so a cached copy gives nothing away.
    expect(first.headers()["content-security-policy"]).toMatch(
      /script-src 'self'( 'sha256-[^']+')+;/,
    );
    expect(first.headers()["content-security-policy"]).not.toContain("nonce");
    expect(a.toString()).not.toContain("form_started");
    // A fresh render (not from the cache) is allowed by hash too: a partner no page was asked for.
    const fresh = await visitor.get(
      `/services/counter-fraud-training?partner=fresh-${Date.now().toString(36)}`,
    );
    expect(fresh.headers()["x-page-cache"]).toBe("miss");
    expect(fresh.headers()["content-security-policy"]).toMatch(
      /script-src 'self'( 'sha256-[^']+')+;/,
    );
  });

  test("a copy is sent as brotli, gzip or plain as the client takes it; ETag revalidates", async () => {
    await getFromCache(visitor, "/privacy");
    const ask = (encoding: string) =>
      visitor.get("/privacy", { headers: { "accept-encoding": encoding } });
    const [br, zipped, plain] = await Promise.all([ask("gzip, br"), ask("gzip"), ask("identity")]);
    for (const response of [br, zipped, plain]) {
      expect(response.headers()["x-page-cache"]).toBe("hit");
      expect(response.headers()["vary"]).toContain("Accept-Encoding");
    }
    expect(br.headers()["content-encoding"]).toBe("br");
    expect(zipped.headers()["content-encoding"]).toBe("gzip");
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers()["content-length"])).toBe((await plain.body()).length);
    // Decoded by the client, all three are the same page.
    const texts = await Promise.all([br, zipped, plain].map((r) => r.text()));
    expect(texts[0]).toContain("Privacy Policy");
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);

    const etag = plain.headers()["etag"];
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await visitor.get("/privacy", { headers: { "if-none-match": etag! } });
    expect(again.status()).toBe(304);
    expect(await again.body()).toHaveLength(0);

    const head = await visitor.fetch("/privacy", { method: "HEAD" });
    expect(head.status()).toBe(200);
    expect(head.headers()["x-page-cache"]).toBe("hit");
    expect(await head.body()).toHaveLength(0);
  });

  test("a posted form served from the cache is accepted", async ({ page }) => {
    // The copy is warmed by another visitor, then this browser gets the same bytes.
    await getFromCache(visitor, "/contact");
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Enquiry form" });
    await form.getByLabel("Full Name").fill("Cache Visitor");
    await form.getByLabel("Email").fill("cache.visitor@example.com");
    await form.getByLabel("Message").fill("Sent from a page that came from the cache.");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Message sent successfully!", "We'll get back to you within 24 hours.");
  });

  test("only shareable pages are kept; visitors with cookies get their own rendering", async () => {
    const missing = await visitor.get("/courses/no-such-course");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["x-page-cache"]).toBe("bypass");

    await getFromCache(visitor, COURSE);
    const withCookie = await visitor.get(COURSE, { headers: { cookie: "anything=1" } });
    expect(withCookie.status()).toBe(200);
    expect(withCookie.headers()["x-page-cache"]).toBeUndefined();

    const checkout = await visitor.get(`${COURSE}/checkout`);
    expect(checkout.headers()["x-page-cache"]).not.toBe("hit");
  });

  test("query parameters no page reads share the page's copy; those a page reads do not", async () => {
    const random = () => Math.random().toString(36).slice(2);
    // Each URL is new, so a hit can only be the copy of `/` (asked again should the few-second
    // copy expire in between on a slow machine).
    const second = await getFromCache(
      visitor,
      `/?utm_source=x&r=${random()}`,
      () => `/?utm_source=x&r=${random()}`,
    );
    const plain = await getFromCache(visitor, "/");
    expect(await second.text()).toBe(await plain.text());

    // React Router's route discovery is no page: it reaches the router with its whole query.
    const discovery = await visitor.get(`/__manifest?paths=%2Fabout&version=x&r=${random()}`);
    expect(discovery.headers()["x-page-cache"]).toBeUndefined();

    // The catalogue's partner filter is read by the page: each value is a page of its own.
    const partner = `p-${random()}`;
    const filtered = await visitor.get(
      `/services/counter-fraud-training?gclid=${random()}&partner=${partner}`,
    );
    expect(filtered.headers()["x-page-cache"]).toBe("miss");
    await getFromCache(
      visitor,
      `/services/counter-fraud-training?partner=${partner}&r=1`,
      () => `/services/counter-fraud-training?partner=${partner}&r=${random()}`,
    );
  });

  test("files are not pages: a PNG goes out as it is, an SVG compressed as usual", async () => {
    const png = await visitor.get(`${COURSE}/og.png`, { headers: { "accept-encoding": "br" } });
    expect(png.status()).toBe(200);
    expect(png.headers()["x-page-cache"]).toBeUndefined();
    expect(png.headers()["content-encoding"]).toBeUndefined();
    expect((await png.body()).subarray(1, 4).toString("latin1")).toBe("PNG");

    const svg = await visitor.get(`${COURSE}/artwork.svg`, {
      headers: { "accept-encoding": "br" },
    });
    expect(svg.status()).toBe(200);
    expect(svg.headers()["x-page-cache"]).toBeUndefined();
    expect(svg.headers()["content-encoding"]).toBe("br");
  });

  test("a forged Host header never reaches the shared copy", async ({ baseURL }) => {
    const forged = await visitor.get("/about", { headers: { host: "evil.example" } });
    expect(forged.status()).toBe(200);
    expect(await forged.text()).not.toContain("evil.example");
    const next = await getFromCache(visitor, "/about");
    const html = await next.text();
    expect(html).not.toContain("evil.example");
    expect(html).toContain(`<link rel="canonical" href="${new URL("/about", baseURL).href}"/>`);
  });

  test("an admin's change to the catalogue shows at once", async ({ page }) => {
    const before = await getFromCache(visitor, COURSE);
    expect(await before.text()).toContain("Fraud Prevention");

    await signInAsAdmin(page);
    await page.goto("/admin/categories");
    const rename = async (from: string, to: string) => {
      await page.getByRole("button", { name: `Edit ${from}`, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Category" });
      await dialog.getByLabel("Name").fill(to);
      await dialog.getByRole("button", { name: "Update Category" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("row").filter({ hasText: to }).first()).toBeVisible();
    };
    const renamed = "Fraud Prevention (renamed by the cache test)";
    await rename("Fraud Prevention", renamed);
    try {
      const after = await visitor.get(COURSE);
      expect(after.headers()["x-page-cache"]).toBe("miss");
      expect(await after.text()).toContain(renamed);
    } finally {
      await rename(renamed, "Fraud Prevention");
    }
  });
});
