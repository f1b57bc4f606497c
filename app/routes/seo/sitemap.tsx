import { config } from "#server/config.server.ts";
import { listSitemapCourses } from "#server/catalogue/courses.server.ts";

/** /sitemap.xml: every public page and every published course, as absolute URLs. */

const PUBLIC_PAGES = [
  "/",
  "/about",
  "/contact",
  "/quote",
  "/privacy",
  "/terms",
  "/gdpr",
  "/services/dark-web-monitoring",
  "/services/counter-fraud-training",
  "/services/security-consultancy",
  "/services/file-interrogator",
];

const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", "'": "apos", '"': "quot" }[c]};`,
  );

function entry(path: string, lastModified?: Date): string {
  const loc = `<loc>${escapeXml(`${config.publicUrl}${path}`)}</loc>`;
  const lastmod = lastModified ? `<lastmod>${lastModified.toISOString()}</lastmod>` : "";
  return `  <url>${loc}${lastmod}</url>`;
}

export async function loader() {
  const courses = await listSitemapCourses();
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...PUBLIC_PAGES.map((path) => entry(path)),
    ...courses.map((course) =>
      entry(`/courses/${encodeURIComponent(course.slug)}`, course.updatedAt),
    ),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=0, s-maxage=300, stale-while-revalidate=3600",
    },
  });
}
