import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent } from "node:http";
import { afterAll, describe, expect, inject, it } from "vitest";
import { sendRequest } from "#tests/support/http-request.ts";
import { startSite, type Site } from "#tests/support/site-process.ts";

/**
 * A query string does not skip the page cache (server/page-cache.server.ts): one client sending
 * 300 requests of `/?r=<random>` gets the cached home page each time (every answer says `hit`:
 * nothing is rendered for it), while others keep asking for `/`. Their latency is printed, not
 * asserted: speed is the benchmarks' to measure, and this machine's speed varies.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4560;
const FLOOD = 300;
const FLOOD_CONNECTIONS = 10;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

describe("a flood of random query strings", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-query-"));
  let site: Site | undefined;

  afterAll(async () => {
    await site?.kill9();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${FLOOD} requests of /?r=<random> from one client are served from the cache`, async () => {
    // Kept longer than the flood lasts, so that every answer can be checked to come from the cache.
    site = await startSite({ port: PORT, buildDir, dataDir, env: { PAGE_CACHE_MS: "10000" } });
    const flooder = new Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS });
    const visitor = new Agent({ keepAlive: true, maxSockets: 1 });
    // Warm: the first render of / fills the cache.
    expect((await sendRequest(visitor, site.url, { method: "GET", path: "/" })).status).toBe(200);

    let sent = 0;
    const statuses = new Map<number, number>();
    const verdicts = new Map<string, number>();
    const flood = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
      while (sent < FLOOD) {
        sent++;
        const r = `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
        const { status, pageCache } = await sendRequest(flooder, site!.url, {
          method: "GET",
          path: `/?r=${r}`,
        });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        verdicts.set(pageCache ?? "none", (verdicts.get(pageCache ?? "none") ?? 0) + 1);
      }
    });
    const home: number[] = [];
    const measure = (async () => {
      while (sent < FLOOD) {
        home.push((await sendRequest(visitor, site!.url, { method: "GET", path: "/" })).ms);
      }
    })();
    await Promise.all([...flood, measure]);
    flooder.destroy();
    visitor.destroy();

    const p50 = percentile(home, 50);
    const p99 = percentile(home, 99);
    console.log(
      `[query flood] ${FLOOD} requests of /?r=<random> over ${FLOOD_CONNECTIONS} connections; ` +
        `/ meanwhile: ${home.length} requests, p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`,
    );
    expect(Object.fromEntries(statuses)).toEqual({ 200: FLOOD });
    expect(Object.fromEntries(verdicts)).toEqual({ hit: FLOOD });
    expect(home.length).toBeGreaterThan(10);
  });
});
