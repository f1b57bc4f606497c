import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "#app/routes.ts";

/**
 * The site's routes as full path patterns, read from app/routes.ts itself, so that page-by-page
 * specs (axe, screenshots) can fail when a route is added without an entry of theirs.
 */

export interface RoutePattern {
  /** The full pattern, e.g. "/", "/courses/:slug", "/admin/*", "/*". */
  path: string;
  /** The route module, relative to app/ (e.g. "routes/site/home.tsx"). */
  file: string;
}

/** Every route module that answers a URL (layouts themselves are left out; their children count). */
export function routePatterns(): RoutePattern[] {
  const out: RoutePattern[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const own = entry.path ?? "";
      const full = joinPath(parent, own);
      if (entry.children?.length) walk(entry.children, full);
      // A pathless layout with children is no page of its own.
      else out.push({ path: full, file: entry.file });
    }
  };
  walk(routes, "/");
  return out;
}

function joinPath(parent: string, child: string): string {
  if (!child) return parent;
  return `${parent.replace(/\/$/, "")}/${child.replace(/^\//, "")}`;
}
