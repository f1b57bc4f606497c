import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The security headers as the site sets them, for an http and for an https PUBLIC_URL (which is
 * read once, at start): HSTS and upgrade-insecure-requests only on https; a fresh nonce per
 * response. tests/e2e/security-headers.spec.ts checks them on the running server.
 */

async function headersFor(publicUrl: string) {
  vi.resetModules();
  vi.stubEnv("PUBLIC_URL", publicUrl);
  const { applySecurityHeaders } = await import("#server/security-headers.server.ts");
  const respond = () => {
    const res = new ServerResponse(new IncomingMessage(new Socket()));
    const nonce = applySecurityHeaders(res);
    return { nonce, header: (name: string) => res.getHeader(name) as string | undefined };
  };
  return { first: respond(), second: respond() };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("applySecurityHeaders", () => {
  it("over https: HSTS for a year with subdomains, and insecure requests upgraded", async () => {
    const { first } = await headersFor("https://www.example.co.uk");
    expect(first.header("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(first.header("content-security-policy")).toContain("upgrade-insecure-requests");
  });

  it("over http: no HSTS (a browser would refuse the site until it expired)", async () => {
    const { first } = await headersFor("http://localhost:3000");
    expect(first.header("strict-transport-security")).toBeUndefined();
    expect(first.header("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("gives every response its own nonce, and only that one in its policy", async () => {
    const { first, second } = await headersFor("https://www.example.co.uk");
    expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.nonce).not.toBe(first.nonce);
    const scripts = /script-src ([^;]*)/.exec(first.header("content-security-policy") ?? "")?.[1];
    expect(scripts?.split(" ")).toEqual(["'self'", `'nonce-${first.nonce}'`]);
    expect(first.header("x-content-type-options")).toBe("nosniff");
    expect(first.header("x-frame-options")).toBe("DENY");
  });
});
