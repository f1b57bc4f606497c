import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliWindowBits, pageCacheKey, preferredEncoding } from "#server/page-cache.server.ts";

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

describe("page cache: the brotli window", () => {
  it("is the smallest that holds the page (a window of 2^bits − 16 bytes), 16 to 24 bits", () => {
    expect(brotliWindowBits(0)).toBe(16);
    expect(brotliWindowBits(2 ** 17 - 16)).toBe(17);
    expect(brotliWindowBits(2 ** 17 - 15)).toBe(18);
    expect(brotliWindowBits(121_380)).toBe(17);
    expect(brotliWindowBits(100 * 2 ** 20)).toBe(24);
  });

  it("compresses a page as well as the default 4 MiB window does", () => {
    const page = Buffer.from(
      Array.from({ length: 3000 }, (_, i) => `<li class="c${i % 37}">Course ${i * 7919}</li>`).join(
        "",
      ),
    );
    const compress = (lgwin: number) =>
      brotliCompressSync(page, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 5,
          [constants.BROTLI_PARAM_LGWIN]: lgwin,
        },
      });
    const small = compress(brotliWindowBits(page.length));
    expect(small.length).toBe(compress(22).length);
    expect(brotliDecompressSync(small).equals(page)).toBe(true);
  });
});

describe("page cache: the URL a page is kept under", () => {
  it("drops every query parameter no page reads (tracking tags, cache-busters)", () => {
    expect(pageCacheKey("/")).toBe("/");
    expect(pageCacheKey("/?utm_source=x&utm_medium=y&r=8f3a")).toBe("/");
    expect(pageCacheKey("/about?fbclid=abc&gclid=def&")).toBe("/about");
  });

  it("keeps the ones a page reads, in a fixed order, whatever came with them", () => {
    expect(pageCacheKey("/services/counter-fraud-training?utm_source=x&partner=acme")).toBe(
      "/services/counter-fraud-training?partner=acme",
    );
    expect(pageCacheKey("/quote?service=training&r=1")).toBe("/quote?service=training");
    expect(pageCacheKey("/courses/a?r=2&quote=any&licence=1")).toBe(
      "/courses/a?licence=1&quote=any",
    );
    expect(pageCacheKey("/x?partner=a%20b&partner=c")).toBe("/x?partner=a+b&partner=c");
  });

  it("leaves the path exactly as it was sent", () => {
    expect(pageCacheKey("/courses/%2e%2e/x?utm_source=1")).toBe("/courses/%2e%2e/x");
  });
});
