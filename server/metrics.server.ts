import { timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { sql } from "drizzle-orm";
import client from "prom-client";
import { config } from "./config.server.ts";
import { db } from "./db/client.server.ts";
import { diskFreeBytes } from "./disk-space.server.ts";
import { log } from "./log.server.ts";

/**
 * What an operator can watch (Prometheus text format, `prom-client`): requests by route pattern
 * and status with their durations, page cache hits and misses, the e-mail backlog and the age of
 * its oldest message, failed e-mails, the jobs' last success, and Node's own (event-loop delay,
 * memory, handles). Served at `/metrics` only when METRICS_TOKEN is set, to a bearer of it.
 */

const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const requests = new client.Counter({
  name: "nightwatch_http_requests_total",
  help: "HTTP requests answered, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});

const durations = new client.Histogram({
  name: "nightwatch_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by method, route pattern and status.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const pageCache = new client.Counter({
  name: "nightwatch_page_cache_total",
  help: "Public page requests by what the page cache did: hit, miss or bypass.",
  labelNames: ["state"] as const,
  registers: [registry],
});

const jobSuccess = new client.Gauge({
  name: "nightwatch_job_last_success_timestamp_seconds",
  help: "When each background job last finished without error (Unix time).",
  labelNames: ["job"] as const,
  registers: [registry],
});

new client.Gauge({
  name: "nightwatch_data_dir_free_bytes",
  help: "Free space where DATA_DIR lives (below MIN_FREE_DISK_MB, saving is refused).",
  registers: [registry],
  collect() {
    const free = diskFreeBytes();
    if (free !== null) this.set(free);
  },
});

// Read from the database at scrape time: what every instance shares.
new client.Gauge({
  name: "nightwatch_email_outbox_messages",
  help: "E-mails in the outbox by status (pending, sending, sent, failed).",
  labelNames: ["status"] as const,
  registers: [registry],
  async collect() {
    const rows = await outboxCounts();
    this.reset();
    for (const row of rows) this.set({ status: row.status }, row.n);
  },
});

new client.Gauge({
  name: "nightwatch_email_outbox_oldest_pending_age_seconds",
  help: "Age of the oldest e-mail waiting to be sent (0 when none waits).",
  registers: [registry],
  async collect() {
    this.set(await oldestPendingAgeSeconds());
  },
});

async function outboxCounts(): Promise<{ status: string; n: number }[]> {
  try {
    const result = await db().execute(
      sql`select status, count(*)::int as n from email_outbox group by status`,
    );
    return (result as unknown as { rows: { status: string; n: number }[] }).rows.map((r) => ({
      status: r.status,
      n: Number(r.n),
    }));
  } catch (error) {
    log.warn({ err: error }, "metrics: could not count the outbox");
    return [];
  }
}

async function oldestPendingAgeSeconds(): Promise<number> {
  try {
    const result = await db().execute(
      sql`select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age
          from email_outbox where status in ('pending', 'sending')`,
    );
    return Number((result as unknown as { rows: { age: number }[] }).rows[0]?.age ?? 0);
  } catch (error) {
    log.warn({ err: error }, "metrics: could not read the outbox's oldest message");
    return 0;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A request's route pattern, so that labels stay few: the slug, id or file in a path becomes a
 * placeholder, and anything not found is one label.
 */
export function routeLabel(path: string, status: number): string {
  if (status === 404) return "(not found)";
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "assets" || parts[0] === "media") return `/${parts[0]}/:file`;
  if (parts[0] === "courses" && parts.length >= 2) {
    return ["", "courses", ":slug", ...parts.slice(2, 3)].join("/");
  }
  const named = parts.map((part) => (UUID.test(part) ? ":id" : part));
  return `/${named.slice(0, 4).join("/")}`;
}

/** Counts one answered request (from the request log, when its response has been sent). */
export function observeRequest(entry: {
  method: string;
  path: string;
  status: number;
  ms: number;
  cache?: string;
}): void {
  const labels = {
    method: entry.method,
    route: routeLabel(entry.path, entry.status),
    status: String(entry.status),
  };
  requests.inc(labels);
  durations.observe(labels, entry.ms / 1000);
  if (entry.cache) pageCache.inc({ state: entry.cache });
}

/** A background job finished without error just now. */
export function jobSucceeded(job: "retention" | "outbox"): void {
  jobSuccess.set({ job }, Date.now() / 1000);
}

/** A database pool's use, read at scrape time (set once the database is open). */
export function watchDatabasePool(read: () => { total: number; idle: number; waiting: number }) {
  registry.removeSingleMetric("nightwatch_db_pool_connections");
  new client.Gauge({
    name: "nightwatch_db_pool_connections",
    help: "Database pool connections: total, idle and requests waiting for one.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = read();
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
      this.set({ state: "waiting" }, pool.waiting);
    },
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics: the registry in Prometheus' text format, to a bearer of METRICS_TOKEN. Without
 * the setting there is no such page (404); a wrong or missing token is 401.
 */
export function metricsEndpoint(): RequestHandler {
  return async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const token = config.metricsToken;
    if (!token) {
      res.status(404).end();
      return;
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      res.setHeader("WWW-Authenticate", "Bearer");
      res.status(401).end();
      return;
    }
    res.setHeader("Content-Type", registry.contentType);
    res.end(await registry.metrics());
  };
}
