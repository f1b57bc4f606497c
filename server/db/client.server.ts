import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { config } from "../config.server.ts";
import { log } from "../log.server.ts";
import { ensurePrivateDir, PRIVATE_DIR_MODE, tightenTree } from "../private-files.server.ts";
import * as schema from "./schema.ts";
import { lockDataDirectory } from "./lock.server.ts";
import { vacuumDueTables } from "./maintenance.server.ts";

/**
 * The one way the app reaches the database: `db()`. It is a PGlite (embedded PostgreSQL)
 * under DATA_DIR by default, or a PostgreSQL server when DATABASE_URL is set. Both speak the
 * same dialect, use the same schema and the same migrations.
 */

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** Resolves when the database answers within READY_TIMEOUT_MS, on a connection of its own. */
  ready(): Promise<void>;
  /**
   * PGlite only: its data directory as a tarball, taken while no statement runs (what a backup
   * holds: server/db/backup.server.ts).
   */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * PGlite only: vacuums and analyses the tables due, which nothing else does for it
   * (maintenance.server.ts). PostgreSQL's autovacuum needs no help.
   */
  maintain?: () => Promise<{ vacuumed: number; analysed: number; ms: number }>;
  /** A PostgreSQL pool's connections (for /metrics); PGlite has none. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** How long a readiness check waits for the database. */
export const READY_TIMEOUT_MS = 2_000;

function withTimeout(check: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

export const migrationsFolder = path.resolve(process.cwd(), "drizzle");

export type DatabaseTarget =
  { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string } | { kind: "memory" };

export async function connect(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === "postgres") {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { poolSize, statementTimeoutMs } = config.database;
    const pool = new pg.Pool({
      connectionString: target.url,
      max: poolSize,
      // The server cancels a statement that runs longer (0: never).
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      connectionTimeoutMillis: 10_000,
    });
    // A connection the server closes (restart, failover, an administrator) is an 'error' on the
    // pool while idle, and on its client while in use (a transaction open): unheard, either
    // would end the process. The query in flight fails (its request answers an error); the pool
    // replaces the connection on the next query.
    pool.on("error", (error) => log.warn({ err: error }, "an idle database connection was closed"));
    pool.on("connect", (client) => {
      client.on("error", (error) =>
        log.warn({ err: error }, "a database connection in use was closed"),
      );
    });
    // Readiness has a connection of its own, so slow pages holding the pool cannot starve it.
    const probe = new pg.Pool({
      connectionString: target.url,
      max: 1,
      statement_timeout: READY_TIMEOUT_MS,
      connectionTimeoutMillis: READY_TIMEOUT_MS,
    });
    probe.on("error", (error) => log.warn({ err: error }, "the readiness connection was closed"));
    probe.on("connect", (client) => client.on("error", () => {}));
    const db = drizzle({ client: pool, schema }) as unknown as Database;
    return {
      db,
      kind: "postgres",
      ready: () => withTimeout(probe.query("select 1").then(() => undefined)),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
      close: async () => {
        await Promise.all([pool.end(), probe.end()]);
      },
    };
  }
  const { openPGlite } = await import("./pglite.server.ts");
  let release = () => {};
  let client;
  if (target.kind === "pglite") {
    // DATA_DIR holds personal data and secrets: the server's user only (decision 0021). An
    // existing one is tightened (and counted) by the walk below.
    mkdirSync(target.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    release = lockDataDirectory(target.dataDir);
    try {
      const before = tightenTree(target.dataDir);
      if (before.tightened > 0 || before.failed > 0) {
        log.warn(
          { dataDir: target.dataDir, ...before },
          `tightened ${before.tightened} entries in the data directory to the server's user only`,
        );
      }
      const dir = path.join(target.dataDir, "db");
      ensurePrivateDir(dir);
      client = await openPGlite(dir);
    } catch (error) {
      release();
      throw error;
    }
  } else {
    client = await openPGlite();
  }
  const handle = await wrapPGlite(client, release);
  if (target.kind !== "pglite") return handle;
  const dataDir = target.dataDir;
  return {
    ...handle,
    // PGlite writes its files 0666 as it goes; on close they are tightened once more.
    close: async () => {
      try {
        await client.close();
      } finally {
        tightenPGliteFiles(dataDir);
        release();
      }
    },
  };
}

/** After PGlite created or wrote files (0666 whatever the umask): the server's user only. */
function tightenPGliteFiles(dataDir: string): void {
  const after = tightenTree(dataDir);
  log.debug({ dataDir, ...after }, "data directory modes tightened");
}

/** A Drizzle handle over an open PGlite instance (tests wrap their clones with it too). */
export async function wrapPGlite(client: PGlite, release = () => {}): Promise<DatabaseHandle> {
  const { drizzle } = await import("drizzle-orm/pglite");
  const db = drizzle({ client, schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    // One connection in one process: readiness is an answer to a trivial query, in time.
    ready: () => withTimeout(client.query("select 1").then(() => undefined)),
    dumpDataDir: () => client.dumpDataDir("gzip"),
    maintain: () => vacuumDueTables((text) => client.query(text)),
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
  };
}

// Any fixed number: instances starting together take turns to migrate.
const MIGRATION_LOCK_KEY = 7_482_391;

export async function migrate(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "postgres") {
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = (handle.db as unknown as { $client: import("pg").Pool }).$client;
    const lockHolder = await pool.connect();
    try {
      await lockHolder.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await migrate(handle.db as never, { migrationsFolder });
    } finally {
      await lockHolder.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      lockHolder.release();
    }
  } else {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder });
  }
}

let current: DatabaseHandle | undefined;

/** Whether the open database answers in time (READY_TIMEOUT_MS), for `/readyz`. */
export function databaseReady(): Promise<void> {
  if (!current) return Promise.reject(new Error("The database is not open."));
  return current.ready();
}

/** The open database. Server modules call this; it throws if start-up has not opened one. */
export function db(): Database {
  if (!current) throw new Error("The database is not open (openDatabase() was not called).");
  return current.db;
}

/** The open database's upkeep where it has none of its own (PGlite); null on PostgreSQL. */
export async function maintainDatabase(): Promise<{
  vacuumed: number;
  analysed: number;
  ms: number;
} | null> {
  return (await current?.maintain?.()) ?? null;
}

/** Opens (and locks, for PGlite) the database, applies pending migrations and makes it current. */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const handle = await connect(target);
  try {
    await migrate(handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
  if (target.kind === "pglite") tightenPGliteFiles(target.dataDir);
  current = handle;
  return handle;
}

/** Makes an already-open handle current (tests use one database per test). */
export function useDatabase(handle: DatabaseHandle | undefined): void {
  current = handle;
}

export async function closeDatabase(): Promise<void> {
  const handle = current;
  current = undefined;
  await handle?.close();
}
