import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "#tests/support/site-process.ts";
import { kb, table } from "./lib.ts";
import { JS_BUDGET_KB_GZIP, jsBudgetOf } from "./page-js.ts";

/**
 * JavaScript and CSS each public page needs once hydrated, gzipped, from React Router's
 * client manifest (build/client/assets/manifest-*.js): the client entry, then for the route
 * chain root → site layout → page each module with its imports, plus the style sheets those
 * modules link. Files loaded later on demand (lazy imports) are listed apart. Also proves that
 * no admin-editor chunk (Quill) can be reached from a public page, even lazily, and checks every
 * public page against the budgets (decision 0028); page-js.ts measures what Chromium downloads
 * for four of them and checks those too.
 */

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  css?: string[];
  hasDefaultExport?: boolean;
}

interface Manifest {
  entry: { module: string; imports: string[]; css?: string[] };
  routes: Record<string, ManifestRoute>;
}

const PUBLIC_LAYOUT = "routes/site/layout";
/** Chunks of the admin rich-text editor: never for visitors. */
const ADMIN_EDITOR = /(^|\/)(quill|rich-text-editor)[-.]/i;

function readManifest(clientDir: string): Manifest {
  const assets = path.join(clientDir, "assets");
  const files = readdirSync(assets)
    .filter((f) => /^manifest-[\w-]+\.js$/.test(f))
    .sort(
      (a, b) => statSync(path.join(assets, b)).mtimeMs - statSync(path.join(assets, a)).mtimeMs,
    );
  if (!files[0]) throw new Error(`No React Router manifest in ${assets}: build first.`);
  const text = readFileSync(path.join(assets, files[0]), "utf8");
  const json = text.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "");
  return JSON.parse(json) as Manifest;
}

/**
 * The site's style sheet is inlined in every page's <head> (app/lib/ui/inline-styles.tsx), so it is
 * in the server bundle, not the client manifest: find the string that starts with Tailwind's
 * banner and measure it as it is sent (inside the HTML).
 */
function inlineStyles(serverDir: string): { raw: number; gz: number } | null {
  const assets = path.join(serverDir, "assets");
  for (const name of readdirSync(assets).filter((f) => f.endsWith(".js"))) {
    const text = readFileSync(path.join(assets, name), "utf8");
    const start = text.indexOf("/*! tailwindcss");
    if (start < 1) continue;
    const quote = text[start - 1]!;
    let end = start;
    while (end < text.length && !(text[end] === quote && text[end - 1] !== "\\")) end++;
    const css = Buffer.from(text.slice(start, end));
    return { raw: css.length, gz: gzipSync(css).length };
  }
  return null;
}

export function runBundleReport(buildDir: string) {
  const clientDir = path.join(ROOT, buildDir, "client");
  const manifest = readManifest(clientDir);
  const cache = new Map<string, { raw: number; gz: number; text: string }>();
  const file = (url: string) => {
    let entry = cache.get(url);
    if (!entry) {
      const bytes = readFileSync(path.join(clientDir, url.replace(/^\//, "")));
      entry = { raw: bytes.length, gz: gzipSync(bytes).length, text: bytes.toString("utf8") };
      cache.set(url, entry);
    }
    return entry;
  };

  /** Files a module names: static imports, and lazily loaded ones (import(), preload lists). */
  const references = (url: string) => {
    const text = file(url).text;
    const dir = path.posix.dirname(url);
    const staticRefs = new Set<string>();
    const allRefs = new Set<string>();
    for (const m of text.matchAll(
      /(?:\bimport|\bexport)\s*(?:[\w*${}\s,]*?\bfrom\s*)?["'`](\.\/[^"'`]+\.js)["'`]/g,
    )) {
      staticRefs.add(path.posix.join(dir, m[1]!));
    }
    for (const m of text.matchAll(/["'`](?:\.\/|\/assets\/|assets\/)([\w.-]+\.(?:js|css))["'`]/g)) {
      allRefs.add(`/assets/${m[1]}`);
    }
    for (const s of staticRefs) allRefs.add(s);
    return { staticRefs, allRefs };
  };

  const closure = (roots: string[], follow: "static" | "all") => {
    const seen = new Set<string>();
    const queue = [...roots];
    while (queue.length) {
      const url = queue.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      if (!url.endsWith(".js")) continue;
      const refs = references(url);
      for (const next of follow === "static" ? refs.staticRefs : refs.allRefs) queue.push(next);
    }
    return seen;
  };

  const chainOf = (id: string): ManifestRoute[] => {
    const chain: ManifestRoute[] = [];
    for (
      let route = manifest.routes[id];
      route;
      route = route.parentId ? manifest.routes[route.parentId] : undefined
    ) {
      chain.unshift(route);
    }
    return chain;
  };

  const publicRoutes = Object.values(manifest.routes).filter(
    (r) => r.parentId === PUBLIC_LAYOUT && r.hasDefaultExport !== false,
  );
  const pages = publicRoutes.map((route) => {
    const chain = chainOf(route.id);
    const roots = [
      manifest.entry.module,
      ...manifest.entry.imports,
      ...chain.flatMap((r) => [r.module, ...(r.imports ?? [])]),
    ];
    const onLoad = closure(roots, "static");
    const reachable = closure(roots, "all");
    const css = new Set<string>([
      ...(manifest.entry.css ?? []),
      ...chain.flatMap((r) => r.css ?? []),
    ]);
    // Style sheets a route module links (e.g. root's `links` → app.css).
    for (const url of onLoad) {
      if (url.endsWith(".js")) {
        for (const ref of references(url).allRefs) if (ref.endsWith(".css")) css.add(ref);
      }
    }
    const onLoadJs = [...onLoad].filter((u) => u.endsWith(".js"));
    const lazyJs = [...reachable].filter((u) => u.endsWith(".js") && !onLoad.has(u));
    const loadCss = [...css];
    const sum = (urls: string[], key: "raw" | "gz") => urls.reduce((n, u) => n + file(u)[key], 0);
    const routePath = route.index ? "/" : `/${route.path ?? ""}`;
    const editorChunks = [...reachable].filter((u) => ADMIN_EDITOR.test(path.posix.basename(u)));
    return {
      route: route.id,
      path: routePath,
      jsFiles: onLoadJs.length,
      jsGzipKb: kb(sum(onLoadJs, "gz")),
      jsRawKb: kb(sum(onLoadJs, "raw")),
      cssGzipKb: kb(sum(loadCss, "gz")),
      cssRawKb: kb(sum(loadCss, "raw")),
      lazyJsGzipKb: kb(sum(lazyJs, "gz")),
      lazyJs: lazyJs.map((u) => path.posix.basename(u)),
      css: loadCss.map((u) => path.posix.basename(u)),
      adminEditorChunksReachable: editorChunks.map((u) => path.posix.basename(u)),
    };
  });
  pages.sort((a, b) => a.path.localeCompare(b.path));

  // The largest files sent to / (where to look first when the budget is exceeded).
  const home = pages.find((p) => p.path === "/");
  const homeRoute = publicRoutes.find((r) => r.index);
  const homeLargest = homeRoute
    ? [
        ...closure(
          [
            manifest.entry.module,
            ...manifest.entry.imports,
            ...chainOf(homeRoute.id).flatMap((r) => [r.module, ...(r.imports ?? [])]),
          ],
          "static",
        ),
      ]
        .filter((u) => u.endsWith(".js"))
        .map((u) => ({ file: path.posix.basename(u), gzipKb: kb(file(u).gz) }))
        .sort((a, b) => b.gzipKb - a.gzipKb)
        .slice(0, 8)
    : [];

  console.log(
    "\nJavaScript and CSS of each public page once hydrated (gzip, from the client manifest)\n",
  );
  console.log(
    table(
      ["page", "JS KB gz", "JS files", "CSS KB gz", "lazy JS KB gz", "editor reachable"],
      pages.map((p) => [
        p.path,
        p.jsGzipKb,
        p.jsFiles,
        p.cssGzipKb,
        p.lazyJsGzipKb,
        p.adminEditorChunksReachable.join(" ") || "no",
      ]),
    ),
  );
  const styles = inlineStyles(path.join(ROOT, buildDir, "server"));
  console.log(
    `\nSite style sheet, inlined in every page's HTML (not in the CSS column): ` +
      (styles ? `${kb(styles.raw)} KB, ${kb(styles.gz)} KB gz` : "not found"),
  );
  console.log(
    `Largest JS files on /: ${homeLargest.map((f) => `${f.file} ${f.gzipKb} KB`).join(", ")}`,
  );
  const editorLeaks = pages.filter((p) => p.adminEditorChunksReachable.length > 0);
  console.log(
    `JS of / once hydrated: ${home ? `${home.jsGzipKb} KB` : "no / route"}; ` +
      `admin editor reachable from a public page: ${editorLeaks.length ? `YES (${editorLeaks.map((p) => p.path).join(", ")})` : "no"}`,
  );
  const over = pages.filter((p) => p.jsGzipKb > jsBudgetOf(p.path));
  console.log(
    `Budget of JS on load, gzip: / ≤ ${JS_BUDGET_KB_GZIP.home} KB, ` +
      `every other public page ≤ ${JS_BUDGET_KB_GZIP.page} KB: ` +
      (over.length === 0
        ? "met"
        : `MISSED on ${over.map((p) => `${p.path} (${p.jsGzipKb} KB)`).join(", ")}`),
  );
  const editorChunksInBuild = [
    ...new Set(readdirSync(path.join(clientDir, "assets")).filter((f) => ADMIN_EDITOR.test(f))),
  ];
  return {
    compression: "gzip (zlib default level 6)",
    pages,
    homeLargest,
    inlineStylesKb: styles ? { raw: kb(styles.raw), gzip: kb(styles.gz) } : null,
    editorChunksInBuild,
    homeHydratedJsGzipKb: home?.jsGzipKb ?? null,
    budgets: { onLoadGzipKbAtMost: JS_BUDGET_KB_GZIP, met: over.length === 0 },
    adminEditorUnreachableFromPublicPages: editorLeaks.length === 0,
  };
}
