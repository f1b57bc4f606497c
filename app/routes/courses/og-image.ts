import {
  artworkCacheControl,
  artworkNotFound,
  artworkVersion,
  courseArtworkPng,
} from "#server/catalogue/course-artwork.server.ts";
import { findArtworkCourse } from "#server/catalogue/courses.server.ts";
import type { Route } from "./+types/og-image";

/**
 * GET /courses/:slug/og.png: a published course's generated artwork as a 1200×630 PNG, its Open
 * Graph picture when it has no thumbnail (decision 0022). 404 as the course page is.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const course = await findArtworkCourse(params.slug);
  if (!course) return artworkNotFound();
  const png = await courseArtworkPng(course);
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.length),
      "Cache-Control": artworkCacheControl(request, artworkVersion(course)),
    },
  });
}
