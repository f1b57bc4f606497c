import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildSite, isBuilt, ROOT } from "./site-process.ts";

/**
 * The fault stage (npm run test:faults) tests the production build the end-to-end suite used:
 * BUILD_DIR, default build/. It is reused when it is newer than every source it is made of (so
 * `npm test` then `npm run test:faults` build once), and built first otherwise. FAULTS_NO_BUILD=1
 * reuses any existing build without looking at its age.
 */
export function ensureBuild(): string {
  const buildDir = process.env.BUILD_DIR ?? "build";
  const reuse =
    isBuilt(buildDir) && (process.env.FAULTS_NO_BUILD === "1" || !sourcesNewerThan(buildDir));
  if (reuse) console.log(`using the build in ${buildDir}`);
  else buildSite(buildDir);
  return buildDir;
}

/** What `npm run build` reads: the app, the server, the public files and the build configuration. */
const SOURCES = ["app", "server", "public", "server.ts", "vite", "vite.config.ts"];
const SOURCE_FILES = ["react-router.config.ts", "package.json", "package-lock.json"];

function sourcesNewerThan(buildDir: string): boolean {
  const builtAt = statSync(path.join(ROOT, buildDir, "server.js"), { throwIfNoEntry: false });
  if (!builtAt) return true;
  const newer = (entry: string): boolean => {
    const stat = statSync(entry, { throwIfNoEntry: false });
    if (!stat) return false;
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt.mtimeMs;
    return readdirSync(entry).some((name) => newer(path.join(entry, name)));
  };
  return [...SOURCES, ...SOURCE_FILES].some((name) => newer(path.join(ROOT, name)));
}

export default function setup(project: TestProject) {
  project.provide("faultsBuildDir", ensureBuild());
}

declare module "vitest" {
  export interface ProvidedContext {
    faultsBuildDir: string;
  }
}
