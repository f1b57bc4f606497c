import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, inject } from "vitest";
import {
  connect,
  migrate,
  useDatabase,
  wrapPGlite,
  type DatabaseHandle,
} from "#server/db/client.server.ts";
import { adminUrl, databaseUrl } from "./postgres.ts";

/**
 * A fresh, migrated database for one test: a clone of a migrated in-memory PGlite by default,
 * or a new database copied from the run's template on the PostgreSQL server of DATABASE_URL.
 */

let pgliteTemplate: Promise<PGlite> | undefined;

async function migratedPGlite(): Promise<PGlite> {
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create();
  const handle = await wrapPGlite(client);
  await migrate(handle);
  return client;
}

/**
 * Which database this run's server tests use. vitest.config.ts names it per project
 * (TEST_DATABASE) and blanks DATABASE_URL for the PGlite one: refuse a mismatch rather than
 * quietly test the other database.
 */
function databaseUrlForTests(): string | undefined {
  const base = process.env.DATABASE_URL || undefined;
  const wanted = process.env.TEST_DATABASE;
  if (wanted === "pglite" && base)
    throw new Error("TEST_DATABASE=pglite but DATABASE_URL is set: this project must use PGlite");
  if (wanted === "postgres" && !base)
    throw new Error("TEST_DATABASE=postgres needs DATABASE_URL (a PostgreSQL server)");
  return base;
}

export async function freshDatabase(): Promise<DatabaseHandle> {
  const base = databaseUrlForTests();
  if (!base) {
    pgliteTemplate ??= migratedPGlite();
    const clone = (await (await pgliteTemplate).clone()) as PGlite;
    return wrapPGlite(clone);
  }
  const { default: pg } = await import("pg");
  const name = `nw_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl(base) });
  await admin.connect();
  await admin.query(`create database "${name}" template "${inject("postgresTemplate")}"`);
  await admin.end();
  const handle = await connect({ kind: "postgres", url: databaseUrl(base, name) });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const admin = new pg.Client({ connectionString: adminUrl(base) });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Gives every test in the file its own database, made current for the server modules. */
export function useFreshDatabase(): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  beforeEach(async () => {
    handle = await freshDatabase();
    useDatabase(handle);
  });
  afterEach(async () => {
    useDatabase(undefined);
    await handle?.close();
    handle = undefined;
  });
  return () => {
    if (!handle) throw new Error("no test database (call inside a test)");
    return handle;
  };
}
