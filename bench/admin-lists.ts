import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { sql } from "drizzle-orm";
import { connect, migrate, useDatabase } from "#server/db/client.server.ts";
import {
  countInquiriesByStatus,
  inquiriesCsvResponse,
  inquiriesScreen,
  latestInquiries,
} from "#server/inquiries/admin.server.ts";
import { activeSubscriberEmails, subscriptionsScreen } from "#server/newsletter/admin.server.ts";
import {
  INQUIRY_PAGE_SIZE,
  parseInquiryFilters,
  type InquiryFilters,
} from "#app/lib/inquiries/admin.ts";
import { SUBSCRIPTION_PAGE_SIZE } from "#app/lib/newsletter/admin.ts";
import { createScratchDatabase, postgresReachable, ROOT } from "#tests/support/site-process.ts";

/**
 * The admin Dashboard, Inquiries and Newsletter reads at volume, on PostgreSQL, measured where
 * they run: the server-module calls each page's loader makes (the page's whole database cost).
 * A scratch database gets 100,000 inquiries and 100,000 newsletter subscriptions, then every
 * read runs `--runs` times (after a warm-up) and its p50/p95 are printed and saved.
 *
 *   node --import tsx bench/admin-lists.ts [--runs 100]
 *
 * The HTTP-level figures for the same pages (SSR included) are in bench/scale.ts.
 */

const VOLUME = { inquiries: 100_000, subscriptions: 100_000 };
const TARGET_P95_MS = 150;
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 100;

async function seed(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `insert into inquiries (name, email, phone, company, message, inquiry_type, status, notes, created_at, updated_at)
       select (array['Alice', 'Bob', 'Chidi', 'Dana', 'Erin', 'Farah', 'Gwen', 'Hugo'])[1 + g % 8] || ' ' ||
              (array['Smith', 'Jones', 'Patel', 'Brown', 'Okafor', 'Taylor', 'Evans'])[1 + g % 7] || g,
              'visitor' || g || '@example.com',
              case when g % 2 = 0 then '+44 161 496 ' || lpad((g % 10000)::text, 4, '0') end,
              case when g % 3 <> 0 then 'Organisation ' || (g % 7000) end,
              repeat('We would like to know more about your services. ', 6),
              (array['training', 'file_interrogator', 'security_consultation', 'course', 'general']::inquiry_type[])[1 + g % 5],
              (array['new', 'in_progress', 'replied', 'closed']::inquiry_status[])[1 + g % 4],
              case when g % 5 = 0 then 'Called back.' end,
              now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g`,
      [VOLUME.inquiries],
    );
    await client.query(
      `insert into newsletter_subscriptions (email, is_active, source, subscribed_at)
       select 'reader' || g || '@example.com', g % 9 <> 0, 'footer', now() - (g || ' minutes')::interval
       from generate_series(1, $1::int) g`,
      [VOLUME.subscriptions],
    );
    // What autovacuum does to a table after a bulk insert: statistics and the visibility map.
    await client.query("vacuum analyze inquiries");
    await client.query("vacuum analyze newsletter_subscriptions");
  } finally {
    await client.end();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (n: number) => Math.round(n * 10) / 10;

async function measure(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const row = {
    name,
    p50Ms: round(percentile(times, 50)),
    p95Ms: round(percentile(times, 95)),
    maxMs: round(times.at(-1)!),
  };
  console.log(
    `  ${name.padEnd(58)} p50 ${String(row.p50Ms).padStart(6)} ms   p95 ${String(row.p95Ms).padStart(6)} ms`,
  );
  return row;
}

if (!(await postgresReachable())) {
  console.log("PostgreSQL is not reachable (DATABASE_URL or 127.0.0.1:5432): nothing measured.");
  process.exit(0);
}

const database = await createScratchDatabase("nw_bench_admin");
const handle = await connect({ kind: "postgres", url: database.url });
try {
  await migrate(handle);
  useDatabase(handle);
  const started = Date.now();
  await seed(database.url);
  console.log(
    `Seeded ${VOLUME.inquiries} inquiries and ${VOLUME.subscriptions} subscriptions in ${round((Date.now() - started) / 1000)} s; ${RUNS} runs each.\n`,
  );

  // No filter: every inquiry, first page.
  const all: InquiryFilters = parseInquiryFilters(new URLSearchParams());
  const lastInquiryPage = Math.ceil(VOLUME.inquiries / INQUIRY_PAGE_SIZE);
  const lastSubscriptionPage = Math.ceil(VOLUME.subscriptions / SUBSCRIPTION_PAGE_SIZE);
  // What each page's loader awaits (in parallel, as the loaders do).
  const rows = [
    await measure("dashboard (counts + 10 latest)", () =>
      Promise.all([countInquiriesByStatus(), latestInquiries(10)]),
    ),
    await measure("inquiries page 1 (list + counts)", () => inquiriesScreen(all)),
    await measure(`inquiries last page (${lastInquiryPage})`, () =>
      inquiriesScreen({ ...all, page: lastInquiryPage }),
    ),
    await measure("inquiries status=replied&type=training", () =>
      inquiriesScreen({ ...all, status: "replied", type: "training" }),
    ),
    await measure("inquiries search 'patel'", () => inquiriesScreen({ ...all, q: "patel" })),
    await measure("inquiries search 'visitor99999@' (one hit)", () =>
      inquiriesScreen({ ...all, q: "visitor99999@" }),
    ),
    await measure("newsletter page 1 (list + stats)", () =>
      subscriptionsScreen({ q: "", spam: "all", page: 1 }),
    ),
    await measure(`newsletter last page (${lastSubscriptionPage})`, () =>
      subscriptionsScreen({ q: "", spam: "all", page: lastSubscriptionPage }),
    ),
    await measure("newsletter search 'reader4242'", () =>
      subscriptionsScreen({ q: "reader4242", spam: "all", page: 1 }),
    ),
  ];
  const exportsRows = [
    await measureOnce("export active e-mails (all ~88,900)", () => activeSubscriberEmails()),
    await measureOnce("inquiries CSV, all 100,000 rows (streamed)", async () => {
      await inquiriesCsvResponse(
        { type: "all", status: "all", reply: "all", owner: "all", q: "", spam: "all" },
        "x.csv",
      ).arrayBuffer();
    }),
  ];
  const missed = rows.filter((r) => r.p95Ms >= TARGET_P95_MS);
  console.log(
    `\nTarget p95 < ${TARGET_P95_MS} ms per page: ${missed.length ? `MISSED on ${missed.map((r) => r.name).join(", ")}` : "met on every page"}`,
  );
  const { rows: size } = (await handle.db.execute(
    sql`select pg_size_pretty(pg_total_relation_size('inquiries')) as inquiries`,
  )) as unknown as {
    rows: { inquiries: string }[];
  };
  const out = path.join(
    ROOT,
    "bench/results",
    `admin-lists-${new Date().toISOString().replace(/[:.]/g, "-")}.json`,
  );
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      {
        volume: VOLUME,
        runs: RUNS,
        targetP95Ms: TARGET_P95_MS,
        pages: rows,
        exports: exportsRows,
        inquiriesTableSize: size[0]?.inquiries,
      },
      null,
      2,
    ),
  );
  console.log(`→ ${path.relative(ROOT, out)}`);
} finally {
  useDatabase(undefined);
  await handle.close();
  await database.drop();
}

async function measureOnce(name: string, run: () => Promise<unknown>) {
  const started = process.hrtime.bigint();
  await run();
  const ms = round(Number(process.hrtime.bigint() - started) / 1e6);
  console.log(`  ${name.padEnd(58)} ${ms} ms (once)`);
  return { name, ms };
}
