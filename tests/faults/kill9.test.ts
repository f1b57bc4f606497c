import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { BILLING_FORM } from "#tests/support/checkout.ts";
import { post, withSiteDatabase, type DatabaseRef } from "#tests/support/site-client.ts";
import {
  createScratchDatabase,
  postgresReachable,
  sleep,
  startSite,
  type ScratchDatabase,
  type Site,
} from "#tests/support/site-process.ts";

/**
 * kill -9 of the server while visitors are writing: loops post enquiries and invoice orders,
 * each with a unique e-mail address, and note every one the server acknowledged (enquiry: 200
 * success page; order: 303 to the success page). The server is killed mid-load, restarted on the
 * same data, and every acknowledged inquiry and order must be there, with its queued e-mails.
 */

const buildDir = inject("faultsBuildDir");
const COURSE = "introduction-to-counter-fraud";
const ENQUIRY_LOOPS = 6;
const ROUNDS = Number(process.env.FAULTS_KILL_ROUNDS ?? 2);

interface Acks {
  inquiries: string[];
  orders: string[];
  failedInFlight: number;
  refused: Record<string, number>;
}

/** Posts until `stop` is set, noting in `acks` what the server acknowledged. */
async function writeLoad(site: Site, round: string, stop: { now: boolean }, acks: Acks) {
  let n = 0;
  const refuse = (status: number) => (acks.refused[status] = (acks.refused[status] ?? 0) + 1);
  const enquiryLoop = async () => {
    while (!stop.now) {
      const email = `k9-${round}-e${n++}@example.com`;
      try {
        const answer = await post(`${site.url}/contact`, {
          form: "enquiry",
          contact_website: "",
          name: "Kill Test",
          email,
          message: `Acknowledged enquiry ${email}`,
        });
        if (answer.status === 200) acks.inquiries.push(email);
        else refuse(answer.status);
      } catch {
        acks.failedInFlight++;
        if (stop.now) return;
        await sleep(20);
      }
    }
  };
  const orderLoop = async () => {
    while (!stop.now) {
      const email = `k9-${round}-o${n++}@example.com`;
      try {
        const answer = await post(
          `${site.url}/courses/${COURSE}/checkout`,
          {
            intent: "invoice",
            firstName: "Kill",
            lastName: "Test",
            email,
            ...BILLING_FORM,
            studentMode: "self",
            quantity: "1",
          },
          // Each order from its own address: the checkout allows 20 a minute per client.
          { headers: { "x-forwarded-for": `10.9.${(n >> 8) & 255}.${n & 255}` } },
        );
        if (answer.status === 303 && answer.location?.includes("/success")) acks.orders.push(email);
        else refuse(answer.status);
      } catch {
        acks.failedInFlight++;
        if (stop.now) return;
        await sleep(20);
      }
    }
  };
  await Promise.all([...Array.from({ length: ENQUIRY_LOOPS }, enquiryLoop), orderLoop()]);
}

async function killUnderLoad(site: Site, round: string) {
  const stop = { now: false };
  const acks: Acks = { inquiries: [], orders: [], failedInFlight: 0, refused: {} };
  const running = writeLoad(site, round, stop, acks);
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

async function checkAcknowledged(ref: DatabaseRef, acks: Acks) {
  return withSiteDatabase(ref, async (query) => {
    const inquiries = await query<{ email: string; id: string; emails: number }>(
      `select i.email, i.id, (select count(*)::int from email_outbox o where o.inquiry_id = i.id) as emails
       from inquiries i where i.email = any($1::text[])`,
      [acks.inquiries],
    );
    const orders = await query<{
      email: string;
      total: number;
      unit: number;
      quantity: number;
      emails: number;
    }>(
      `select o.buyer_email as email, o.total_amount_cents as total, o.unit_price_cents as unit, o.quantity,
              (select count(*)::int from email_outbox e where e.order_id = o.id) as emails
       from orders o where o.buyer_email = any($1::text[])`,
      [acks.orders],
    );
    return { inquiries, orders };
  });
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
      const all: Acks = { inquiries: [], orders: [], failedInFlight: 0, refused: {} };
      for (let round = 1; round <= ROUNDS; round++) {
        site = await startSite({ port, buildDir, dataDir, databaseUrl: database?.url, env });
        const { acks, killedAfterMs } = await killUnderLoad(site, `${name.toLowerCase()}-${round}`);
        all.inquiries.push(...acks.inquiries);
        all.orders.push(...acks.orders);
        all.failedInFlight += acks.failedInFlight;
        for (const [status, count] of Object.entries(acks.refused)) {
          all.refused[status] = (all.refused[status] ?? 0) + count;
        }
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
      const foundInquiries = new Set(found.inquiries.map((r) => r.email));
      const foundOrders = new Set(found.orders.map((r) => r.email));
      const lostInquiries = all.inquiries.filter((e) => !foundInquiries.has(e));
      const lostOrders = all.orders.filter((e) => !foundOrders.has(e));
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
