import { createHash } from "node:crypto";
import { expect, type APIResponse } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";

/**
 * The security headers on what the production server answers: shared pages (rendered and from
 * the page cache: scripts by hash), a 404 (scripts by nonce), an admin redirect, an API answer
 * and a static asset. Over plain
 * http there is no HSTS (tests/unit/security-headers.test.ts covers an https PUBLIC_URL).
 */

function expectSafeHeaders(response: APIResponse) {
  const headers = response.headers();
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["strict-transport-security"]).toBeUndefined();
  expect(headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
  expect(headers["x-powered-by"]).toBeUndefined();
}

function policy(response: APIResponse) {
  const csp = response.headers()["content-security-policy"] ?? "";
  return Object.fromEntries(
    csp
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;
}

test.describe("security headers", () => {
  function expectCommonDirectives(directives: Record<string, string[]>) {
    expect(directives["default-src"]).toEqual(["'self'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'self'"]);
    const scripts = directives["script-src"] ?? [];
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
  }

  /** The inline scripts a browser would run: attributes and text. */
  const inlineScripts = (html: string) =>
    [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter((m) => !/\bsrc=/.test(m[1]!) && !/type="application\/ld\+json"/.test(m[1]!))
      .map((m) => ({ attributes: m[1]!, text: m[2]! }));

  for (const path of ["/", "/services/counter-fraud-training"]) {
    test(`${path}: shared page, its inline scripts allowed by hash and nothing else`, async ({
      request,
    }) => {
      // Twice: the second answer may come from the page cache, which must send the same policy.
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await request.get(path);
        expectSafeHeaders(response);
        const directives = policy(response);
        expectCommonDirectives(directives);
        const scripts = directives["script-src"] ?? [];
        expect(scripts.some((s) => s.startsWith("'nonce-"))).toBe(false);
        const html = await response.text();
        const inline = inlineScripts(html);
        expect(inline.length).toBeGreaterThan(0);
        for (const { attributes, text } of inline) {
          // The render's mark on its own scripts; the policy names none (only hashes).
          expect(attributes).toMatch(/nonce="[^"]+"/);
          const hash = createHash("sha256").update(text).digest("base64");
          expect(scripts).toContain(`'sha256-${hash}'`);
        }
      }
    });
  }

  test("an inline script injected into a shared page is refused by its policy; the page's own run", async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // The page as the server sent it (its policy included), with a script slipped into the body
    // — as stored or reflected content would be.
    await page.route("**/", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "</body>",
        `<script>window.__injected = true;</script><script nonce="guess">window.__guessed = true;</script></body>`,
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto("/");
    // The page's own scripts ran: it hydrated.
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(await page.evaluate(() => "__injected" in window || "__guessed" in window)).toBe(false);
    expect(violations.length).toBeGreaterThanOrEqual(2);
  });

  test("a page for one visitor (a 404): a nonce-only script policy that matches its scripts", async ({
    request,
  }) => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await request.get("/courses/no-such-course");
      expect(response.status()).toBe(404);
      expectSafeHeaders(response);
      const directives = policy(response);
      expectCommonDirectives(directives);
      const scripts = directives["script-src"] ?? [];
      expect(scripts).toHaveLength(2);
      const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
      expect(nonce).toBeTruthy();
      const inline = inlineScripts(await response.text());
      expect(inline.length).toBeGreaterThan(0);
      for (const { attributes } of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    }
  });

  test("an admin redirect, an API answer and a static asset carry them too", async ({
    request,
  }) => {
    const admin = await request.get("/admin/dashboard", { maxRedirects: 0 });
    expect(admin.status()).toBeGreaterThanOrEqual(300);
    expectSafeHeaders(admin);

    const api = await request.post("/api/stripe/webhook", { data: "{}" });
    expect(api.status()).toBeGreaterThanOrEqual(400);
    expectSafeHeaders(api);
    expect(await api.text()).not.toMatch(/at \S+ \(|node_modules|\.ts:\d+/);

    // Files are answered before the app: each is still taken only as the type it is sent as.
    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["x-content-type-options"]).toBe("nosniff");
    const html = await (await request.get("/")).text();
    const script = /\/assets\/[\w-]+\.js/.exec(html)?.[0];
    expect(script).toBeTruthy();
    const asset = await request.get(script!);
    expect(asset.headers()["content-type"]).toContain("javascript");
    expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers()["cache-control"]).toContain("immutable");
  });

  test("a request id given by a proxy is kept; otherwise one is made", async ({ request }) => {
    const given = await request.get("/healthz", { headers: { "x-request-id": "lb-1234-abcd" } });
    expect(given.headers()["x-request-id"]).toBe("lb-1234-abcd");
    const made = await request.get("/healthz");
    expect(made.headers()["x-request-id"]).not.toBe("lb-1234-abcd");
  });
});
