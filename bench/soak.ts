import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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
import { sendRequest } from "#tests/support/http-request.ts";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { DEMO_COURSE_SLUG, PORTS, percentile, round, table } from "./lib.ts";

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

type Kind = "page" | "cookie" | "data" | "missing" | "post";

interface Step {
  kind: Kind;
  method: "GET" | "POST";
  path: string;
  /** Statuses that count as a correct answer. */
  expect: readonly number[];
  headers?: Record<string, string>;
  body?: Record<string, string>;
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

const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip, deflate, br",
  "accept-language": "en-GB,en;q=0.9",
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
};

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

/* ------------------------------------------------------------------------------------------ */
/* The probe inside the server                                                                  */

interface ProbeAnswer {
  id: number;
  error?: string;
  file?: string;
  usage?: NodeJS.MemoryUsage;
}

function probe(child: ChildProcess) {
  let next = 1;
  const waiting = new Map<number, (answer: ProbeAnswer) => void>();
  child.on("message", (answer: ProbeAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  // A send on a closed channel (the server has exited) is reported by the caller, not thrown here.
  child.on("error", () => {});
  const ask = (question: Record<string, unknown>, timeoutMs = 300_000) =>
    new Promise<ProbeAnswer>((resolve, reject) => {
      const id = next++;
      if (!child.connected) return reject(new Error("the server has exited"));
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the memory probe did not answer ${String(question.type)}`));
      }, timeoutMs);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      });
      child.send({ id, ...question });
    });
  return {
    memory: async (gc = false) => (await ask({ type: "memory", gc })).usage!,
    snapshot: async (file: string) => (await ask({ type: "snapshot", file })).file!,
  };
}

/**
 * Where the resident pages are, from /proc/<pid>/smaps:
 * - `wasm`: WebAssembly linear memories. V8 reserves each as a 10 GiB region of inaccessible
 *   pages — a 2 GiB guard below, then room for the 4 GiB a 32-bit module can address, and guards
 *   above — and opens the part in use read-write: the read-write mapping(s) directly after a
 *   2 GiB `---p` guard and directly before the rest of the reservation. Such a memory only grows;
 *   pages the database engine frees stay mapped.
 * - `malloc`: the C allocator's heaps (glibc): the main one (`[heap]`) and each thread arena's,
 *   64 MiB-aligned regions of 64 MiB whose unused tail is `---p`. Node's Buffers, zlib and brotli
 *   state and V8's own bookkeeping live there; freed memory inside stays resident until the top of
 *   a heap is free.
 * (V8's JavaScript heap is the rest of the anonymous memory, roughly `heapTotal`.)
 */
export function residentByKind(pid: number): { wasm: number; malloc: number } {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return { wasm: 0, malloc: 0 };
  }
  const maps: { start: bigint; end: bigint; perms: string; name: string; rssKb: number }[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+ *(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3]!,
        name: head[4]!,
        rssKb: 0,
      });
    } else if (line.startsWith("Rss:") && maps.length) {
      maps.at(-1)!.rssKb = Number(line.split(/\s+/)[1]);
    }
  }
  const MiB = 1024n ** 2n;
  const GiB = 1024n * MiB;
  const touches = (a: (typeof maps)[number] | undefined, b: (typeof maps)[number] | undefined) =>
    a !== undefined && b !== undefined && a.end === b.start;
  let wasmKb = 0;
  let mallocKb = 0;
  for (const [i, map] of maps.entries()) {
    if (map.name === "[heap]") mallocKb += map.rssKb;
    // A thread arena's heap: read-write from a 64 MiB boundary, the rest of the 64 MiB reserved.
    const next = maps[i + 1];
    if (
      map.perms === "rw-p" &&
      map.name === "" &&
      map.start % (64n * MiB) === 0n &&
      (map.end - map.start === 64n * MiB ||
        (touches(map, next) && next!.perms === "---p" && next!.end - map.start === 64n * MiB))
    )
      mallocKb += map.rssKb;
    if (map.perms !== "---p" || map.end - map.start !== 2n * GiB) continue;
    let j = i + 1;
    let rssKb = 0;
    while (maps[j]?.perms.startsWith("rw") && touches(maps[j - 1], maps[j]))
      rssKb += maps[j++]!.rssKb;
    const rest = maps[j];
    if (
      j > i + 1 &&
      rest?.perms === "---p" &&
      touches(maps[j - 1], rest) &&
      rest.end - map.start >= 8n * GiB
    )
      wasmKb += rssKb;
  }
  return { wasm: wasmKb * 1024, malloc: mallocKb * 1024 };
}

/* ------------------------------------------------------------------------------------------ */
/* Traffic                                                                                      */

/** One request; resolves with its status once the whole answer has been read. */
async function send(agent: Agent, base: string, step: Step, visitor: string): Promise<number> {
  const { status } = await sendRequest(agent, base, {
    method: step.method,
    path: step.path,
    headers: {
      ...BROWSER_HEADERS,
      "x-forwarded-for": visitor,
      ...step.headers,
      ...(step.body ? { origin: base } : {}),
    },
    form: step.body,
  });
  return status;
}

/** The public pages from the sitemap (the demo content: fixed pages and every course). */
async function publicPaths(base: string): Promise<{ pages: string[]; courses: string[] }> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const courses = paths.filter((p) => p.startsWith("/courses/"));
  if (!courses.length) throw new Error("the sitemap lists no course");
  return { pages: paths.filter((p) => !p.startsWith("/courses/")), courses };
}

/**
 * The i-th request of a connection: a cycle of 20 — 16 GETs of every sort and 4 form posts —
 * each visiting a different page of the site in turn. Unique names (e-mail addresses, missing
 * pages, campaign parameters) come from `n`, so nothing repeats across the run.
 */
function stepFor(i: number, n: number, site: { pages: string[]; courses: string[] }): Step {
  const at = <T>(list: readonly T[]) => list[Math.floor(i / 20) % list.length]!;
  const page = (p: string): Step => ({ kind: "page", method: "GET", path: p, expect: [200] });
  const withCookie = (p: string): Step => ({
    ...page(p),
    kind: "cookie",
    // Any cookie makes the visitor's page a render of its own (no page cache).
    headers: { cookie: `nw_seen=${n}` },
  });
  const data = (p: string): Step => ({
    kind: "data",
    method: "GET",
    path: p === "/" ? "/_root.data" : `${p}.data`,
    expect: [200],
    headers: { accept: "*/*" },
  });
  const missing = (p: string): Step => ({ kind: "missing", method: "GET", path: p, expect: [404] });
  const post = (p: string, body: Record<string, string>): Step => ({
    kind: "post",
    method: "POST",
    path: p,
    // Answered in the page (200) or redirected (303); 429 would mean the rate limit was hit.
    expect: [200, 303],
    body,
  });
  const id = `${Date.now().toString(36)}-${n}`;
  const course = at(site.courses);
  switch (i % 20) {
    case 0:
      return page("/");
    case 1:
      return page("/services/counter-fraud-training");
    case 2:
      return page(course);
    case 3:
      return page("/contact");
    case 4:
      return post("/contact", {
        form: "enquiry",
        contact_website: "",
        name: "Soak Test",
        email: `soak-${id}@example.com`,
        message: "An enquiry sent by the soak benchmark.",
      });
    case 5:
      return page(at(site.pages));
    case 6:
      return withCookie(at([...site.pages, ...site.courses]));
    case 7:
      return data(at([...site.pages, ...site.courses]));
    case 8:
      return missing(`/no-such-page-${n}`);
    case 9:
      // Campaign links: each query string is another URL to the page cache.
      return page(`${at(["/", "/services/counter-fraud-training", course])}?utm_campaign=${n}`);
    case 10:
      return post("/newsletter", { contact_website: "", email: `news-${id}@example.com` });
    case 11:
      return page(`/courses/${DEMO_COURSE_SLUG}/checkout`);
    case 12:
      return post(`/courses/${DEMO_COURSE_SLUG}/checkout`, {
        intent: "invoice",
        firstName: "Soak",
        lastName: "Test",
        email: `order-${id}@example.com`,
        ...BILLING_FORM,
        studentMode: "self",
      });
    case 13:
      return page(i % 40 < 20 ? "/sitemap.xml" : "/robots.txt");
    case 14:
      return missing(`/courses/no-such-course-${n}`);
    case 15:
      return withCookie(course);
    case 16:
      return page("/newsletter");
    case 17:
      return data(course);
    case 18:
      // A bot filling the honeypot: answered like anyone else, stored marked as suspected spam.
      return post("/contact", {
        form: "enquiry",
        contact_website: "https://spam.example",
        name: "Bot",
        email: `bot-${id}@example.com`,
        message: "Spam sent by the soak benchmark.",
      });
    default:
      return page("/services/counter-fraud-training");
  }
}

/* ------------------------------------------------------------------------------------------ */

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? 0 : sxy / sxx;
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
