import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  createScratchDatabase,
  processRss,
  ROOT,
  sleep,
  startSite,
  type ScratchDatabase,
  type Site,
} from "#tests/support/site-process.ts";
import { PORTS, percentile, round, table } from "./lib.ts";
import { mb, probe, residentByKind, slope } from "./soak-memory.ts";
import { publicPaths, send, stepFor, type Kind } from "./soak-traffic.ts";

/**
 * Memory under sustained traffic: the production server (production logging, written nowhere)
 * gets a fixed stretch of mixed public traffic from a bounded number of keep-alive connections —
 * cached and uncached page views, client-side navigations' `.data` requests, 404s, query-string
 * variants, and form posts (enquiries, newsletter sign-ups, invoice orders) — then idles, then
 * collects its garbage. Resident memory (RSS, from /proc) is sampled every 10 s with the V8 heap,
 * the memory outside it, the WebAssembly memory of the embedded database and the C allocator's
 * heaps, so that growth can be told apart: JavaScript objects kept alive, or memory the process
 * holds on to.
 *
 * Reading the table: V8 sizes its heap to the allocation rate, so "heap total" (and with it RSS)
 * during the traffic depends on how many requests per second the machine managed; "heap used"
 * and RSS after the collection, the WebAssembly and the malloc columns do not, and are the figures
 * to compare between runs. The C allocator reads MALLOC_ARENA_MAX from the environment, which the
 * server inherits; the result records it.
 *
 * How the numbers are read: `bench/soak-probe.mjs` is preloaded into the server (`--import`, with
 * `--expose-gc`) and answers over an IPC channel with `process.memoryUsage()` — after a forced
 * full collection at the end — and, with `--soak-snapshots DIR`, writes heap snapshots early and
 * late to compare. The production code has no such hook: only this benchmark loads the probe.
 * Traffic goes to 127.0.0.1 only; the run stops by itself after `seconds`.
 */

export interface SoakOptions {
  buildDir: string;
  /** A fresh PostgreSQL database instead of the embedded one. */
  postgres: boolean;
  /** How long the traffic lasts. */
  seconds: number;
  /** Concurrent keep-alive connections, each a stream of visitors. */
  connections: number;
  sampleSeconds?: number;
  /** Quiet time after the traffic, before the forced collection. */
  idleSeconds?: number;
  /**
   * Writes heap snapshots here (a fifth of the way in, and at the end after the collection), to
   * compare. Writing one leaves the server ~200 MB larger (the allocator keeps what the snapshot
   * writer used), so the RSS of such a run is not comparable with others.
   */
  snapshotDir?: string;
}

export interface SoakSample {
  atSeconds: number;
  phase: "start" | "traffic" | "idle" | "after-gc";
  requests: number;
  errors: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** Memory V8 knows of outside its heap: Buffers, and the declared size of WebAssembly memories. */
  externalMb: number;
  arrayBuffersMb: number;
  /** Resident pages of WebAssembly linear memories (PGlite's database engine), from smaps. */
  wasmRssMb: number;
  /** Resident pages of the C allocator's heaps (see residentByKind). */
  mallocRssMb: number;
}

export async function runSoakBench(options: SoakOptions) {
  const sampleMs = (options.sampleSeconds ?? 10) * 1000;
  const idleSeconds = options.idleSeconds ?? 30;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-bench-soak-"));
  let database: ScratchDatabase | undefined;
  if (options.postgres) database = await createScratchDatabase("nw_bench_soak");
  let site: Site | undefined;
  try {
    site = await startSite({
      port: PORTS.soak,
      buildDir: options.buildDir,
      dataDir,
      databaseUrl: database?.url,
      nodeArgs: [
        "--expose-gc",
        "--import",
        pathToFileURL(path.join(ROOT, "bench/soak-probe.mjs")).href,
      ],
      ipc: true,
      env: {
        // Production logging (one JSON line per request), written where nobody reads it.
        LOG_LEVEL: "info",
        // Each connection is a stream of visitors (X-Forwarded-For from the loopback "proxy"),
        // and the form limit is out of the way: every post is stored, as real visitors' would be.
        TRUST_PROXY: "loopback",
        FORM_RATE_LIMIT_PER_MINUTE: "100000",
      },
      stdout: "ignore",
    });
    const server = site;
    // An exit during the run ends the traffic and fails the part with the server's last words.
    let exit: string | undefined;
    server.child.once(
      "exit",
      (code, signal) => (exit = signal ? `signal ${signal}` : `code ${code}`),
    );
    const memory = probe(server.child);
    const paths = await publicPaths(server.url);

    let requests = 0;
    let errors = 0;
    const statuses: Record<Kind, Record<number, number>> = {
      page: {},
      cookie: {},
      data: {},
      missing: {},
      post: {},
    };
    const errorExamples: string[] = [];
    const latencies: number[] = [];
    const samples: SoakSample[] = [];
    const started = Date.now();

    const sample = async (phase: SoakSample["phase"], gc = false) => {
      const usage = await memory.memory(gc);
      const resident = residentByKind(server.pid);
      const row: SoakSample = {
        atSeconds: Math.round((Date.now() - started) / 1000),
        phase,
        requests,
        errors,
        // From /proc, like any outside observer (usage.rss is the same figure).
        rssMb: mb(processRss(server.pid) ?? usage.rss),
        heapUsedMb: mb(usage.heapUsed),
        heapTotalMb: mb(usage.heapTotal),
        externalMb: mb(usage.external),
        arrayBuffersMb: mb(usage.arrayBuffers),
        wasmRssMb: mb(resident.wasm),
        mallocRssMb: mb(resident.malloc),
      };
      samples.push(row);
      console.log(
        `  ${String(row.atSeconds).padStart(4)} s  ${phase.padEnd(8)}  RSS ${row.rssMb} MB  heap ${row.heapUsedMb} MB  ` +
          `external ${row.externalMb} MB  wasm ${row.wasmRssMb} MB  malloc ${row.mallocRssMb} MB  requests ${requests}  errors ${errors}`,
      );
      return row;
    };

    const snapshots: Record<string, string> = {};
    const snapshot = async (label: string) => {
      if (!options.snapshotDir) return;
      mkdirSync(options.snapshotDir, { recursive: true });
      const file = path.resolve(options.snapshotDir, `soak-${label}-${server.pid}.heapsnapshot`);
      const t = Date.now();
      snapshots[label] = await memory.snapshot(file);
      console.log(`  heap snapshot (${label}) in ${Date.now() - t} ms: ${file}`);
    };

    const mallocArenaMax = process.env.MALLOC_ARENA_MAX ?? null;
    console.log(
      `  ${options.connections} connections × ${options.seconds} s, database: ${options.postgres ? "PostgreSQL" : "PGlite"}` +
        (mallocArenaMax ? `, MALLOC_ARENA_MAX=${mallocArenaMax}` : ""),
    );
    // The baseline after a full collection: what start-up (and a first initdb) left behind is gone.
    await sample("start", true);

    const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
    const until = started + options.seconds * 1000;
    let n = 0;
    const traffic = Promise.all(
      Array.from({ length: options.connections }, async (_, c) => {
        for (let i = c; Date.now() < until && !exit; i++) {
          const step = stepFor(i, n++, paths);
          // A new visitor (address) every cycle of steps.
          const cycle = Math.floor(i / 20);
          const visitor = `10.${c & 255}.${(cycle >> 8) & 255}.${cycle & 255}`;
          const t = performance.now();
          try {
            const status = await send(agent, server.url, step, visitor);
            statuses[step.kind][status] = (statuses[step.kind][status] ?? 0) + 1;
            if (!step.expect.includes(status)) {
              errors++;
              if (errorExamples.length < 10)
                errorExamples.push(`${step.method} ${step.path}: ${status}`);
            }
          } catch (error) {
            errors++;
            if (errorExamples.length < 10)
              errorExamples.push(`${step.method} ${step.path}: ${(error as Error).message}`);
          }
          latencies.push(performance.now() - t);
          requests++;
        }
      }),
    );

    // Samples every sampleMs while the traffic runs (and the early snapshot a fifth of the way).
    let snapshotTaken = false;
    for (let tick = 1; !exit; tick++) {
      const due = Math.min(started + tick * sampleMs, until);
      const finished = await Promise.race([
        traffic.then(() => true),
        sleep(Math.max(0, due - Date.now())).then(() => false),
      ]);
      if (finished || Date.now() >= until) break;
      await sample("traffic");
      if (!snapshotTaken && Date.now() - started >= (options.seconds * 1000) / 5) {
        snapshotTaken = true;
        await snapshot("early");
      }
    }
    await traffic;
    agent.destroy();
    if (exit) {
      throw new Error(
        `The server exited during the run (${exit}) after ${requests} requests:\n${server.output().slice(-4000)}`,
      );
    }
    const trafficSeconds = (Date.now() - started) / 1000;
    const end = await sample("traffic");

    // Quiet: what the process keeps once nobody is asking (V8 shrinks its heap by itself after a
    // few seconds of little allocation; the outbox worker still sends the e-mails the posts
    // queued), then after a full collection.
    const idleUntil = Date.now() + idleSeconds * 1000;
    while (Date.now() + sampleMs < idleUntil) {
      await sleep(sampleMs);
      await sample("idle");
    }
    await sleep(Math.max(0, idleUntil - Date.now()));
    const idle = await sample("idle");
    const afterGc = await sample("after-gc", true);
    await snapshot("late");

    if (exit) throw new Error(`The server exited (${exit}):\n${server.output().slice(-4000)}`);
    const ready = await fetch(`${server.url}/readyz`);
    await ready.arrayBuffer();

    latencies.sort((a, b) => a - b);
    const during = samples.filter((s) => s.phase === "traffic");
    // Settled: from a third of the way on (start-up, JIT and the caches' filling are behind).
    const settled = during.filter((s) => s.atSeconds >= options.seconds / 3);
    const rssValues = settled.map((s) => s.rssMb).sort((a, b) => a - b);
    const perMinute = (key: keyof SoakSample) =>
      round(slope(settled.map((s) => [s.atSeconds / 60, s[key] as number])), 2);
    const summary = {
      rssStartMb: samples[0]!.rssMb,
      rssMaxMb: Math.max(...during.map((s) => s.rssMb)),
      rssSettledMedianMb: rssValues[Math.floor(rssValues.length / 2)] ?? end.rssMb,
      rssEndOfTrafficMb: end.rssMb,
      rssAfterIdleMb: idle.rssMb,
      rssAfterGcMb: afterGc.rssMb,
      heapUsedAfterGcMb: afterGc.heapUsedMb,
      externalAfterGcMb: afterGc.externalMb,
      arrayBuffersAfterGcMb: afterGc.arrayBuffersMb,
      wasmRssAfterGcMb: afterGc.wasmRssMb,
      mallocRssAfterGcMb: afterGc.mallocRssMb,
      // Growth once settled, from a least-squares line through the samples.
      settledGrowthMbPerMinute: {
        rss: perMinute("rssMb"),
        heapUsed: perMinute("heapUsedMb"),
        wasm: perMinute("wasmRssMb"),
        malloc: perMinute("mallocRssMb"),
      },
    };

    console.log(
      `\nSoak: ${requests} requests in ${round(trafficSeconds, 0)} s (${round(requests / trafficSeconds, 0)} req/s), ` +
        `${options.connections} connections, database: ${options.postgres ? "PostgreSQL" : "PGlite"}\n`,
    );
    console.log(
      table(
        [
          "time",
          "phase",
          "RSS MB",
          "heap used MB",
          "heap total MB",
          "external MB",
          "wasm RSS MB",
          "malloc RSS MB",
          "requests",
          "errors",
        ],
        samples.map((s) => [
          `${s.atSeconds} s`,
          s.phase,
          s.rssMb,
          s.heapUsedMb,
          s.heapTotalMb,
          s.externalMb,
          s.wasmRssMb,
          s.mallocRssMb,
          s.requests,
          s.errors,
        ]),
      ),
    );
    console.log(
      `\nStatuses: ${JSON.stringify(statuses)}` +
        (errorExamples.length ? `\nFirst errors: ${errorExamples.join("; ")}` : "") +
        `\nRSS: start ${summary.rssStartMb} MB, settled ${summary.rssSettledMedianMb} MB (median from ${round(options.seconds / 3, 0)} s), ` +
        `max ${summary.rssMaxMb} MB, after ${idleSeconds} s idle ${summary.rssAfterIdleMb} MB, after GC ${summary.rssAfterGcMb} MB ` +
        `(heap used ${summary.heapUsedAfterGcMb} MB, WebAssembly ${summary.wasmRssAfterGcMb} MB, malloc ${summary.mallocRssAfterGcMb} MB). ` +
        `Settled growth: RSS ${summary.settledGrowthMbPerMinute.rss} MB/min, heap ${summary.settledGrowthMbPerMinute.heapUsed} MB/min, ` +
        `malloc ${summary.settledGrowthMbPerMinute.malloc} MB/min.`,
    );

    return {
      database: options.postgres ? "postgres" : "pglite",
      connections: options.connections,
      seconds: options.seconds,
      idleSeconds,
      logLevel: "info",
      mallocArenaMax,
      requests,
      requestsPerSecond: round(requests / trafficSeconds, 1),
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      errors,
      errorExamples,
      statuses,
      summary,
      samples,
      snapshots: options.snapshotDir ? snapshots : undefined,
    };
  } finally {
    await site?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}
