import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { Agent } from "node:http";
import { afterAll, describe, expect, inject, it } from "vitest";
import { sendRequest } from "#tests/support/http-request.ts";
import { startBalancer, type Balancer } from "#tests/support/balancer.ts";
import {
  createScratchDatabase,
  postgresReachable,
  startSite,
  type ScratchDatabase,
  type Site,
} from "#tests/support/site-process.ts";

/**
 * Start and stop as an operator sees them (server.ts): a port already in use is a clear error and
 * exit 1 before anything starts; SIGTERM to one of two instances under load, behind a balancer
 * that follows `/readyz` and does not retry (tests/support/balancer.ts), fails no request —
 * `/readyz` answers 503 at once, requests are served through the grace period, and the process
 * exits 0.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4562;
const SECOND_PORT = 4566;
const CONNECTIONS = 20;
const GRACE_MS = 1_500;
const postgresUp = await postgresReachable();

describe("start and stop", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    dirs.push(mkdtempSync(path.join(os.tmpdir(), "nw-faults-lifecycle-")));
    return dirs.at(-1)!;
  };
  const sites: Site[] = [];
  let balancer: Balancer | undefined;
  let database: ScratchDatabase | undefined;

  afterAll(async () => {
    await balancer?.close();
    for (const site of sites) await site.kill9();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("a port already in use: a clear error and exit 1", async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(PORT + 1, "127.0.0.1", resolve));
    try {
      await expect(
        startSite({
          port: PORT + 1,
          buildDir,
          dataDir: dataDir(),
          readyTimeoutMs: 60_000,
        }),
      ).rejects.toThrow(/exited during start-up \(code 1\)[\s\S]*Port \d+ is already in use/);
    } finally {
      squatter.close();
    }
  });

  it.skipIf(!postgresUp)(
    `SIGTERM under ${CONNECTIONS} connections through a balancer fails no request, and exits 0`,
    async () => {
      database = await createScratchDatabase("nw_faults_lifecycle");
      // Two instances on one database behind a balancer that follows /readyz, as deployed.
      const env = { SHUTDOWN_GRACE_MS: String(GRACE_MS), SHUTDOWN_TIMEOUT_MS: "5000" };
      const [leaving, staying] = await Promise.all(
        [PORT, SECOND_PORT].map((port) =>
          startSite({ port, buildDir, dataDir: dataDir(), databaseUrl: database!.url, env }),
        ),
      );
      sites.push(leaving!, staying!);
      balancer = await startBalancer([leaving!.url, staying!.url]);
      const front = balancer.url;
      const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      let served = 0;
      const failures: string[] = [];
      let stopAt = Infinity;
      // Pages from the shared cache and pages rendered from the database (a visitor with a cookie).
      const steps = [
        { method: "GET" as const, path: "/" },
        {
          method: "GET" as const,
          path: "/services/counter-fraud-training",
          headers: { cookie: "visitor=1" },
        },
      ];
      const clients = Array.from({ length: CONNECTIONS }, async (_, i) => {
        for (let n = i; Date.now() < stopAt; n++) {
          try {
            const { status } = await sendRequest(agent, front, steps[n % steps.length]!);
            if (status === 200) served++;
            else failures.push(`status ${status}`);
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const signalledAt = Date.now();
      leaving!.child.kill("SIGTERM");
      const code = await leaving!.exited;
      const exitedAfter = Date.now() - signalledAt;
      // Keep sending a moment after it has gone.
      stopAt = Date.now() + 1_000;
      await Promise.all(clients);
      agent.destroy();
      const droppedAfter = (balancer.droppedAt[leaving!.url] ?? Infinity) - signalledAt;
      console.log(
        `[shutdown] ${served} requests through the balancer (${JSON.stringify(Object.values(balancer.stats.forwarded))} per instance), ` +
          `${failures.length} failed; the balancer dropped the instance ${droppedAfter} ms after SIGTERM; ` +
          `it exited ${code} after ${exitedAfter} ms`,
      );
      expect(failures).toEqual([]);
      expect(balancer.stats.upstreamErrors).toEqual([]);
      expect(served).toBeGreaterThan(0);
      // Within the grace period, while the instance still serves what reaches it.
      expect(droppedAfter).toBeLessThan(GRACE_MS);
      expect(code).toBe(0);
    },
  );
});
