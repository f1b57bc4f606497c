import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The page policies as the site builds them, for an http and for an https PUBLIC_URL (read
 * once, at start): HSTS and upgrade-insecure-requests only on https; a shared page's scripts
 * allowed by hash, any other page's by a fresh nonce. tests/e2e/security-headers.spec.ts checks
 * them on the running server.
 */

async function load(publicUrl: string) {
  vi.resetModules();
  vi.stubEnv("PUBLIC_URL", publicUrl);
  vi.stubEnv("TRUST_PROXY", "loopback");
  return import("#server/security-headers.server.ts");
}

async function fixedHeaders(publicUrl: string) {
  const { securityHeaders } = await load(publicUrl);
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
  };
  securityHeaders()({} as never, res as never, () => {});
  return headers;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("security headers", () => {
  it("over https: HSTS for a year with subdomains, and insecure requests upgraded", async () => {
    const headers = await fixedHeaders("https://www.example.co.uk");
    expect(headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const { documentPolicy } = await load("https://www.example.co.uk");
    expect(documentPolicy({ nonce: "abc" })).toContain("upgrade-insecure-requests");
  });

  it("over http: no HSTS (a browser would refuse the site until it expired)", async () => {
    const headers = await fixedHeaders("http://localhost:3000");
    expect(headers.get("strict-transport-security")).toBeUndefined();
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    const { documentPolicy } = await load("http://localhost:3000");
    expect(documentPolicy({ nonce: "abc" })).not.toContain("upgrade-insecure-requests");
  });

  it("a page for one visitor: its own nonce and no other script source", async () => {
    const { documentPolicy, freshNonce } = await load("http://localhost:3000");
    const first = freshNonce();
    expect(first).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(freshNonce()).not.toBe(first);
    const scripts = /script-src ([^;]*)/.exec(documentPolicy({ nonce: first }))?.[1];
    expect(scripts?.split(" ")).toEqual(["'self'", `'nonce-${first}'`]);
  });

  it("a shared page: the inline scripts it wrote by SHA-256 hash, script files by origin", async () => {
    const { documentPolicy, inlineScriptHashes } = await load("http://localhost:3000");
    // The example of the CSP specification: alert('Hello, world.');
    const html =
      `<head><script nonce="R1">alert('Hello, world.');</script><script src="/assets/a.js"></script></head>` +
      `<body><script type="module" nonce="R1">import "/x.js";</script>` +
      `<script nonce="R1">alert('Hello, world.');</script>` +
      // Injected (stored or reflected content): without the render's mark, never named.
      `<script>steal(document.cookie)</script><script nonce="guess">steal()</script></body>`;
    const hashes = inlineScriptHashes(html, "R1");
    expect(hashes).toEqual([
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]{43}='$/),
    ]);
    const policy = documentPolicy({ hashes });
    expect(/script-src ([^;]*)/.exec(policy)?.[1]).toBe(`'self' ${hashes.join(" ")}`);
    expect(policy).not.toContain("nonce");
    expect(/script-src [^;]*unsafe/.test(policy)).toBe(false);
    expect(documentPolicy({ hashes: [] })).toContain("script-src 'self'; ");
    // Without a mark to go by, nothing is named.
    expect(inlineScriptHashes(html, "")).toEqual([]);
  });
});
