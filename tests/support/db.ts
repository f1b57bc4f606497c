import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, inject } from "vitest";
import { connect, useDatabase, wrapPGlite, type DatabaseHandle } from "#server/db/client.server.ts";
import { adminUrl, databaseUrl } from "./postgres.ts";

/**
 * Test databases, made from the run's migrated template (tests/support/global-setup.ts): an
 * in-memory PGlite loaded from the template's dump by default, or a database copied from the
 * template database on the PostgreSQL server of DATABASE_URL.
 *
 * `useFreshDatabase()` gives each test file one such database and empties it before every test
 * (a DELETE from every table: the migrations insert no rows), so no test sees another's rows.
 * A test that changed the schema (renamed a table, added a constraint) is caught by comparing
 * the schema's fingerprint, and the next test gets a new copy of the template instead.
 */

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

let pgliteDump: Blob | undefined;

/** A new database with the migrated schema and no rows, of the kind the project names. */
export async function freshDatabase(): Promise<DatabaseHandle> {
  const base = databaseUrlForTests();
  if (!base) {
    const { openPGlite } = await import("#server/db/pglite.server.ts");
    pgliteDump ??= new Blob([readFileSync(inject("pgliteTemplate"))]);
    return wrapPGlite(await openPGlite(undefined, { loadDataDir: pgliteDump }));
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

type Rows<T> = { rows: T[] };

/**
 * Everything a test could change in the schema of `public`: relations (tables, indexes,
 * sequences, views), columns and their defaults, constraints, triggers, functions and types.
 */
const SCHEMA_FINGERPRINT = sql`
  select md5(coalesce(string_agg(item, E'\n' order by item), '')) as fingerprint from (
    select concat_ws(' ', 'rel', c.relname::text, c.relkind::text) as item
      from pg_class c where c.relnamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'col', c.relname::text, a.attname::text,
        format_type(a.atttypid, a.atttypmod), a.attnotnull::text,
        pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid and c.relnamespace = 'public'::regnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attnum > 0 and not a.attisdropped
    union all
    select concat_ws(' ', 'con', conrelid::regclass::text, conname::text,
        pg_get_constraintdef(oid))
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'trg', tgrelid::regclass::text, tgname::text, tgenabled::text)
      from pg_trigger where not tgisinternal
    union all
    select concat_ws(' ', 'fn', proname::text, md5(prosrc))
      from pg_proc where pronamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'type', typname::text)
      from pg_type where typnamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'enum', t.typname::text, e.enumlabel::text)
      from pg_enum e join pg_type t on t.oid = e.enumtypid
      where t.typnamespace = 'public'::regnamespace
  ) items`;

async function fingerprint(handle: DatabaseHandle): Promise<string> {
  const result = (await handle.db.execute(SCHEMA_FINGERPRINT)) as Rows<{ fingerprint: string }>;
  return result.rows[0]!.fingerprint;
}

interface FileDatabase {
  handle: DatabaseHandle;
  /** The schema as the template has it. */
  fingerprint: string;
  /** A DELETE from each table of the template (the schema has no sequences to restart). */
  empty: ReturnType<typeof sql.raw>[];
}

async function fileDatabase(): Promise<FileDatabase> {
  const handle = await freshDatabase();
  const tables = (await handle.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' order by tablename`,
  )) as Rows<{ tablename: string }>;
  return {
    handle,
    fingerprint: await fingerprint(handle),
    empty: tables.rows.map((row) => sql.raw(`delete from "public"."${row.tablename}"`)),
  };
}

/**
 * Empties the file's database for the next test; false when it cannot be (the last test changed
 * the schema, or left the connection unusable) and a new copy is needed.
 *
 * DELETE rather than TRUNCATE: a test leaves a few rows, and TRUNCATE gives every table and
 * index new files (about 260 ms a test on PostgreSQL, against 5 ms). As the replication role,
 * the session skips foreign-key checks, so the order does not matter, and the triggers that keep
 * issued documents and the audit log from being deleted (a test database connects as a
 * superuser, which setting the role needs).
 */
async function emptied(file: FileDatabase): Promise<boolean> {
  try {
    if ((await fingerprint(file.handle)) !== file.fingerprint) return false;
    await file.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const statement of file.empty) await tx.execute(statement);
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Gives every test in the file an empty, migrated database, made current for the server
 * modules. One database per file, emptied before each test (or replaced, if the previous test
 * changed its schema).
 */
export function useFreshDatabase(): () => DatabaseHandle {
  let file: FileDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  beforeEach(async () => {
    if (file && !(await emptied(file))) {
      const changed = file;
      file = undefined;
      await changed.handle.close().catch(() => {});
    }
    file ??= await fileDatabase();
    handle = file.handle;
    useDatabase(handle);
  });
  afterEach(() => {
    useDatabase(undefined);
    handle = undefined;
  });
  afterAll(async () => {
    await file?.handle.close();
    file = undefined;
  });
  return () => {
    if (!handle) throw new Error("no test database (call inside a test)");
    return handle;
  };
}
