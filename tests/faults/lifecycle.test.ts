import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { Agent } from "node:http";
import { afterAll, describe, expect, inject, it } from "vitest";
import { sendRequest } from "#tests/support/http-request.ts";
import { startSite, type Site } from "#tests/support/site-process.ts";

/**
 * Start and stop as an operator sees them (server.ts): a port already in use is a clear error and
 * exit 1 before anything starts; SIGTERM under load, behind a client that honours readiness as a
 * load balancer does, fails no request — `/readyz` answers 503 at once, requests are served
 * through the grace period, and the process exits 0.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4562;
const CONNECTIONS = 20;

describe("start and stop", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-lifecycle-"));
  let site: Site | undefined;

  afterAll(async () => {
    await site?.kill9();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a port already in use: a clear error and exit 1", async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(PORT + 1, "127.0.0.1", resolve));
    try {
      await expect(
        startSite({
          port: PORT + 1,
          buildDir,
          dataDir: mkdtempSync(path.join(os.tmpdir(), "nw-faults-port-")),
          readyTimeoutMs: 60_000,
        }),
      ).rejects.toThrow(/exited during start-up \(code 1\)[\s\S]*Port \d+ is already in use/);
    } finally {
      squatter.close();
    }
  });

  it(`SIGTERM under ${CONNECTIONS} connections fails no request, and exits 0`, async () => {
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      env: { SHUTDOWN_GRACE_MS: "1500", SHUTDOWN_TIMEOUT_MS: "5000" },
    });
    const running = site;
    // The 'load balancer': sends only while /readyz says ready, checked every 100 ms.
    let ready = true;
    let readyFailedAt = 0;
    const watcher = (async () => {
      while (ready) {
        const probe = await fetch(`${running.url}/readyz`).catch(() => null);
        if (probe?.status !== 200) {
          ready = false;
          readyFailedAt = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    let served = 0;
    const failures: string[] = [];
    const clients = Array.from({ length: CONNECTIONS }, async () => {
      while (ready) {
        try {
          const { status } = await sendRequest(agent, running.url, { method: "GET", path: "/" });
          if (status === 200) served++;
          else failures.push(`status ${status}`);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const signalledAt = Date.now();
    running.child.kill("SIGTERM");
    await Promise.all([...clients, watcher]);
    const code = await running.exited;
    agent.destroy();
    console.log(
      `[shutdown] ${served} requests served, ${failures.length} failed; /readyz failed ${readyFailedAt - signalledAt} ms after SIGTERM; exit ${code}`,
    );
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(0);
    expect(readyFailedAt - signalledAt).toBeLessThan(1_000);
    expect(code).toBe(0);
    site = undefined;
  });
});
