import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin, Rolldown } from "vite";

/**
 * Which shared chunk a browser module belongs to, decided by what imports what (decision 0014).
 *
 * Left alone, the bundler makes one chunk per set of routes sharing a module — over forty files
 * for the home page, each one more request on a slow mobile link. Instead:
 * - `framework`: React and React Router, by package name, in one long-cached file;
 * - `site`: each of our modules (app/) that a public route module (or the root, or the client
 *   entry) imports, directly or through our other modules, once two entries share it;
 * - `admin`: each of our modules that only admin route modules (app/routes/admin/) reach;
 * - route modules keep their own files, and what only a dynamic `import()` reaches (Quill, the
 *   hero particles) keeps its own chunks.
 * Other packages go where the modules using them go (Rolldown puts a grouped module's
 * dependencies in its chunk, following the bindings actually used). A file's name or folder plays
 * no part: an admin-only module can't reach the public `site` chunk because of what it is called.
 *
 * The plugin reads the module graph once the build has loaded every module (`buildEnd`); Rolldown
 * forms the chunks after that, calling each group's `test` (which refuses to answer earlier). It
 * also writes `<build>/chunk-modules.json`, outside the public `client/` folder: every browser
 * file with its modules, and who imports each of our modules, for tests/e2e/client-chunks.spec.ts.
 */

export type ClientChunk = "framework" | "site" | "admin";

const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;
/**
 * Icons: route modules import them straight from the package's index, which re-exports every
 * icon, so the module graph can't tell which page uses which; two pages sharing one share `site`.
 */
const ICONS = /[\\/]node_modules[\\/]lucide-react[\\/]/;

/** The report the build writes beside `client/`. Module names are relative to the project. */
export interface ChunkReport {
  chunks: {
    file: string;
    name: string;
    isEntry: boolean;
    isDynamicEntry: boolean;
    /** The module the chunk stands for (an entry's), if any. */
    facade: string | null;
    imports: string[];
    dynamicImports: string[];
    modules: string[];
  }[];
  /** Each of our modules' (app/) static and dynamic importers. */
  graph: Record<string, { importers: string[]; dynamicImporters: string[] }>;
  /** The shared chunk chosen for each module that has one. */
  chosen: Record<string, ClientChunk | null>;
}

/** A route module's kind: public (the root, the client entry, any route outside admin) or admin. */
function routeKind(file: string): "public" | "admin" | null {
  if (/^app\/routes\/admin\//.test(file)) return "admin";
  if (/^app\/(routes\/|root\.tsx$|entry\.client\.tsx$)/.test(file)) return "public";
  return null;
}

export function clientChunks(root: string) {
  /** Module id → its shared chunk; filled in `buildEnd`. */
  let chosen: Map<string, ClientChunk | null> | null = null;
  let graph: ChunkReport["graph"] = {};

  /** A stable name: relative to the project, or from `node_modules/` on (ignores symlinks). */
  const nameOf = (id: string) => {
    const clean = id.replaceAll("\\", "/");
    const packages = clean.lastIndexOf("/node_modules/");
    if (packages >= 0) return clean.slice(packages + 1);
    return clean.startsWith("/") ? path.posix.relative(root.replaceAll("\\", "/"), clean) : clean;
  };
  /** The file a module id stands for (React Router's client route ids carry a query). */
  const fileOf = (id: string) => nameOf(id).replace(/\?.*$/, "");

  /**
   * The chunk of each module: the framework by package name; each of our modules (app/, route
   * modules aside) by the routes that reach it through static imports of our modules.
   */
  function choose(ids: string[], info: (id: string) => Rolldown.ModuleInfo | null) {
    const ours = (id: string) => fileOf(id).startsWith("app/");
    const reachedBy = new Map<string, Set<"public" | "admin">>();
    for (const start of ids) {
      const kind = routeKind(fileOf(start));
      if (!kind) continue;
      const queue = [start];
      const seen = new Set(queue);
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        let kinds = reachedBy.get(id);
        if (!kinds) reachedBy.set(id, (kinds = new Set()));
        kinds.add(kind);
        for (const next of info(id)?.importedIds ?? []) {
          if (seen.has(next) || !ours(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
    }
    const map = new Map<string, ClientChunk | null>();
    for (const id of ids) {
      if (FRAMEWORK.test(id)) map.set(id, "framework");
      else if (ICONS.test(id)) map.set(id, "site");
      else if (!ours(id) || routeKind(fileOf(id))) map.set(id, null);
      else {
        // Reached by no route: only a dynamic import loads it, in its own chunk.
        const by = reachedBy.get(id);
        map.set(id, by?.has("public") ? "site" : by?.has("admin") ? "admin" : null);
      }
    }
    return map;
  }

  const plugin: Plugin = {
    name: "nightwatch:client-chunks",
    apply: "build",
    buildEnd(error) {
      if (error) return;
      const ids = [...this.getModuleIds()];
      const info = (id: string) => this.getModuleInfo(id);
      chosen = choose(ids, info);
      graph = {};
      for (const id of ids) {
        if (!fileOf(id).startsWith("app/")) continue;
        const module = info(id);
        graph[nameOf(id)] = {
          importers: (module?.importers ?? []).map(nameOf),
          dynamicImporters: (module?.dynamicImporters ?? []).map(nameOf),
        };
      }
    },
    writeBundle(options, bundle) {
      const report: ChunkReport = { chunks: [], graph, chosen: {} };
      for (const [id, chunk] of chosen ?? []) if (chunk) report.chosen[nameOf(id)] = chunk;
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        report.chunks.push({
          file: output.fileName,
          name: output.name,
          isEntry: output.isEntry,
          isDynamicEntry: output.isDynamicEntry,
          facade: output.facadeModuleId ? nameOf(output.facadeModuleId) : null,
          imports: output.imports,
          dynamicImports: output.dynamicImports,
          modules: output.moduleIds.map(nameOf),
        });
      }
      const dir = path.resolve(options.dir ?? "build/client", "..");
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "chunk-modules.json"), JSON.stringify(report));
    },
  };

  /** The group a module id goes to; only valid once `buildEnd` has read the graph. */
  function chunkOf(id: string): ClientChunk | null {
    if (!chosen) {
      throw new Error("client chunks: the module graph is not read yet (buildEnd has not run)");
    }
    return chosen.get(id) ?? null;
  }

  /** Rolldown's `output.codeSplitting.groups`. */
  const groups: Rolldown.CodeSplittingGroup[] = [
    { name: "framework", test: (id) => chunkOf(id) === "framework", priority: 3 },
    // A module one public page alone uses stays in that page's file.
    { name: "site", test: (id) => chunkOf(id) === "site", priority: 2, minShareCount: 2 },
    { name: "admin", test: (id) => chunkOf(id) === "admin", priority: 1 },
  ];

  return { plugin, groups };
}
