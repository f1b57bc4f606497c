import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin, Rolldown } from "vite";

/**
 * How the browser code is split (decision 0028): the way React Router and Vite split it by
 * themselves — one file per route module, shared modules in the chunks Rolldown makes for the
 * routes that share them, and what only a dynamic `import()` reaches (the quote dialog, the toast,
 * Quill, the hero particles) in its own files, fetched when first needed — with four groups:
 * `framework`, React and React Router by package name, a long-cached file that changes only when
 * they are upgraded, and the three below, which keep a page to about ten files instead of forty.
 *
 * The build also writes `<build>/client-modules.json`, outside the public `client/` folder: every
 * browser file with its modules and its static and dynamic imports, and who imports each of our
 * modules (app/), for tests/e2e/client-chunks.spec.ts.
 */

const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/;

/**
 * Three files of our own modules that many pages load together (decision 0028):
 * - `shell`, what every page runs: the client entry and the root route, with what they import;
 * - `site`, what every public page adds: the public layout (header, footer, newsletter form);
 * - `pages`, what two or more of the public pages share (a hero, a section, a form panel, the
 *   SEO tags), counting the home page, the service pages, the legal pages and the course page —
 *   not the checkout, its return pages or the sign-in pages, whose code stays their own.
 * `pages` also takes the Lucide icons the build keeps: a page imports them from the package's
 * index, and the walk below cannot tell which of its exports a page uses.
 * `shell` and `site` load on those pages whatever their file, so grouping them costs no byte;
 * `pages` costs a page the shared pieces it does not use (`/` loads 147 KB gzip, against 141 KB
 * with each piece in a file of its own)
 * and saves it a dozen or more requests, which queue on the browser's six connections a host.
 */
const SHELL_ROOTS = ["app/entry.client.tsx", "app/root.tsx"];
const SITE_ROOTS = ["app/routes/site/layout.tsx"];
const PAGE_ROOTS = /^app\/routes\/(site\/(?!layout\.)[^/]+|services\/[^/]+|courses\/course)\.tsx$/;
const LUCIDE_ICON = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
const ROUTE_MODULE = /^app\/routes\//;

/**
 * Rolldown's `output.codeSplitting.groups`, with the plugin that finds the modules of each group:
 * it walks the static imports once the graph is built, before Rolldown makes chunks.
 */
export function clientChunks(root: string): {
  groups: Rolldown.CodeSplittingGroup[];
  plugin: Plugin;
} {
  let shell = new Set<string>();
  let site = new Set<string>();
  let pages = new Set<string>();
  const plugin: Plugin = {
    name: "nightwatch:client-chunk-groups",
    apply: "build",
    buildEnd(error) {
      if (error) return;
      const byName = new Map<string, string[]>();
      for (const id of this.getModuleIds()) {
        const name = nameOfModule(root, id).replace(/\?.*$/, "");
        byName.set(name, [...(byName.get(name) ?? []), id]);
      }
      /** Our modules `roots` reach by static imports, less those of `skip`. */
      const reach = (roots: string[], skip: Set<string>[] = []): Set<string> => {
        const found = new Set<string>();
        const stack = roots.flatMap((r) => byName.get(r) ?? []);
        if (stack.length === 0) this.error(`client chunks: none of ${roots.join(", ")} was built`);
        while (stack.length > 0) {
          const id = stack.pop()!;
          // Our modules only: the packages they use come with them (Rolldown's
          // includeDependenciesRecursively), as far as tree-shaking keeps them. Walking into
          // packages would take a barrel's every export (radix-ui's: the dialog, the toast).
          if (found.has(id) || skip.some((s) => s.has(id))) continue;
          if (/[\\/]node_modules[\\/]/.test(id)) continue;
          found.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return found;
      };
      shell = reach(SHELL_ROOTS);
      site = reach(SITE_ROOTS, [shell]);
      const pageCount = new Map<string, number>();
      for (const page of [...byName.keys()].filter((name) => PAGE_ROOTS.test(name))) {
        for (const id of reach([page], [shell, site])) {
          if (ROUTE_MODULE.test(nameOfModule(root, id))) continue;
          pageCount.set(id, (pageCount.get(id) ?? 0) + 1);
        }
      }
      pages = new Set([...pageCount].filter(([, count]) => count >= 2).map(([id]) => id));
    },
  };
  return {
    plugin,
    groups: [
      { name: "framework", test: FRAMEWORK, priority: 4 },
      { name: "shell", test: (id) => shell.has(id), priority: 3 },
      { name: "site", test: (id) => site.has(id), priority: 2 },
      { name: "pages", test: (id) => pages.has(id) || LUCIDE_ICON.test(id), priority: 1 },
    ],
  };
}

/** A stable name: relative to the project, or from `node_modules/` on (ignores symlinks). */
function nameOfModule(root: string, id: string): string {
  const clean = id.replaceAll("\\", "/");
  const packages = clean.lastIndexOf("/node_modules/");
  if (packages >= 0) return clean.slice(packages + 1);
  return clean.startsWith("/") ? path.posix.relative(root.replaceAll("\\", "/"), clean) : clean;
}

/** The report the build writes beside `client/`. Module names are relative to the project. */
export interface ClientModulesReport {
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
}

/** Writes `client-modules.json` for the browser build. */
export function clientModulesReport(root: string): Plugin {
  let graph: ClientModulesReport["graph"] = {};
  const nameOf = (id: string) => nameOfModule(root, id);

  return {
    name: "nightwatch:client-modules",
    apply: "build",
    buildEnd(error) {
      if (error) return;
      graph = {};
      for (const id of this.getModuleIds()) {
        // React Router's client route ids carry a query; the file is what matters here.
        if (!nameOf(id).replace(/\?.*$/, "").startsWith("app/")) continue;
        const module = this.getModuleInfo(id);
        graph[nameOf(id)] = {
          importers: (module?.importers ?? []).map(nameOf),
          dynamicImporters: (module?.dynamicImporters ?? []).map(nameOf),
        };
      }
    },
    writeBundle(options, bundle) {
      const report: ClientModulesReport = { chunks: [], graph };
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
      writeFileSync(path.join(dir, "client-modules.json"), JSON.stringify(report));
    },
  };
}
