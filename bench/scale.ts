import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  createAdmin,
  createScratchDatabase,
  postgresReachable,
  ROOT,
  signIn,
  startSite,
} from "#tests/support/site-process.ts";
import { PORTS, percentile, round, table } from "./lib.ts";
import { seedVolume, seedVolumeEmbedded } from "./scale-seed.ts";

/**
 * The catalogue and the admin lists at volume, on PostgreSQL and on the embedded database
 * (PGlite): a fresh database with the demo content and the volume of scale-seed.ts (120,000
 * orders, 200,000 inquiries, 400,000 stored e-mails and more), then each page and search
 * requested one at a time, signed in for the admin ones, and its latency percentiles reported
 * side by side. The target is PostgreSQL's; PGlite's figures are reported beside it.
 */

export const ADMIN_P95_TARGET_MS = 150;
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-1234" };

/**
 * The database's share: SQL equivalent to what the pages read (written here, not taken from the
 * app), each run 30 times on the same database. Tells rendering cost apart from query cost.
 */
const SQL_PROBES = [
  {
    name: "published courses with category and partner (catalogue, menu)",
    sql: `select c.id, c.slug, c.title, c.short_description, c.thumbnail_url, c.price, c.duration_hours,
                 cat.name, p.name from courses c left join categories cat on cat.id = c.category_id
          left join course_partners p on p.id = c.partner_id where c.status = 'published'
          order by c.created_at desc, c.id`,
  },
  { name: "inquiries: count all", sql: "select count(*) from inquiries" },
  {
    name: "inquiries: first page",
    sql: "select * from inquiries order by created_at desc, id desc limit 25",
  },
  {
    name: "inquiries: last page (offset)",
    sql: "select * from inquiries order by created_at desc, id desc limit 25 offset 99975",
  },
  {
    name: "inquiries: search count (ilike, 3 columns)",
    sql: "select count(*) from inquiries where name ilike '%patel%' or email ilike '%patel%' or company ilike '%patel%'",
  },
  {
    name: "inquiries: count by status",
    sql: "select status, count(*) from inquiries group by status",
  },
  { name: "orders: count all", sql: "select count(*) from orders" },
  {
    name: "orders: first page",
    sql: "select * from orders order by created_at desc, id desc limit 25",
  },
  {
    name: "orders: search (ilike)",
    sql: "select count(*) from orders where buyer_last_name ilike '%okafor%' or buyer_email ilike '%okafor%'",
  },
];

async function probeSql(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = [];
    for (const probe of SQL_PROBES) {
      await client.query(probe.sql);
      const times: number[] = [];
      for (let i = 0; i < 30; i++) {
        const started = process.hrtime.bigint();
        await client.query(probe.sql);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      times.sort((a, b) => a - b);
      rows.push({
        query: probe.name,
        p50Ms: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
      });
    }
    return rows;
  } finally {
    await client.end();
  }
}

interface Timed {
  status: number;
  ms: number;
  bytes: number;
  location?: string;
}

function timedGet(agent: Agent, url: string, cookie?: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      url,
      { agent, headers: { accept: "text/html", ...(cookie ? { cookie } : {}) } },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            bytes,
            location: res.headers.location,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

type Volume = Awaited<ReturnType<typeof seedVolume>>;

/** The pages measured: the public ones at volume, and every admin list and search. */
function targetsFor(volume: Volume) {
  const lastInquiryPage = Math.ceil(volume.inquiries / 25);
  return [
    { name: "catalogue", path: "/services/counter-fraud-training", admin: false },
    { name: "home (menu of every course)", path: "/", admin: false },
    { name: "course page", path: "/courses/bench-course-500", admin: false },
    // With any cookie a page is rendered for its visitor: past the page cache.
    {
      name: "course page, 50 dates and 20,000 bookings, uncached",
      path: "/courses/bench-course-501",
      admin: false,
      cookie: "nw_bench=1",
    },
    ...(volume.firstDateId
      ? [
          {
            name: "checkout of a date, uncached",
            path: `/courses/bench-course-501/checkout?date=${volume.firstDateId}`,
            admin: false,
            cookie: "nw_bench=1",
          },
        ]
      : []),
    { name: "admin dates (2,000 dates)", path: "/admin/dates", admin: true },
    { name: "admin inquiries", path: "/admin/inquiries", admin: true },
    {
      name: "admin inquiries, last page",
      path: `/admin/inquiries?page=${lastInquiryPage}`,
      admin: true,
    },
    { name: "admin inquiries, search", path: "/admin/inquiries?q=patel", admin: true },
    {
      name: "admin inquiries, status filter",
      path: "/admin/inquiries?status=replied&type=training",
      admin: true,
    },
    { name: "admin payments", path: "/admin/payments", admin: true },
    {
      name: "admin payments, last page",
      path: `/admin/payments?page=${Math.ceil(volume.orders / 25)}`,
      admin: true,
    },
    { name: "admin payments, search", path: "/admin/payments?q=okafor", admin: true },
    {
      name: "admin payments, search by PO",
      path: "/admin/payments?q=PO-0012345",
      admin: true,
    },
    {
      name: "admin payments, search by student",
      path: "/admin/payments?q=student12345-1",
      admin: true,
    },
    { name: "admin dashboard", path: "/admin/dashboard", admin: true },
    { name: "admin newsletter", path: "/admin/newsletter-subscriptions", admin: true },
    {
      name: "admin newsletter, search",
      path: "/admin/newsletter-subscriptions?q=reader4242",
      admin: true,
    },
    {
      name: "admin privacy search",
      path: "/admin/privacy?email=visitor123456%40example.com",
      admin: true,
    },
    { name: "admin audit log", path: "/admin/audit", admin: true },
  ];
}

type Target = ReturnType<typeof targetsFor>[number];
type PageResult = Target & {
  status?: number;
  skipped?: string;
  requests?: number;
  statuses?: Record<string, number>;
  htmlKb?: number;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  maxMs?: number;
};
type Measured = PageResult & {
  htmlKb: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
};

/** Each page requested one at a time on a running site: ten to warm up, then `requests`. */
async function measurePages(
  siteUrl: string,
  volume: Volume,
  requests: number,
  label: string,
): Promise<PageResult[]> {
  const cookie = await signIn(siteUrl, ADMIN.email, ADMIN.password);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const results: PageResult[] = [];
  try {
    for (const target of targetsFor(volume)) {
      const url = `${siteUrl}${target.path}`;
      const cookieFor = target.admin ? cookie : "cookie" in target ? target.cookie : undefined;
      const first = await timedGet(agent, url, cookieFor);
      if (first.status !== 200) {
        const why =
          first.status === 404
            ? "not built yet (404)"
            : first.status >= 300 && first.status < 400
              ? `redirected to ${first.location}`
              : `answered ${first.status}`;
        console.log(`  [${label}] ${target.path}: ${why} — not measured`);
        results.push({ ...target, status: first.status, skipped: why });
        continue;
      }
      for (let i = 0; i < 10; i++) await timedGet(agent, url, cookieFor); // warm-up
      const times: number[] = [];
      let bytes = 0;
      const statuses = new Map<number, number>();
      for (let i = 0; i < requests; i++) {
        const t = await timedGet(agent, url, cookieFor);
        times.push(t.ms);
        bytes = t.bytes;
        statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
      }
      times.sort((a, b) => a - b);
      const row = {
        ...target,
        requests,
        statuses: Object.fromEntries(statuses),
        htmlKb: round(bytes / 1024),
        p50Ms: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
        p99Ms: round(percentile(times, 99)),
        maxMs: round(times.at(-1)!),
      };
      results.push(row);
      console.log(
        `  [${label}] ${target.path}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms (${row.htmlKb} KB)`,
      );
    }
  } finally {
    agent.destroy();
  }
  return results;
}

const measuredOnly = (results: PageResult[]) =>
  results.filter((r): r is Measured => r.p95Ms !== undefined);

/** Migrations and the demo content (categories, partners, the demo courses) on a database. */
function seedDemo(dataDir: string, databaseUrl?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
  delete env.NODE_ENV;
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "scripts/db-seed.ts"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`db-seed failed:\n${seeded.stdout}\n${seeded.stderr}`);
  createAdmin({ ...ADMIN, dataDir, databaseUrl });
}

/** The pages at volume on a fresh PostgreSQL database, and the database's share. */
async function onPostgres(options: { buildDir: string; requests: number }) {
  const database = await createScratchDatabase("nw_bench_scale");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-bench-scale-"));
  try {
    seedDemo(dataDir, database.url);
    process.stdout.write("  [postgres] seeding volume … ");
    const volume = await seedVolume(database.url);
    console.log(
      `${volume.publishedCourses} published courses, ${volume.orders} orders, ${volume.inquiries} inquiries in ${volume.seedSeconds} s`,
    );
    const site = await startSite({
      port: PORTS.scale,
      buildDir: options.buildDir,
      dataDir,
      databaseUrl: database.url,
      env: { SEED_DEMO_CONTENT: "false", LOG_LEVEL: "info" },
      stdout: "ignore",
    });
    let pages: PageResult[];
    try {
      pages = await measurePages(site.url, volume, options.requests, "postgres");
    } finally {
      await site.stop();
    }
    const sql = await probeSql(database.url);
    return { volume, pages, sql };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

/** The same pages at the same volume on the embedded database (PGlite) of a data directory. */
async function onEmbedded(options: { buildDir: string; requests: number }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-bench-scale-embedded-"));
  try {
    seedDemo(dataDir);
    process.stdout.write("  [pglite] seeding volume … ");
    const volume = await seedVolumeEmbedded(dataDir);
    console.log(
      `${volume.publishedCourses} published courses, ${volume.orders} orders, ${volume.inquiries} inquiries in ${volume.seedSeconds} s`,
    );
    const site = await startSite({
      port: PORTS.scale,
      buildDir: options.buildDir,
      dataDir,
      env: { DATABASE_URL: undefined, SEED_DEMO_CONTENT: "false", LOG_LEVEL: "info" },
      stdout: "ignore",
    });
    try {
      return { volume, pages: await measurePages(site.url, volume, options.requests, "pglite") };
    } finally {
      await site.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runScaleBench(options: { buildDir: string; requests: number }) {
  const postgres = (await postgresReachable()) ? await onPostgres(options) : null;
  if (!postgres) {
    console.log(
      "  PostgreSQL is not reachable (DATABASE_URL or 127.0.0.1:5432): measured on PGlite only.",
    );
  }
  const embedded = await onEmbedded(options);

  const pgRows = postgres ? measuredOnly(postgres.pages) : [];
  const liteRows = measuredOnly(embedded.pages);
  // Matched by name: a date's checkout has each database's own date id in its path.
  const names = [...new Set([...pgRows, ...liteRows].map((r) => r.name))];
  const cell = (rows: Measured[], name: string, key: "p50Ms" | "p95Ms") =>
    rows.find((r) => r.name === name)?.[key] ?? "—";
  console.log(
    `\nAt volume (${options.requests} sequential requests each, signed in for /admin), PostgreSQL and the embedded PGlite side by side\n`,
  );
  console.log(
    table(
      ["page", "KB", "PG p50", "PG p95", "PGlite p50", "PGlite p95"],
      names.map((p) => [
        [...pgRows, ...liteRows].find((r) => r.name === p)!.path,
        [...pgRows, ...liteRows].find((r) => r.name === p)!.htmlKb,
        cell(pgRows, p, "p50Ms"),
        cell(pgRows, p, "p95Ms"),
        cell(liteRows, p, "p50Ms"),
        cell(liteRows, p, "p95Ms"),
      ]),
    ),
  );
  if (postgres) {
    console.log("\nThe database's share on PostgreSQL (equivalent SQL, 30 runs each)\n");
    console.log(
      table(
        ["query", "p50 ms", "p95 ms"],
        postgres.sql.map((r) => [r.query, r.p50Ms, r.p95Ms]),
      ),
    );
  }
  const missesOn = (rows: Measured[]) =>
    rows.filter((r) => r.admin && r.p95Ms >= ADMIN_P95_TARGET_MS);
  const adminMisses = missesOn(pgRows);
  const notRun = [...(postgres?.pages ?? []), ...embedded.pages]
    .filter((r) => r.skipped)
    .map((r) => ({ path: r.path, reason: r.skipped! }));
  console.log(
    `Target admin lists p95 < ${ADMIN_P95_TARGET_MS} ms on PostgreSQL: ${
      !postgres
        ? "not measured (no PostgreSQL)"
        : adminMisses.length
          ? `MISSED on ${adminMisses.map((r) => r.path).join(", ")}`
          : "met on every measured list"
    }; on PGlite ${
      missesOn(liteRows).length
        ? `over on ${missesOn(liteRows)
            .map((r) => r.path)
            .join(", ")}`
        : "under on every list too"
    }` +
      (notRun.length
        ? `; not measured: ${notRun.map((r) => `${r.path} (${r.reason})`).join(", ")}`
        : ""),
  );
  return {
    postgres: postgres && { volume: postgres.volume, pages: postgres.pages, sql: postgres.sql },
    pglite: { volume: embedded.volume, pages: embedded.pages },
    requestsPerPage: options.requests,
    targets: {
      adminP95BelowMs: ADMIN_P95_TARGET_MS,
      met: postgres !== null && adminMisses.length === 0,
      missed: adminMisses.map((r) => ({ path: r.path, p95Ms: r.p95Ms })),
      overOnPglite: missesOn(liteRows).map((r) => ({ path: r.path, p95Ms: r.p95Ms })),
      notMeasured: notRun,
    },
  };
}
