import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import {
  artworkCacheControl,
  artworkVersion,
  CARD_ARTWORK,
  courseArtworkPng,
  courseArtworkSvg,
  courseArtworkUrl,
  courseOgImageUrl,
  OG_ARTWORK,
} from "#server/catalogue/course-artwork.server.ts";

/** Generated course artwork (decision 0022): the same course always, every course its own. */

const FRAUD = { title: "Introduction to Counter Fraud", categoryName: "Fraud Prevention" };
const OSINT = { title: "OSINT Investigations Masterclass", categoryName: "OSINT & Investigations" };

/** resvg parses the SVG as strict XML and tells its size: it throws on anything malformed. */
function parsedSize(svg: string) {
  const parsed = new Resvg(svg, { font: { loadSystemFonts: false } });
  return { width: parsed.width, height: parsed.height };
}

describe("courseArtworkSvg", () => {
  it("is deterministic: the same title and category give the same bytes", () => {
    expect(courseArtworkSvg(FRAUD)).toBe(courseArtworkSvg({ ...FRAUD }));
    expect(courseArtworkSvg(FRAUD, OG_ARTWORK)).toBe(courseArtworkSvg(FRAUD, OG_ARTWORK));
    expect(artworkVersion(FRAUD)).toBe(artworkVersion({ ...FRAUD }));
  });

  it("differs between two titles, and between two categories of one title", () => {
    const other = { ...FRAUD, title: "Insider Fraud Detection" };
    expect(courseArtworkSvg(other)).not.toBe(courseArtworkSvg(FRAUD));
    expect(artworkVersion(other)).not.toBe(artworkVersion(FRAUD));
    const recategorised = { ...FRAUD, categoryName: "Cyber Security" };
    expect(courseArtworkSvg(recategorised)).not.toBe(courseArtworkSvg(FRAUD));
    expect(artworkVersion(recategorised)).not.toBe(artworkVersion(FRAUD));
    expect(courseArtworkSvg({ ...FRAUD, categoryName: null })).not.toBe(courseArtworkSvg(FRAUD));
    expect(courseArtworkSvg(OSINT)).not.toBe(courseArtworkSvg(FRAUD));
  });

  it("is a valid SVG of the size asked for, with no text and nothing outside it", () => {
    for (const subject of [FRAUD, OSINT, { title: "x", categoryName: null }]) {
      for (const size of [CARD_ARTWORK, OG_ARTWORK]) {
        const svg = courseArtworkSvg(subject, size);
        expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
        expect(svg.endsWith("</svg>")).toBe(true);
        expect(parsedSize(svg)).toEqual(size);
        expect(svg).not.toMatch(/<text|<script|<image|href=|url\((?!#)/);
        // Light enough to send with a page's pictures.
        expect(svg.length).toBeLessThan(8_000);
      }
    }
  });

  it("never writes the title into the picture, whatever it holds", () => {
    const hostile = { title: `</svg><script>alert("x")</script> & "quotes"`, categoryName: "<b>" };
    const svg = courseArtworkSvg(hostile);
    expect(svg).not.toContain("script");
    expect(svg).not.toContain("quotes");
    expect(parsedSize(svg)).toEqual(CARD_ARTWORK);
  });

  it("draws each category family in its own colours", () => {
    // Fraud: amber, rose or cyan; compliance: emerald, teal or indigo.
    expect(courseArtworkSvg(FRAUD)).toMatch(/stroke="(#fbbf24|#fb7185|#22d3ee)" stroke-width="5"/);
    const kyc = { title: "Customer Due Diligence", categoryName: "Compliance & KYC" };
    expect(courseArtworkSvg(kyc)).toMatch(/stroke="(#34d399|#2dd4bf|#818cf8)" stroke-width="5"/);
  });
});

describe("courseArtworkPng", () => {
  it("is a 1200×630 PNG, drawn once and then kept", async () => {
    const png = await courseArtworkPng(FRAUD);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // The first chunk is IHDR: width and height, big-endian.
    expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    expect(await courseArtworkPng({ ...FRAUD })).toBe(png);
    // Asked for at once, drawn once.
    const [a, b] = await Promise.all([courseArtworkPng(OSINT), courseArtworkPng(OSINT)]);
    expect(a).toBe(b);
    expect(a.equals(png)).toBe(false);
  });
});

describe("artwork URLs and caching", () => {
  it("names the course and the version of its artwork", () => {
    const course = { ...FRAUD, slug: "introduction-to-counter-fraud" };
    const version = artworkVersion(FRAUD);
    expect(version).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(courseArtworkUrl(course)).toBe(
      `/courses/introduction-to-counter-fraud/artwork.svg?v=${version}`,
    );
    expect(courseOgImageUrl(course)).toBe(
      `/courses/introduction-to-counter-fraud/og.png?v=${version}`,
    );
  });

  it("lets the current version be kept for a year, any other briefly", () => {
    const version = artworkVersion(FRAUD);
    const at = (query: string) => new Request(`http://localhost/courses/x/og.png${query}`);
    expect(artworkCacheControl(at(`?v=${version}`), version)).toBe(
      "public, max-age=31536000, immutable",
    );
    expect(artworkCacheControl(at("?v=old"), version)).toBe("public, max-age=300");
    expect(artworkCacheControl(at(""), version)).toBe("public, max-age=300");
  });
});
