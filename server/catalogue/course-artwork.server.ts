import { createHash } from "node:crypto";
import { renderAsync } from "@resvg/resvg-js";
import { LRUCache } from "lru-cache";

/**
 * Generated artwork for a course that has no uploaded thumbnail (decision 0022): a
 * picture on the site's dark theme, different for every course and always the same for one,
 * drawn from its title and category alone.
 *
 * The category picks the motif and its palettes (fraud: a shield; OSINT and investigations: a
 * magnifier; cyber security: a lock; compliance and KYC: an identity card; anything else: a
 * network); a SHA-256 of title and category picks the palette, the background pattern, the glows,
 * a constellation of nodes and where the motif sits. Nothing of the title is written into the
 * picture (no text, so no fonts are needed and nothing typed by an admin reaches the SVG): its
 * colours and coordinates come from fixed tables and numbers.
 *
 * Served as SVG for the pages (`/courses/:slug/artwork.svg`) and as a 1200×630 PNG for Open Graph
 * cards (`/courses/:slug/og.png`), drawn by resvg off the main thread and kept in memory.
 */

export interface ArtworkSubject {
  title: string;
  categoryName: string | null;
}

/** Bump when the drawing changes: every artwork URL changes with it, so caches refetch. */
const ARTWORK_REVISION = "1";

/** The page artwork's size (16:9, as the course cards draw their pictures). */
export const CARD_ARTWORK = { width: 1280, height: 720 } as const;
/** Open Graph's recommended card size. */
export const OG_ARTWORK = { width: 1200, height: 630 } as const;

const BACKGROUND = "#0a0f1a";

interface Palette {
  /** The motif's colour. */
  a: string;
  /** The second glow and the constellation. */
  b: string;
}

const PALETTES = {
  cyan: { a: "#22d3ee", b: "#60a5fa" },
  teal: { a: "#2dd4bf", b: "#22d3ee" },
  blue: { a: "#60a5fa", b: "#818cf8" },
  violet: { a: "#a78bfa", b: "#60a5fa" },
  indigo: { a: "#818cf8", b: "#22d3ee" },
  amber: { a: "#fbbf24", b: "#f87171" },
  rose: { a: "#fb7185", b: "#fbbf24" },
  emerald: { a: "#34d399", b: "#2dd4bf" },
} satisfies Record<string, Palette>;

type Motif = "shield" | "magnifier" | "lock" | "idcard" | "network";

/** Motifs by keyword, tried on the category first, then on the title; the first match wins. */
const FAMILIES: { test: RegExp; motif: Motif; palettes: Palette[] }[] = [
  {
    test: /fraud|scam|mandate|insider|brib|money laundering/i,
    motif: "shield",
    palettes: [PALETTES.amber, PALETTES.rose, PALETTES.cyan],
  },
  {
    test: /osint|investigat|intelligence|dark web|interview/i,
    motif: "magnifier",
    palettes: [PALETTES.violet, PALETTES.indigo, PALETTES.blue],
  },
  {
    test: /cyber|security|ransom|incident|phish|hack/i,
    motif: "lock",
    palettes: [PALETTES.cyan, PALETTES.teal, PALETTES.blue],
  },
  {
    test: /complian|kyc|aml|data|gdpr|privacy|regulat|identity|due diligence/i,
    motif: "idcard",
    palettes: [PALETTES.emerald, PALETTES.teal, PALETTES.indigo],
  },
];
const DEFAULT_FAMILY = { motif: "network" as Motif, palettes: Object.values(PALETTES) };

function family(subject: ArtworkSubject) {
  const category = subject.categoryName ?? "";
  return (
    FAMILIES.find((f) => f.test.test(category)) ??
    FAMILIES.find((f) => f.test.test(subject.title)) ??
    DEFAULT_FAMILY
  );
}

function digest(subject: ArtworkSubject): Buffer {
  return createHash("sha256")
    .update(`${ARTWORK_REVISION}\u0000${subject.title}\u0000${subject.categoryName ?? ""}`)
    .digest();
}

/** A short, URL-safe fingerprint of what the artwork is drawn from (the `?v=` of its URLs). */
export function artworkVersion(subject: ArtworkSubject): string {
  return digest(subject).toString("base64url").slice(0, 12);
}

/** mulberry32: a small, fast PRNG; the same seed gives the same numbers everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two decimals at most: short, stable output. */
const n = (value: number) => String(Math.round(value * 100) / 100);

function mix(hexA: string, hexB: string, t: number): string {
  const a = parseInt(hexA.slice(1), 16);
  const b = parseInt(hexB.slice(1), 16);
  const channel = (shift: number) =>
    Math.round(((a >> shift) & 255) * (1 - t) + ((b >> shift) & 255) * t);
  return `#${((channel(16) << 16) | (channel(8) << 8) | channel(0)).toString(16).padStart(6, "0")}`;
}

/** The motif's line art in a 100×100 box, stroked in the palette's colour. */
function motifPaths(motif: Motif, fill: string): string {
  switch (motif) {
    case "shield":
      return (
        `<path d="M50 6 14 20v26c0 23 15 41 36 48 21-7 36-25 36-48V20z" fill="${fill}"/>` +
        `<path d="M50 30v26"/><circle cx="50" cy="68" r="2.5"/>`
      );
    case "magnifier":
      return (
        `<circle cx="42" cy="42" r="28" fill="${fill}"/><path d="M63 63l25 25" stroke-width="8"/>` +
        `<path d="M30 50l10-16 14 8" stroke-width="2.5"/>` +
        `<circle cx="30" cy="50" r="3"/><circle cx="40" cy="34" r="3"/><circle cx="54" cy="42" r="3"/>`
      );
    case "lock":
      return (
        `<path d="M34 44V32a16 16 0 0 1 32 0v12"/>` +
        `<rect x="22" y="44" width="56" height="44" rx="8" fill="${fill}"/>` +
        `<circle cx="50" cy="62" r="5"/><path d="M50 67v9"/>`
      );
    case "idcard":
      return (
        `<rect x="8" y="20" width="84" height="60" rx="8" fill="${fill}"/>` +
        `<circle cx="30" cy="44" r="8"/><path d="M17 66c2-8 7-12 13-12s11 4 13 12"/>` +
        `<path d="M52 40h28M52 52h20M52 64h12" stroke-width="3"/>` +
        `<path d="M72 70l6 6 12-13" stroke-width="5"/>`
      );
    case "network":
      return (
        `<path d="M50 8l36 21v42L50 92 14 71V29z" fill="${fill}"/>` +
        `<path d="M50 50 32 38m18 12 18-12M50 50v22" stroke-width="3"/>` +
        `<circle cx="50" cy="50" r="5"/><circle cx="32" cy="38" r="3.5"/>` +
        `<circle cx="68" cy="38" r="3.5"/><circle cx="50" cy="72" r="3.5"/>`
      );
  }
}

type Pattern = "grid" | "dots" | "diagonal" | "contours";
const PATTERNS: Pattern[] = ["grid", "dots", "diagonal", "contours"];

function patternLayer(
  pattern: Pattern,
  color: string,
  width: number,
  height: number,
  rnd: () => number,
): string {
  switch (pattern) {
    case "grid":
      return (
        `<pattern id="p" width="48" height="48" patternUnits="userSpaceOnUse">` +
        `<path d="M48 0H0v48" stroke="${color}" stroke-opacity=".09" stroke-width="1.5" fill="none"/></pattern>` +
        `<rect width="${width}" height="${height}" fill="url(#p)"/>`
      );
    case "dots":
      return (
        `<pattern id="p" width="28" height="28" patternUnits="userSpaceOnUse">` +
        `<circle cx="14" cy="14" r="1.8" fill="${color}" fill-opacity=".16"/></pattern>` +
        `<rect width="${width}" height="${height}" fill="url(#p)"/>`
      );
    case "diagonal":
      return (
        `<pattern id="p" width="36" height="36" patternUnits="userSpaceOnUse" patternTransform="rotate(${rnd() < 0.5 ? 45 : -45})">` +
        `<path d="M0 0v36" stroke="${color}" stroke-opacity=".07" stroke-width="10"/></pattern>` +
        `<rect width="${width}" height="${height}" fill="url(#p)"/>`
      );
    case "contours": {
      const cx = width * (0.15 + rnd() * 0.7);
      const cy = height * (0.2 + rnd() * 0.6);
      let rings = "";
      for (let r = 60; r < width; r += 56) {
        rings += `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(r * 1.25)}" ry="${n(r)}"/>`;
      }
      return `<g fill="none" stroke="${color}" stroke-opacity=".08" stroke-width="2">${rings}</g>`;
    }
  }
}

/**
 * The course's artwork as an SVG document of `size` (no text, no external references). The same
 * subject always gives the same bytes.
 */
export function courseArtworkSvg(
  subject: ArtworkSubject,
  size: { width: number; height: number } = CARD_ARTWORK,
): string {
  const { width: w, height: h } = size;
  const bytes = digest(subject);
  const rnd = random(bytes.readUInt32BE(0));
  const { motif, palettes } = family(subject);
  const palette = palettes[bytes[4]! % palettes.length]!;
  const pattern = PATTERNS[bytes[5]! % PATTERNS.length]!;
  const tint = mix(BACKGROUND, palette.a, 0.14);
  const deep = mix(BACKGROUND, palette.b, 0.06);

  // The motif sits in the left or right part of the picture, at about half its height.
  const motifRight = bytes[6]! % 3 !== 0;
  const motifSize = h * (0.48 + rnd() * 0.12);
  const mx = (motifRight ? w * (0.66 + rnd() * 0.08) : w * (0.26 + rnd() * 0.08)) - motifSize / 2;
  const my = h * (0.47 + rnd() * 0.06) - motifSize / 2;
  const rotate = (rnd() - 0.5) * 14;
  const cx = mx + motifSize / 2;
  const cy = my + motifSize / 2;

  // Glows: one behind the motif, one or two elsewhere.
  const glows = [
    { x: cx, y: cy, r: motifSize * 1.3, color: palette.a, o: 0.34 },
    {
      x: w * (motifRight ? 0.1 + rnd() * 0.25 : 0.65 + rnd() * 0.25),
      y: h * rnd(),
      r: h * (0.6 + rnd() * 0.4),
      color: palette.b,
      o: 0.2,
    },
  ];
  if (rnd() < 0.5) {
    glows.push({ x: w * rnd(), y: h * (0.8 + rnd() * 0.3), r: h * 0.5, color: palette.a, o: 0.12 });
  }

  // A constellation on the side away from the motif: each node joined to its nearest neighbours.
  const nodes: { x: number; y: number; r: number }[] = [];
  const count = 7 + Math.floor(rnd() * 5);
  const [left, right] = motifRight ? [0.04, 0.46] : [0.54, 0.96];
  for (let i = 0; i < count; i++) {
    nodes.push({
      x: w * (left + rnd() * (right - left)),
      y: h * (0.08 + rnd() * 0.84),
      r: 2.5 + rnd() * 3.5,
    });
  }
  const edges = new Set<string>();
  nodes.forEach((node, i) => {
    const nearest = nodes
      .map((other, j) => ({ j, d: (other.x - node.x) ** 2 + (other.y - node.y) ** 2 }))
      .filter(({ j }) => j !== i)
      .sort((p, q) => p.d - q.d)
      .slice(0, rnd() < 0.4 ? 2 : 1);
    for (const { j } of nearest) edges.add(i < j ? `${i}-${j}` : `${j}-${i}`);
  });
  const links = [...edges]
    .map((edge) => {
      const [p, q] = edge.split("-").map((k) => nodes[Number(k)]!);
      return `M${n(p!.x)} ${n(p!.y)}L${n(q!.x)} ${n(q!.y)}`;
    })
    .join("");

  const defs =
    glows
      .map(
        (g, i) =>
          `<radialGradient id="g${i}"><stop offset="0" stop-color="${g.color}" stop-opacity="${g.o}"/>` +
          `<stop offset="1" stop-color="${g.color}" stop-opacity="0"/></radialGradient>`,
      )
      .join("") +
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="${deep}"/><stop offset="1" stop-color="${tint}"/></linearGradient>`;

  const s = motifSize / 100;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs>${defs}</defs>` +
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>` +
    patternLayer(pattern, palette.a, w, h, rnd) +
    glows
      .map((g, i) => `<circle cx="${n(g.x)}" cy="${n(g.y)}" r="${n(g.r)}" fill="url(#g${i})"/>`)
      .join("") +
    `<g fill="none" stroke="${palette.b}" stroke-opacity=".28" stroke-width="2">` +
    `<path d="${links}"/></g>` +
    `<g fill="${palette.b}" fill-opacity=".6">` +
    nodes.map((p) => `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(p.r)}"/>`).join("") +
    `</g>` +
    `<g fill="none" stroke="${palette.a}" stroke-width="2">` +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(motifSize * 0.72)}" stroke-opacity=".22"/>` +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(motifSize * 0.95)}" stroke-opacity=".12" stroke-dasharray="6 10"/>` +
    `</g>` +
    `<g transform="translate(${n(mx)} ${n(my)}) rotate(${n(rotate)} ${n(motifSize / 2)} ${n(motifSize / 2)}) scale(${n(s)})"` +
    ` fill="none" stroke="${palette.a}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">` +
    motifPaths(motif, mix(BACKGROUND, palette.a, 0.12)) +
    `</g>` +
    // The NightWatch shield, small, in a corner: the card says whose course it is.
    `<g transform="translate(${n(w - h * 0.1)} ${n(h * 0.9)}) scale(${n(h / 720)})" fill="none" stroke="#e6edf5" stroke-opacity=".55" stroke-width="3" stroke-linejoin="round" stroke-linecap="round">` +
    `<path d="M0-26-18-19v13c0 12 8 21 18 25 10-4 18-13 18-25v-13z"/><path d="m-8-4 6 6 11-12"/></g>` +
    `</svg>`
  );
}

/* ------------------------------------------------------------------------------------------ */
/* PNG for Open Graph                                                                           */

// About 250–400 KB per course: bounded by bytes (some 60–90 courses), not by count.
const pngCache = new LRUCache<string, Buffer>({
  maxSize: 24 * 1024 * 1024,
  sizeCalculation: (png) => png.length,
});
const pending = new Map<string, Promise<Buffer>>();

/**
 * The Open Graph picture of a course (1200×630 PNG): drawn by resvg on its own thread, kept in
 * memory by the artwork's version (title and category), and drawn once however many ask at once.
 */
export async function courseArtworkPng(subject: ArtworkSubject): Promise<Buffer> {
  const key = artworkVersion(subject);
  const cached = pngCache.get(key);
  if (cached) return cached;
  let rendering = pending.get(key);
  if (!rendering) {
    rendering = renderAsync(courseArtworkSvg(subject, OG_ARTWORK), {
      fitTo: { mode: "original" },
      // The artwork has no text: no fonts to look for.
      font: { loadSystemFonts: false },
    })
      .then((image) => {
        const png = image.asPng();
        pngCache.set(key, png);
        return png;
      })
      .finally(() => pending.delete(key));
    pending.set(key, rendering);
  }
  return rendering;
}

/* ------------------------------------------------------------------------------------------ */
/* URLs                                                                                         */

/** The page artwork of a published course: versioned, so a renamed course gets new art. */
export function courseArtworkUrl(course: ArtworkSubject & { slug: string }): string {
  return `/courses/${encodeURIComponent(course.slug)}/artwork.svg?v=${artworkVersion(course)}`;
}

/** The Open Graph picture of a published course, versioned likewise. */
export function courseOgImageUrl(course: ArtworkSubject & { slug: string }): string {
  return `/courses/${encodeURIComponent(course.slug)}/og.png?v=${artworkVersion(course)}`;
}

/* ------------------------------------------------------------------------------------------ */
/* Responses                                                                                    */

/**
 * The URL's `?v=` names what the picture was drawn from: the current one may be kept for a year;
 * any other (a page rendered before the course was renamed) gets today's picture, briefly.
 */
export function artworkCacheControl(request: Request, version: string): string {
  return new URL(request.url).searchParams.get("v") === version
    ? "public, max-age=31536000, immutable"
    : "public, max-age=300";
}

/** Unknown or unpublished: 404, not cached (the course may be published a moment later). */
export function artworkNotFound(): Response {
  return new Response("Course Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
