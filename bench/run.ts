import { parseArgs } from "node:util";
import { buildSite } from "#tests/support/site-process.ts";
import { runBundleReport } from "./bundle.ts";
import { runLighthouseBench } from "./lighthouse.ts";
import { runPageJsReport } from "./page-js.ts";
import { runPdfBench } from "./pdf.ts";
import { machine, writeResult } from "./lib.ts";
import { runScaleBench } from "./scale.ts";
import { runSoakBench } from "./soak.ts";
import { runSsrBench } from "./ssr.ts";

/**
 * npm run bench [-- options]: builds into BUILD_DIR (default build-bench), then runs
 *   ssr        SSR vs static HTML, side by side (autocannon)
 *   bundle     JS/CSS per public page, gzipped, from the manifest; no admin editor on public
 *              pages; then the JS Chromium downloads on load and after using a form
 *   lighthouse Lighthouse mobile on /, the catalogue and a course page (npm run bench:lighthouse)
 *   scale      catalogue and admin lists at volume, on PostgreSQL and PGlite side by side
 *   soak       memory (RSS, heap, WebAssembly) under minutes of mixed traffic and form posts,
 *              then idle and after a forced collection (on PostgreSQL with --postgres)
 *   pdf        an invoice / credit note drawn as PDF: time per document (median of N) and size
 *              (no build needed: --only pdf skips it)
 * Each part prints a table and writes bench/results/<part>-<time>.json (and <part>-latest.json).
 *
 * Options: --only ssr,bundle,… --postgres (SSR and soak on a fresh PostgreSQL database)
 *          --no-build --connections 50 --seconds 10 --lighthouse-runs 5 --scale-requests 200
 *          --pdf-runs 200 --soak-seconds 300 --soak-connections 20 --soak-idle-seconds 30
 *          --soak-snapshots DIR (heap snapshots early and late, written to DIR: tens of MB each,
 *          keep them out of the repository)
 * The soak part is not in the default set (it takes minutes): ask for it with --only soak.
 */

const PARTS = ["ssr", "bundle", "lighthouse", "scale", "soak", "pdf"] as const;
type Part = (typeof PARTS)[number];
/** What runs without --only. */
const DEFAULT_PARTS: Part[] = ["ssr", "bundle", "lighthouse", "scale", "pdf"];
/** Parts that measure code in this process, not the built site. */
const NO_BUILD_PARTS: Part[] = ["pdf"];

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    postgres: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    connections: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    "lighthouse-runs": { type: "string", default: "5" },
    "scale-requests": { type: "string", default: "200" },
    "pdf-runs": { type: "string", default: "200" },
    "soak-seconds": { type: "string", default: "300" },
    "soak-connections": { type: "string", default: "20" },
    "soak-idle-seconds": { type: "string", default: "30" },
    "soak-snapshots": { type: "string" },
  },
});

const parts: Part[] = values.only
  ? values.only.split(",").map((p) => {
      const part = p.trim() as Part;
      if (!PARTS.includes(part))
        throw new Error(`Unknown part ${p}: choose from ${PARTS.join(", ")}`);
      return part;
    })
  : [...DEFAULT_PARTS];
const buildDir = process.env.BUILD_DIR ?? "build-bench";

// Never the default build/ that others serve from.
if (buildDir === "build")
  throw new Error("Use a build directory of your own (BUILD_DIR=build-bench).");
if (!values["no-build"] && parts.some((p) => !NO_BUILD_PARTS.includes(p))) buildSite(buildDir);

const header = { startedAt: new Date().toISOString(), machine: await machine(), buildDir };
const summary: Record<string, unknown> = { ...header };
let failed = false;
for (const part of parts) {
  console.log(`\n== ${part}`);
  const loadBefore = (await machine()).loadAverage;
  try {
    let result: unknown;
    if (part === "ssr") {
      result = await runSsrBench({
        buildDir,
        postgres: values.postgres,
        connections: Number(values.connections),
        seconds: Number(values.seconds),
      });
    } else if (part === "bundle") {
      result = {
        manifest: runBundleReport(buildDir),
        browser: await runPageJsReport({ buildDir }),
      };
    } else if (part === "lighthouse") {
      result = await runLighthouseBench({ buildDir, runs: Number(values["lighthouse-runs"]) });
    } else if (part === "pdf") {
      result = await runPdfBench({ runs: Number(values["pdf-runs"]) });
    } else if (part === "scale") {
      result = await runScaleBench({ buildDir, requests: Number(values["scale-requests"]) });
    } else {
      result = await runSoakBench({
        buildDir,
        postgres: values.postgres,
        seconds: Number(values["soak-seconds"]),
        connections: Number(values["soak-connections"]),
        idleSeconds: Number(values["soak-idle-seconds"]),
        snapshotDir: values["soak-snapshots"],
      });
    }
    // Other work on the machine skews every figure: keep the load average next to them.
    const load = { before: loadBefore, after: (await machine()).loadAverage };
    const data = {
      part,
      ...header,
      finishedAt: new Date().toISOString(),
      loadAverage: load,
      result,
    };
    summary[part] = result;
    console.log(`\n→ ${writeResult(part, data)}`);
  } catch (error) {
    failed = true;
    console.error(`\n${part} failed:`, error);
    summary[part] = { error: error instanceof Error ? error.message : String(error) };
  }
}
if (parts.length > 1) console.log(`\n→ ${writeResult("bench", summary)}`);
// Benchmarks report; only a crash of one of them is a failure.
process.exit(failed ? 1 : 0);
