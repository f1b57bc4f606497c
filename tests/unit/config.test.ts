import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/config.server.ts";

describe("configuration", () => {
  it("refuses an https PUBLIC_URL without TRUST_PROXY, naming the setting", () => {
    expect(() => loadConfig({ PUBLIC_URL: "https://www.example.co.uk" })).toThrow(
      /TRUST_PROXY: PUBLIC_URL is https:\/\/www\.example\.co\.uk.*set TRUST_PROXY/s,
    );
    const behindProxy = loadConfig({ PUBLIC_URL: "https://www.example.co.uk", TRUST_PROXY: "1" });
    expect(behindProxy.trustProxy).toBe(1);
    expect(behindProxy.trustedOrigins).toEqual(["https://www.example.co.uk"]);
  });

  it("on a loopback address, trusts the other loopback names of the same port", () => {
    expect(loadConfig({ PORT: "3000" }).trustedOrigins).toEqual([
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]);
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:4000/" }).trustedOrigins).toContain(
      "http://localhost:4000",
    );
    expect(loadConfig({ PUBLIC_URL: "http://shop.internal:8080" }).trustedOrigins).toEqual([
      "http://shop.internal:8080",
    ]);
  });
});
