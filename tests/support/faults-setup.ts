import type { TestProject } from "vitest/node";
import { buildSite, isBuilt } from "./site-process.ts";

/** Builds the site once for the fault tests (FAULTS_NO_BUILD=1 reuses an existing build). */
export default function setup(project: TestProject) {
  const buildDir = process.env.BUILD_DIR ?? "build-bench";
  if (buildDir === "build")
    throw new Error("Use a build directory of your own (BUILD_DIR=build-bench).");
  if (process.env.FAULTS_NO_BUILD !== "1" || !isBuilt(buildDir)) buildSite(buildDir);
  project.provide("faultsBuildDir", buildDir);
}

declare module "vitest" {
  export interface ProvidedContext {
    faultsBuildDir: string;
  }
}
