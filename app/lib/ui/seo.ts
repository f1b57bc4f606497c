import type { MetaDescriptor } from "react-router";

/**
 * Title, description, canonical URL and Open Graph tags for a public page. The canonical
 * origin comes from PUBLIC_URL, which the site layout's loader hands down as `publicUrl`.
 */

interface MetaArgsLike {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

export const SITE_NAME = "NightWatch";

export function publicUrlFrom(args: MetaArgsLike): string {
  for (const match of args.matches) {
    const data = match?.loaderData as { publicUrl?: unknown } | undefined;
    if (data && typeof data.publicUrl === "string") return data.publicUrl;
  }
  return "";
}

export function pageMeta(
  args: MetaArgsLike,
  page: {
    title: string;
    description: string;
    /** Defaults to the current path (without query). */
    path?: string;
    /**
     * The page's Open Graph picture (a raster image: PNG, JPEG, GIF or WebP; social sites do not
     * show SVG), relative to the site or absolute, with its size and a description when known.
     */
    image?: string | { url: string; width?: number; height?: number; alt?: string };
    type?: "website" | "article";
    noindex?: boolean;
  },
): MetaDescriptor[] {
  const origin = publicUrlFrom(args);
  const url = `${origin}${page.path ?? args.location.pathname}`;
  const title = page.title.includes(SITE_NAME) ? page.title : `${page.title} | ${SITE_NAME}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_GB" },
  ];
  const image = typeof page.image === "string" ? { url: page.image } : page.image;
  // With a picture, link previews show it large beside the title.
  tags.push({ name: "twitter:card", content: image ? "summary_large_image" : "summary" });
  if (image) {
    tags.push({ property: "og:image", content: absoluteUrl(image.url, origin) });
    if (image.width) tags.push({ property: "og:image:width", content: String(image.width) });
    if (image.height) tags.push({ property: "og:image:height", content: String(image.height) });
    if (image.alt) tags.push({ property: "og:image:alt", content: image.alt });
  }
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** A site path (or an absolute URL) as an absolute URL on the canonical origin. */
export function absoluteUrl(pathOrUrl: string, origin: string): string {
  return new URL(pathOrUrl, origin || "http://localhost").href;
}

/** A JSON-LD block (React Router escapes it when inlining). */
export function jsonLd(value: unknown): MetaDescriptor {
  return { "script:ld+json": value } as MetaDescriptor;
}
