import { describe, expect, it } from "vitest";
import { preferredEncoding } from "#server/page-cache.server.ts";

describe("page cache: the encoding a client is sent", () => {
  it("prefers brotli, then gzip, whatever the client's order", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip, deflate")).toBe("gzip");
    expect(preferredEncoding("deflate")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });

  it("honours an explicit refusal, also over '*'", () => {
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("*;q=0.5, br;q=0")).toBe("gzip");
    expect(preferredEncoding("*")).toBe("br");
    expect(preferredEncoding("gzip;q=0, identity")).toBe("identity");
  });
});
