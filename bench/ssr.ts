import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import {
  createScratchDatabase,
  ROOT,
  sleep,
  startSite,
  type ScratchDatabase,
} from "#tests/support/site-process.ts";
import { BENCH_PAGES, PORTS, load, round, table, type LoadResult } from "./lib.ts";

/**
 * SSR throughput against its upper bound, side by side in one run: the production server on a
 * fresh database with the demo content, and a plain `http` server sending the same HTML bytes
 * from memory. For each page both are loaded with the same autocannon settings; the order
 * alternates from page to page so that neither always runs on a warmer (or hotter) machine.
 */

/**
 * What is left when the target is missed: public pages come from the page cache as stored
 * responses, so the gap is Express's fixed work per request (routing, headers, the log line).
 */
const PROPOSAL =
  "Next steps: profile a cached answer (Express routing, the request log, headers); a CDN in " +
  "front may keep these pages for their s-maxage.";
const TARGET_RATIO = 0.8;

export interface SsrOptions {
  buildDir: string;
  postgres: boolean;
  connections: number;
  seconds: number;
}

interface Fetched {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** GET without Accept-Encoding, exactly as autocannon will ask. */
function fetchRaw(url: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: "text/html" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          if (
            ["date", "connection", "keep-alive", "transfer-encoding", "content-length"].includes(
              key,
            )
          )
            continue;
          headers[key] = Array.isArray(value) ? value.join(", ") : value;
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function startStaticServer(snapshotFile: string, port: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "bench/static-server.ts", snapshotFile, String(port)],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`static server exited (${code})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface SsrPageResult {
  page: string;
  path: string;
  htmlBytes: number;
  order: string[];
  ssr: LoadResult;
  static: LoadResult;
  ratio: number;
}

export async function runSsrBench(options: SsrOptions) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-bench-ssr-"));
  let database: ScratchDatabase | undefined;
  if (options.postgres) database = await createScratchDatabase("nw_bench_ssr");
  const site = await startSite({
    port: PORTS.ssr,
    buildDir: options.buildDir,
    dataDir,
    databaseUrl: database?.url,
    // Production logging (one JSON line per request), written where nobody reads it.
    env: { LOG_LEVEL: "info" },
    stdout: "ignore",
  });
  let stat: Awaited<ReturnType<typeof startStaticServer>> | undefined;
  try {
    const snapshot: Record<string, { headers: Record<string, string>; body: string }> = {};
    for (const page of BENCH_PAGES) {
      const fetched = await fetchRaw(`${site.url}${page.path}`);
      if (fetched.status !== 200) throw new Error(`${page.path} answered ${fetched.status}`);
      snapshot[page.path] = { headers: fetched.headers, body: fetched.body.toString("base64") };
    }
    const snapshotFile = path.join(dataDir, "static-pages.json");
    writeFileSync(snapshotFile, JSON.stringify({ pages: snapshot }));
    stat = await startStaticServer(snapshotFile, PORTS.static);

    // Warm both (JIT, connection pools, PostgreSQL caches); not recorded.
    for (const page of BENCH_PAGES) {
      await load(`${site.url}${page.path}`, 10, 2);
      await load(`${stat.url}${page.path}`, 10, 1);
    }

    const pages: SsrPageResult[] = [];
    for (const [i, page] of BENCH_PAGES.entries()) {
      const order = i % 2 === 0 ? (["ssr", "static"] as const) : (["static", "ssr"] as const);
      const results: Partial<Record<"ssr" | "static", LoadResult>> = {};
      for (const which of order) {
        const base = which === "ssr" ? site.url : stat.url;
        process.stdout.write(`  ${page.path} ${which} … `);
        results[which] = await load(`${base}${page.path}`, options.connections, options.seconds);
        console.log(`${results[which]!.requestsPerSecond} req/s`);
        await sleep(500);
      }
      pages.push({
        page: page.name,
        path: page.path,
        htmlBytes: Buffer.from(snapshot[page.path]!.body, "base64").length,
        order: [...order],
        ssr: results.ssr!,
        static: results.static!,
        ratio: round(results.ssr!.requestsPerSecond / results.static!.requestsPerSecond, 3),
      });
    }
    const rssAfter = site.rss();

    console.log(
      `\nSSR vs static HTML (${options.connections} connections × ${options.seconds} s, database: ${options.postgres ? "PostgreSQL" : "PGlite"})\n`,
    );
    console.log(
      table(
        [
          "page",
          "HTML KB",
          "SSR req/s",
          "SSR p50",
          "SSR p99",
          "static req/s",
          "static p50",
          "static p99",
          "SSR/static",
          "SSR errors+non2xx",
        ],
        pages.map((p) => [
          p.path,
          round(p.htmlBytes / 1024),
          p.ssr.requestsPerSecond,
          `${p.ssr.latencyP50Ms} ms`,
          `${p.ssr.latencyP99Ms} ms`,
          p.static.requestsPerSecond,
          `${p.static.latencyP50Ms} ms`,
          `${p.static.latencyP99Ms} ms`,
          p.ratio,
          p.ssr.errors + p.ssr.non2xx + p.ssr.timeouts,
        ]),
      ),
    );
    const misses = pages.filter((p) => p.ratio < TARGET_RATIO || p.ssr.latencyP99Ms >= 50);
    const targets = {
      ratioAtLeast: TARGET_RATIO,
      p99BelowMs: 50,
      met: misses.length === 0,
      missed: misses.map((p) => ({ path: p.path, ratio: p.ratio, p99Ms: p.ssr.latencyP99Ms })),
      proposal: misses.length ? PROPOSAL : undefined,
    };
    if (misses.length) {
      console.log(
        `\nTarget missed (ratio ≥ ${TARGET_RATIO} and p99 < 50 ms) on ${misses.map((p) => p.path).join(", ")}.\n${PROPOSAL}`,
      );
    } else {
      console.log(`\nTargets met: SSR/static ≥ ${TARGET_RATIO} and p99 < 50 ms on every page.`);
    }
    return {
      database: options.postgres ? "postgres" : "pglite",
      connections: options.connections,
      seconds: options.seconds,
      logLevel: "info",
      compression: "none (no Accept-Encoding on either side)",
      serverRssBytesAfter: rssAfter,
      pages,
      targets,
    };
  } finally {
    await stat?.stop();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}
