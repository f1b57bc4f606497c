import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { freshDatabase } from "#tests/support/db.ts";
import { adminUrl } from "#tests/support/postgres.ts";

/**
 * The PostgreSQL pool survives its server closing idle connections (a restart, a failover, an
 * administrator): the process must not die of an unheard 'error' event, and the next query gets
 * a new connection. Only meaningful with DATABASE_URL (the embedded database has no connections).
 */
type Rows<T> = { rows: T[] };

describe("test databases", () => {
  it("are of the kind the test project names (PGlite even when DATABASE_URL is set)", async () => {
    const expected =
      process.env.TEST_DATABASE ?? (process.env.DATABASE_URL ? "postgres" : "pglite");
    const handle = await freshDatabase();
    try {
      expect(handle.kind).toBe(expected);
      const found = (await handle.db.execute(sql`select current_database() as name`)) as Rows<{
        name: string;
      }>;
      // PGlite has one database, "postgres"; the PostgreSQL runs copy a template per test.
      if (expected === "postgres") expect(found.rows[0]!.name).toMatch(/^nw_test_/);
      else expect(found.rows[0]!.name).toBe("postgres");
    } finally {
      await handle.close();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("database pool", () => {
  it("keeps working after the server terminates its idle connections", async () => {
    const handle = await freshDatabase();
    try {
      const current = (await handle.db.execute(sql`select current_database() as name`)) as Rows<{
        name: string;
      }>;
      const name = current.rows[0]!.name;
      // Several idle connections in the pool.
      await Promise.all(
        Array.from({ length: 4 }, () => handle.db.execute(sql`select pg_sleep(0.05)`)),
      );
      const { default: pg } = await import("pg");
      const admin = new pg.Client({ connectionString: adminUrl(process.env.DATABASE_URL!) });
      await admin.connect();
      const terminated = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
      await admin.end();
      expect(terminated.rowCount).toBeGreaterThan(0);
      // Let the terminations reach the pool's idle clients.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = (await handle.db.execute(sql`select 1 as one`)) as Rows<{ one: number }>;
      expect(after.rows[0]!.one).toBe(1);
    } finally {
      await handle.close();
    }
  });
});
