import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { signInAsAdmin } from "#tests/support/e2e-admin.ts";

/**
 * The few-second cache of public pages for visitors without cookies (server/page-cache.server.ts),
 * against the production server: visitors share a rendering but never a CSP nonce or a form
 * time-stamp; only shareable pages are kept; a forged Host cannot reach the shared copy; visitors
 * with cookies are rendered for; an admin change is visible at once.
 */

const COURSE = "/courses/introduction-to-counter-fraud";

const nonceInHeader = (response: APIResponse) =>
  /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
const noncesInBody = (html: string) =>
  new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]));
const formStamps = (html: string) =>
  new Set([...html.matchAll(/name="form_started" value="([^"]+)"/g)].map((m) => m[1]));

/** Asks until the answer comes from the cache (the first may render, or find an expired copy). */
async function getFromCache(visitor: APIRequestContext, path: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const response = await visitor.get(path);
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

  test("two visitors share one rendering, each with their own nonce and form time-stamp", async () => {
    const first = await getFromCache(visitor, "/contact");
    const second = await getFromCache(visitor, "/contact");
    const pages = [first, second];
    const bodies = await Promise.all(pages.map((r) => r.text()));

    const nonces = pages.map(nonceInHeader);
    expect(nonces[0]).toBeTruthy();
    expect(nonces[0]).not.toBe(nonces[1]);
    // Every script of each copy carries that copy's own nonce, and no other.
    expect([...noncesInBody(bodies[0]!)]).toEqual([nonces[0]]);
    expect([...noncesInBody(bodies[1]!)]).toEqual([nonces[1]]);

    const stamps = bodies.map(formStamps);
    expect(stamps[0]!.size).toBe(1);
    expect(stamps[1]!.size).toBe(1);
    const [stampA] = stamps[0]!;
    const [stampB] = stamps[1]!;
    expect(stampA).toMatch(/^\d{13}\.[\w-]{32}$/);
    expect(stampA).not.toBe(stampB);
    // The stamp is when this copy was served, not when the page was rendered.
    expect(Math.abs(Number(stampB!.split(".")[0]) - Date.now())).toBeLessThan(5_000);

    // Apart from those values, the copies are the same rendering.
    const neutral = (html: string, nonce: string, stamp: string) =>
      html.replaceAll(nonce, "NONCE").replaceAll(stamp, "STAMP");
    expect(neutral(bodies[0]!, nonces[0]!, stampA!)).toBe(neutral(bodies[1]!, nonces[1]!, stampB!));

    // Uncompressed, the length sent is that of this copy (its nonce and stamp included).
    const plain = await visitor.get("/contact", { headers: { "accept-encoding": "identity" } });
    expect(Number(plain.headers()["content-length"])).toBe((await plain.body()).length);
  });

  test("a copy is sent as stored gzip to clients that take it, and plain to others", async () => {
    await getFromCache(visitor, "/privacy");
    const zipped = await visitor.get("/privacy", { headers: { "accept-encoding": "gzip" } });
    const plain = await visitor.get("/privacy", { headers: { "accept-encoding": "identity" } });
    for (const response of [zipped, plain]) {
      expect(response.headers()["x-page-cache"]).toBe("hit");
      expect(response.headers()["vary"]).toContain("Accept-Encoding");
    }
    expect(zipped.headers()["content-encoding"]).toBe("gzip");
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    // Decoded (the client checks the gzip trailer's CRC and length), both are the same page.
    const neutral = async (response: APIResponse) =>
      (await response.text())
        .replaceAll(nonceInHeader(response)!, "NONCE")
        .replace(/name="form_started" value="[^"]+"/g, "STAMP")
        .replace(/\d{13}\.[\w-]{32}/g, "STAMP");
    const [a, b] = await Promise.all([neutral(zipped), neutral(plain)]);
    expect(a).toContain("Privacy Policy");
    expect(a).toBe(b);

    const head = await visitor.fetch("/privacy", { method: "HEAD" });
    expect(head.status()).toBe(200);
    expect(head.headers()["x-page-cache"]).toBe("hit");
    expect(await head.body()).toHaveLength(0);
  });

  test("a posted form served from the cache is accepted", async ({ page }) => {
    // The copy is warmed by another visitor, then this browser gets it with its own stamp.
    await getFromCache(visitor, "/contact");
    await page.goto("/contact");
    const form = page.getByRole("form", { name: "Enquiry form" });
    await form.getByLabel("Full Name").fill("Cache Visitor");
    await form.getByLabel("Email").fill("cache.visitor@example.com");
    await form.getByLabel("Message").fill("Sent from a page that came from the cache.");
    await form.getByRole("button", { name: "Send Message" }).click();
    // A stamp that did not verify would be answered 'expired' (an error toast) instead.
    const toasts = page.getByRole("region", { name: /Notifications/ });
    await expect(toasts.getByText("Message sent successfully!", { exact: true })).toBeVisible();
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
