import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { ROOT } from "#tests/support/site-process.ts";

/** Shared bits of the benchmark scripts: load runs, percentiles, tables, result files. */

export const RESULTS_DIR = path.join(ROOT, "bench/results");

/** Ports 4500–4549 are the benchmarks' (the fault tests use 4550–4599). */
export const PORTS = {
  ssr: 4500,
  static: 4501,
  lighthouse: 4502,
  scale: 4503,
  pageJs: 4504,
  soak: 4505,
} as const;

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerSecond: number;
}

/** One autocannon run: `connections` keep-alive connections hammering GET `url` for `seconds`. */
export async function load(url: string, connections: number, seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    // No Accept-Encoding: both servers send the same uncompressed bytes.
    headers: { accept: "text/html" },
  });
  return {
    requestsPerSecond: round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    bytesPerSecond: Math.round(result.throughput.average),
  };
}

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const index = Math.min(
    sortedMs.length - 1,
    Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1),
  );
  return sortedMs[index]!;
}

export const round = (n: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

export function kb(bytes: number): number {
  return round(bytes / 1024, 1);
}

/** A plain text table for the console. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [
    line(cells[0]!),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...cells.slice(1).map(line),
  ].join("\n");
}

/** Writes `bench/results/<part>-<time>.json` and `<part>-latest.json`; returns the first path. */
export function writeResult(part: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const file = path.join(RESULTS_DIR, `${part}-${stamp}.json`);
  const json = `${JSON.stringify(data, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(path.join(RESULTS_DIR, `${part}-latest.json`), json);
  return path.relative(ROOT, file);
}

/** What the machine was, so figures from different runs are not compared blindly. */
export async function machine() {
  const os = await import("node:os");
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    loadAverage: os.loadavg().map((n) => round(n, 2)),
  };
}

/** The pages the benchmarks measure (demo content from server/db/seed.server.ts). */
export const DEMO_COURSE_SLUG = "introduction-to-counter-fraud";
export const BENCH_PAGES = [
  { name: "home", path: "/" },
  { name: "catalogue", path: "/services/counter-fraud-training" },
  { name: "course", path: `/courses/${DEMO_COURSE_SLUG}` },
] as const;
/** The pages measured in the browser: the cached pages above and the checkout (never cached). */
export const BROWSER_PAGES = [
  ...BENCH_PAGES,
  { name: "checkout", path: `/courses/${DEMO_COURSE_SLUG}/checkout` },
] as const;
