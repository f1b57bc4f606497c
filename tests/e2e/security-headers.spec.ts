import { expect, test, type APIResponse } from "@playwright/test";

/**
 * The security headers of issue 8 on what the production server answers: pages (rendered and
 * from the page cache), a 404, an admin redirect, an API answer and a static asset. Over plain
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
  for (const path of ["/", "/services/counter-fraud-training", "/courses/no-such-course"]) {
    test(`${path}: a nonce-only script policy that matches the page's scripts`, async ({
      request,
    }) => {
      // Twice: the second answer may come from the page cache, which must set the same headers.
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await request.get(path);
        expectSafeHeaders(response);
        const directives = policy(response);
        expect(directives["default-src"]).toEqual(["'self'"]);
        expect(directives["frame-ancestors"]).toEqual(["'none'"]);
        expect(directives["object-src"]).toEqual(["'none'"]);
        expect(directives["base-uri"]).toEqual(["'self'"]);
        const scripts = directives["script-src"] ?? [];
        expect(scripts).not.toContain("'unsafe-inline'");
        expect(scripts).not.toContain("'unsafe-eval'");
        const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
        expect(nonce).toBeTruthy();
        // Every inline script the page runs carries this response's nonce.
        const html = await response.text();
        const inline = [...html.matchAll(/<script\b([^>]*)>/g)]
          .map((m) => m[1]!)
          .filter((attributes) => !/\bsrc=/.test(attributes))
          .filter(
            (attributes) =>
              !/type="(application\/ld\+json|text\/x-deferred-module)"/.test(attributes),
          );
        expect(inline.length).toBeGreaterThan(0);
        for (const attributes of inline) expect(attributes).toContain(`nonce="${nonce}"`);
      }
    });
  }

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
