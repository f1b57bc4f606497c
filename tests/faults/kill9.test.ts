import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { DatabaseRef } from "#tests/support/site-client.ts";
import {
  createScratchDatabase,
  postgresReachable,
  sleep,
  startSite,
  type ScratchDatabase,
  type Site,
} from "#tests/support/site-process.ts";
import { addAcks, checkAcknowledged, emptyAcks, writeLoad } from "#tests/support/write-load.ts";

/**
 * kill -9 of the server while visitors are writing (tests/support/write-load.ts): the server is
 * killed mid-load, restarted on the same data, and every acknowledged inquiry and order must be
 * there, with its queued e-mails.
 */

const buildDir = inject("faultsBuildDir");
const ROUNDS = Number(process.env.FAULTS_KILL_ROUNDS ?? 2);

async function killUnderLoad(site: Site, round: string) {
  const stop = { now: false };
  const acks = emptyAcks();
  const running = writeLoad(site, `k9-${round}`, stop, acks);
  const started = Date.now();
  // Enough acknowledged writes to matter (bounded in time on a slow machine), then the crash
  // while requests are in flight.
  const enough = () =>
    acks.inquiries.length >= 30 && (acks.orders.length >= 3 || Date.now() - started > 5_000);
  while (Date.now() - started < 20_000 && !enough()) {
    await sleep(50);
  }
  await sleep(Math.floor(Math.random() * 300));
  await site.kill9();
  const killedAfterMs = Date.now() - started;
  stop.now = true;
  await running;
  return { acks, killedAfterMs };
}

const targets: { name: string; port: number; postgres: boolean }[] = [
  { name: "PGlite", port: 4550, postgres: false },
  { name: "PostgreSQL", port: 4551, postgres: true },
];
const postgresUp = await postgresReachable();

describe.each(targets)("kill -9 under write load on $name", ({ name, port, postgres }) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `nw-faults-k9-${name.toLowerCase()}-`));
  let database: ScratchDatabase | undefined;
  let site: Site | undefined;

  afterAll(async () => {
    await site?.kill9();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(postgres && !postgresUp)(
    `every acknowledged inquiry and order survives ${ROUNDS} crash(es)`,
    async () => {
      if (postgres) database = await createScratchDatabase("nw_faults_k9");
      const ref: DatabaseRef = database
        ? { kind: "postgres", url: database.url }
        : { kind: "pglite", dataDir };
      const env = {
        FORM_RATE_LIMIT_PER_MINUTE: "100000",
        TRUST_PROXY: "loopback",
      };
      const all = emptyAcks();
      for (let round = 1; round <= ROUNDS; round++) {
        site = await startSite({ port, buildDir, dataDir, databaseUrl: database?.url, env });
        const { acks, killedAfterMs } = await killUnderLoad(site, `${name.toLowerCase()}-${round}`);
        addAcks(all, acks);
        console.log(
          `[kill -9 ${name} round ${round}] killed after ${killedAfterMs} ms: ${acks.inquiries.length} enquiries and ` +
            `${acks.orders.length} orders acknowledged, ${acks.failedInFlight} requests cut off, refused ${JSON.stringify(acks.refused)}`,
        );
        expect(
          acks.inquiries.length,
          "enough acknowledged enquiries before the kill",
        ).toBeGreaterThan(5);
      }

      // Restarted on the same data after the last crash: it must come up and still answer.
      site = await startSite({ port, buildDir, dataDir, databaseUrl: database?.url, env });
      const home = await fetch(`${site.url}/`);
      expect(home.status).toBe(200);
      // PGlite admits one process: read it once the site has stopped cleanly.
      if (!postgres) {
        expect(await site.stop()).toBe(0);
        site = undefined;
      }
      const found = await checkAcknowledged(ref, all);
      const { lostInquiries, lostOrders } = found;
      console.log(
        `[kill -9 ${name}] acknowledged ${all.inquiries.length} enquiries / ${all.orders.length} orders; ` +
          `lost ${lostInquiries.length} / ${lostOrders.length}`,
      );
      expect(lostInquiries).toEqual([]);
      expect(lostOrders).toEqual([]);
      expect(found.inquiries.length).toBe(all.inquiries.length);
      // Each inquiry committed with its two e-mails (admin alert, visitor confirmation), never without.
      expect(found.inquiries.filter((r) => r.emails !== 2)).toEqual([]);
      // Invoice requests: the admin alert and the buyer's confirmation in the same transaction.
      expect(found.orders.filter((r) => r.emails !== 2)).toEqual([]);
      expect(found.orders.filter((r) => r.total !== r.unit * r.quantity)).toEqual([]);
      // Server-side failures would be 5xx answers rather than cut-off requests.
      expect(Object.keys(all.refused).filter((s) => Number(s) >= 500)).toEqual([]);
    },
  );
});
