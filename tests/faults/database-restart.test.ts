import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withSiteDatabase } from "#tests/support/site-client.ts";
import {
  createScratchDatabase,
  postgresReachable,
  sleep,
  startSite,
  type ScratchDatabase,
  type Site,
} from "#tests/support/site-process.ts";
import { checkAcknowledged, emptyAcks, writeLoad } from "#tests/support/write-load.ts";

/**
 * PostgreSQL dropping every connection (a restart, a failover, a connection killer) three times
 * while visitors write and read: the server process stays up, every write it acknowledged is in
 * the database, the requests caught by the fault are answered 503 with Retry-After (never a
 * 500 or a cut connection), and the site writes again within seconds of each fault.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4564;
const FAULTS = 3;
/** A course page rendered for a visitor with a cookie: a database read the page cache skips. */
const READ_PATH = "/courses/introduction-to-counter-fraud";

const postgresUp = await postgresReachable();

/** Ends every connection to the database but this one, as a restart would. */
async function dropEveryConnection(database: ScratchDatabase): Promise<number> {
  return withSiteDatabase({ kind: "postgres", url: database.url }, async (query) => {
    const rows = await query<{ ended: number }>(
      `select count(*)::int as ended from (
         select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()
       ) terminated`,
    );
    return rows[0]!.ended;
  });
}

describe.skipIf(!postgresUp)("PostgreSQL drops every connection under load", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-db-restart-"));
  let database: ScratchDatabase | undefined;
  let site: Site | undefined;

  afterAll(async () => {
    await site?.kill9();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${FAULTS} times: no exit, no acknowledged write lost, 503 + Retry-After, back within seconds`, async () => {
    database = await createScratchDatabase("nw_faults_dbrestart");
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      databaseUrl: database.url,
      env: { FORM_RATE_LIMIT_PER_MINUTE: "100000", TRUST_PROXY: "loopback" },
    });
    const running = site;
    const stop = { now: false };
    const acks = emptyAcks();
    const writing = writeLoad(running, "dbr", stop, acks, 4);
    const reads = { ok: 0, unavailable: 0, other: [] as string[] };
    const reading = Promise.all(
      Array.from({ length: 2 }, async () => {
        while (!stop.now) {
          try {
            const response = await fetch(`${running.url}${READ_PATH}`, {
              headers: { cookie: "visitor=1" },
            });
            await response.arrayBuffer();
            if (response.status === 200) reads.ok++;
            else if (response.status === 503 && response.headers.get("retry-after")) {
              reads.unavailable++;
            } else reads.other.push(`status ${response.status}`);
          } catch (error) {
            reads.other.push((error as Error).message);
          }
        }
      }),
    );

    const waitForAcks = async (count: number, limitMs: number) => {
      const until = Date.now() + limitMs;
      while (acks.ackedAt.length < count && Date.now() < until) await sleep(25);
    };
    await waitForAcks(20, 30_000);
    const recoveries: number[] = [];
    const ended: number[] = [];
    for (let fault = 1; fault <= FAULTS; fault++) {
      const before = acks.ackedAt.length;
      const at = Date.now();
      ended.push(await dropEveryConnection(database));
      // Back: a write acknowledged after the fault, then some more load before the next one.
      while (!acks.ackedAt.slice(before).some((t) => t > at) && Date.now() - at < 30_000) {
        await sleep(25);
      }
      const back = acks.ackedAt.slice(before).find((t) => t > at);
      recoveries.push(back === undefined ? Infinity : back - at);
      await sleep(1_000);
    }
    stop.now = true;
    await Promise.all([writing, reading]);

    const exitCode = running.child.exitCode;
    const ready = await fetch(`${running.url}/readyz`);
    const found = await checkAcknowledged({ kind: "postgres", url: database.url }, acks);
    console.log(
      `[database restart] ${FAULTS} faults ended ${ended.join(", ")} connections; back after ` +
        `${recoveries.map((ms) => `${ms} ms`).join(", ")}; ${acks.inquiries.length} enquiries and ` +
        `${acks.orders.length} orders acknowledged, lost ${found.lostInquiries.length} / ` +
        `${found.lostOrders.length}; refused ${JSON.stringify(acks.refused)}, ` +
        `${acks.failedInFlight} cut off; reads ${reads.ok} ok, ${reads.unavailable} × 503, ` +
        `${reads.other.length} other; process ${exitCode === null ? "running" : `exited ${exitCode}`}`,
    );
    expect(exitCode).toBeNull();
    expect(ready.status).toBe(200);
    expect(ended.every((n) => n > 0)).toBe(true);
    expect(found.lostInquiries).toEqual([]);
    expect(found.lostOrders).toEqual([]);
    // Each inquiry and invoice order committed with its two e-mails, never without.
    expect(found.inquiries.filter((r) => r.emails !== 2)).toEqual([]);
    expect(found.orders.filter((r) => r.emails !== 2)).toEqual([]);
    // What a fault caught was a 503 with Retry-After: no 500, no cut connection.
    expect(Object.keys(acks.refused).filter((s) => s !== "503")).toEqual([]);
    expect(acks.withoutRetryAfter).toBe(0);
    expect(acks.failedInFlight).toBe(0);
    expect(reads.other).toEqual([]);
    // Seconds, not minutes (a busy machine takes longer to open ten new connections).
    expect(Math.max(...recoveries)).toBeLessThan(10_000);
  });
});
