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
    image?: string;
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
    { name: "twitter:card", content: "summary" },
  ];
  if (page.image)
    tags.push({
      property: "og:image",
      content: new URL(page.image, origin || "http://localhost").href,
    });
  if (page.noindex) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

/** A JSON-LD block (React Router escapes it when inlining). */
export function jsonLd(value: unknown): MetaDescriptor {
  return { "script:ld+json": value } as MetaDescriptor;
}
