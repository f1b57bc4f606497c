import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { test } from "#tests/support/e2e-test.ts";
import type { ClientModulesReport } from "../../vite/client-chunks.ts";

/**
 * JavaScript per route (decision 0028), read from the build the tests run against: React Router's
 * client manifest says which files each route loads, and `client-modules.json` (written by
 * vite/client-chunks.ts) which modules each file holds, what it imports, and who imports each of
 * our modules. What a page loads is its files and their static imports, followed to the end;
 * what only a dynamic `import()` reaches is fetched later, on demand.
 * - No public page loads admin-only code: a module under app/routes/admin/ or
 *   app/components/admin/, or one that only admin route modules reach, whatever its name.
 * - The home page and the catalogue load no checkout, dialog, toast or admin module.
 * - The course page's quote dialog and the toast are fetched on demand, not with the page.
 * The sizes (`/` ≤ 150 KB gzip, every public page ≤ 160 KB) are checked by `npm run bench`.
 */

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const report = JSON.parse(
  readFileSync(path.join(buildDir, "client-modules.json"), "utf8"),
) as ClientModulesReport;
const assets = path.join(buildDir, "client/assets");
const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
type ManifestRoute = { module: string; imports?: string[]; parentId?: string };
const manifest = JSON.parse(
  readFileSync(path.join(assets, manifestFile ?? "missing"), "utf8")
    .replace(/^window\.__reactRouterManifest=/, "")
    .replace(/;\s*$/, ""),
) as { entry: ManifestRoute; routes: Record<string, ManifestRoute> };

const chunkByFile = new Map(report.chunks.map((chunk) => [chunk.file, chunk]));
const file = (module: string) => module.replace(/\?.*$/, "");
const isAdminRoute = (module: string) => /^app\/routes\/admin\//.test(file(module));
const isRoute = (module: string) =>
  /^app\/(routes\/|root\.tsx$|entry\.client\.tsx$)/.test(file(module));

/** Every route module that reaches `module` by static imports (walking up its importers). */
function routesReaching(module: string): Set<string> {
  const routes = new Set<string>();
  const seen = new Set([module]);
  const queue = [module];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (isRoute(id)) routes.add(file(id));
    for (const importer of report.graph[id]?.importers ?? []) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      queue.push(importer);
    }
  }
  return routes;
}

/** Our modules that only admin pages use: admin folders, or reached from admin routes alone. */
function adminOnly(module: string): boolean {
  if (/^app\/(routes|components)\/admin\//.test(module)) return true;
  if (!module.startsWith("app/") || isRoute(module)) return false;
  const routes = [...routesReaching(module)];
  return routes.length > 0 && routes.every(isAdminRoute);
}

/** Checkout, dialogs (Radix's and ours) and the toast's Radix code. */
const CHECKOUT = /^app\/(components\/checkout\/|routes\/courses\/checkout\.tsx|lib\/checkout\.ts)/;
const DIALOG =
  /^(app\/components\/ui\/(dialog|alert-dialog)\.tsx|app\/components\/forms\/course-quote-dialog\.tsx|node_modules\/@radix-ui\/react-(dialog|alert-dialog|focus-scope|focus-guards)\/|node_modules\/react-remove-scroll)/;
const TOAST = /^(app\/components\/ui\/toast-list\.tsx|node_modules\/@radix-ui\/react-toast\/)/;

/** The files a page loads with it: the entry, then root → … → the route, with static imports. */
function filesOnLoad(routeId: string): string[] {
  const roots = [manifest.entry];
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the client manifest`);
    roots.push(route);
  }
  const files = new Set<string>();
  const queue = roots.flatMap((r) => [r.module, ...(r.imports ?? [])]).map((f) => f.slice(1));
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    if (files.has(f)) continue;
    files.add(f);
    queue.push(...(chunkByFile.get(f)?.imports ?? []));
  }
  return [...files];
}

function modulesOnLoad(routeId: string): string[] {
  return filesOnLoad(routeId).flatMap((f) => {
    const chunk = chunkByFile.get(f);
    if (!chunk) throw new Error(`${f} is not in the build's module report`);
    return chunk.modules;
  });
}

/** Every module some chunk reaches only through `import()` (fetched on demand). */
function modulesFetchedLater(routeId: string): string[] {
  const onLoad = new Set(filesOnLoad(routeId));
  const later = new Set<string>();
  const queue = [...onLoad].flatMap((f) => chunkByFile.get(f)?.dynamicImports ?? []);
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    if (onLoad.has(f) || later.has(f)) continue;
    later.add(f);
    const chunk = chunkByFile.get(f);
    queue.push(...(chunk?.imports ?? []), ...(chunk?.dynamicImports ?? []));
  }
  return [...later].flatMap((f) => chunkByFile.get(f)?.modules ?? []);
}

const HOME = "routes/site/home";
const CATALOGUE = "routes/services/counter-fraud-training";
const COURSE = "routes/courses/course";

test.describe("client chunks", () => {
  test("the build's module report and manifest are there, with React in a framework file", () => {
    expect(manifestFile, "React Router's client manifest").toBeTruthy();
    const framework = report.chunks.find((chunk) => chunk.name === "framework");
    expect(framework?.modules).toEqual(
      expect.arrayContaining([expect.stringMatching(/^node_modules\/react-dom\//)]),
    );
    // Each route module has a file of its own.
    for (const id of [HOME, CATALOGUE, COURSE]) {
      expect(chunkByFile.get(manifest.routes[id]!.module.slice(1))?.facade).toMatch(/^app\//);
    }
  });

  test("the shared files hold what their pages share, and no page's own code", () => {
    const ours = (name: string) =>
      (report.chunks.find((chunk) => chunk.name === name)?.modules ?? []).filter(
        (m) => m.startsWith("app/") && !/\.(svg|png)(\?|$)/.test(m),
      );
    const pageRoute =
      /^app\/routes\/(site\/(?!layout\.)[^/]+|services\/[^/]+|courses\/course)\.tsx$/;
    // site: what the public layout reaches, statically.
    expect(ours("site")).toEqual(expect.arrayContaining(["app/components/site/site-header.tsx"]));
    for (const module of ours("site").filter((m) => !isRoute(m))) {
      expect(routesReaching(module), module).toContain("app/routes/site/layout.tsx");
    }
    // pages: what two or more public pages reach, and no route module.
    expect(ours("pages").length).toBeGreaterThan(0);
    for (const module of ours("pages")) {
      expect(isRoute(module), module).toBe(false);
      const pages = [...routesReaching(module)].filter((r) => pageRoute.test(r));
      expect(pages.length, `${module}: reached by ${pages.join(", ")}`).toBeGreaterThanOrEqual(2);
    }
  });

  test("no public page loads admin-only code", () => {
    const publicRoutes = Object.keys(manifest.routes).filter(
      (id) => !id.startsWith("routes/admin/"),
    );
    expect(publicRoutes).toEqual(expect.arrayContaining(["root", "routes/site/layout", HOME]));
    // Each problem once, with the public routes that load it.
    const problems = new Map<string, string[]>();
    for (const id of publicRoutes) {
      for (const module of new Set(modulesOnLoad(id).filter(adminOnly))) {
        problems.set(module, [...(problems.get(module) ?? []), id]);
      }
    }
    expect([...problems].map(([module, ids]) => `${module} (loaded by ${ids.join(", ")})`)).toEqual(
      [],
    );
  });

  for (const [page, id] of [
    ["the home page", HOME],
    ["the catalogue", CATALOGUE],
  ] as const) {
    test(`${page} loads no checkout, dialog, toast or admin module`, () => {
      const modules = modulesOnLoad(id);
      expect(modules).toEqual(expect.arrayContaining([expect.stringMatching(/^app\/root\.tsx/)]));
      const found = modules.filter(
        (m) => CHECKOUT.test(m) || DIALOG.test(m) || TOAST.test(m) || adminOnly(m),
      );
      expect(found).toEqual([]);
    });
  }

  test("the course page fetches its quote dialog, and every page the toast, on demand", () => {
    const onLoad = modulesOnLoad(COURSE);
    expect(onLoad).toEqual(
      expect.arrayContaining([expect.stringMatching(/^app\/components\/forms\/course-quote/)]),
    );
    expect(onLoad.filter((m) => DIALOG.test(m) && !/course-quote-dialog/.test(m))).toEqual([]);
    expect(onLoad.filter((m) => TOAST.test(m))).toEqual([]);
    const later = modulesFetchedLater(COURSE);
    expect(later).toEqual(
      expect.arrayContaining([
        "app/components/ui/dialog.tsx",
        "app/components/ui/toast-list.tsx",
        expect.stringMatching(/^node_modules\/@radix-ui\/react-dialog\//),
        expect.stringMatching(/^node_modules\/@radix-ui\/react-toast\//),
      ]),
    );
  });
});
