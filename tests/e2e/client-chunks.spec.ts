import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { ChunkReport } from "../../vite/client-chunks.ts";

/**
 * No admin-only code reaches a public page's scripts (decision 0014). Read from the build the
 * tests run against: React Router's client manifest says which files each route loads, and
 * `chunk-modules.json` (written by vite/client-chunks.ts) which modules each file holds and who
 * imports each of our modules. Admin-only is worked out here on its own, not taken from the
 * build's choice: a module under app/routes/admin/ or app/components/admin/, or one that only
 * admin route modules reach through static imports, whatever its name.
 */

const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
const report = JSON.parse(
  readFileSync(path.join(buildDir, "chunk-modules.json"), "utf8"),
) as ChunkReport;
const assets = path.join(buildDir, "client/assets");
const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
const manifest = JSON.parse(
  readFileSync(path.join(assets, manifestFile ?? "missing"), "utf8")
    .replace(/^window\.__reactRouterManifest=/, "")
    .replace(/;\s*$/, ""),
) as {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
};

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

/** A route's files (its module and what it imports), followed through the chunks' imports. */
function filesOf(route: { module: string; imports?: string[] }): string[] {
  const files = new Set<string>();
  const queue = [route.module, ...(route.imports ?? [])].map((f) => f.replace(/^\//, ""));
  for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
    if (files.has(f)) continue;
    files.add(f);
    queue.push(...(chunkByFile.get(f)?.imports ?? []));
  }
  return [...files];
}

test.describe("client chunks", () => {
  test("the build's chunk report and manifest are there, with an admin chunk of admin code", () => {
    expect(manifestFile, "React Router's client manifest").toBeTruthy();
    const admin = report.chunks.find((chunk) => chunk.name === "admin");
    expect(admin, "an admin chunk").toBeTruthy();
    expect(admin!.modules.some((m) => m.startsWith("app/components/admin/"))).toBe(true);
    expect(report.chunks.find((chunk) => chunk.name === "site")).toBeTruthy();
  });

  test("no public page loads the admin chunk or any admin-only module", () => {
    const publicRoutes: [string, { module: string; imports?: string[] }][] = [
      ["entry", manifest.entry],
      ...Object.entries(manifest.routes).filter(([id]) => !id.startsWith("routes/admin/")),
    ];
    expect(publicRoutes.map(([id]) => id)).toEqual(
      expect.arrayContaining(["root", "routes/site/layout", "routes/site/home"]),
    );
    // Each problem once, with the public routes that load it.
    const problems = new Map<string, string[]>();
    const problem = (what: string, id: string) =>
      problems.set(what, [...(problems.get(what) ?? []), id]);
    for (const [id, route] of publicRoutes) {
      for (const f of filesOf(route)) {
        const chunk = chunkByFile.get(f);
        if (!chunk) {
          problem(`${f} is not in the chunk report`, id);
          continue;
        }
        if (chunk.name === "admin") problem(`the admin chunk ${f}`, id);
        for (const module of chunk.modules.filter(adminOnly)) {
          problem(`${f} holds admin-only ${module}`, id);
        }
      }
    }
    expect([...problems].map(([what, ids]) => `${what} (loaded by ${ids.join(", ")})`)).toEqual([]);
  });
});
