import { config } from "#server/config.server.ts";

/** /robots.txt: crawl the site, not the staff area, sign-in or the booking steps. */
export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /auth",
    "Disallow: /courses/*/checkout",
    "Disallow: /courses/*/success",
    "Disallow: /courses/*/canceled",
    "",
    `Sitemap: ${config.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
