import {
  artworkCacheControl,
  artworkNotFound,
  artworkVersion,
  courseArtworkSvg,
} from "#server/catalogue/course-artwork.server.ts";
import { findArtworkCourse } from "#server/catalogue/courses.server.ts";
import type { Route } from "./+types/artwork";

/**
 * GET /courses/:slug/artwork.svg: a published course's generated artwork (decision 0022), what
 * its card and page show when it has no thumbnail. Unknown and unpublished courses are 404, as
 * their pages are.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const course = await findArtworkCourse(params.slug);
  if (!course) return artworkNotFound();
  return new Response(courseArtworkSvg(course), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": artworkCacheControl(request, artworkVersion(course)),
      // Opened on its own, the picture may run nothing and load nothing (it needs neither).
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    },
  });
}
