import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { connect, migrate, wrapPGlite } from "#server/db/client.server.ts";
import { adminUrl, databaseUrl } from "./postgres.ts";

/**
 * The migrated template of a run's server-module tests, made once (tests/support/db.ts copies
 * it for every test file): for the PGlite project, the data directory of a migrated in-memory
 * PGlite, dumped to a file each test file loads; for the PostgreSQL project (DATABASE_URL set),
 * a template database on that server.
 */
export default async function setup(project: TestProject) {
  if (project.config.env?.TEST_DATABASE === "pglite") return pgliteTemplate(project);
  return postgresTemplate(project);
}

async function pgliteTemplate(project: TestProject) {
  const { openPGlite } = await import("#server/db/pglite.server.ts");
  const client = await openPGlite();
  const handle = await wrapPGlite(client);
  let dump: Blob;
  try {
    await migrate(handle);
    dump = await client.dumpDataDir("none");
  } finally {
    await handle.close();
  }
  const file = path.join(tmpdir(), `nw-pglite-template-${process.pid}-${Date.now()}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => rmSync(file, { force: true });
}

async function postgresTemplate(project: TestProject) {
  const base = project.config.env?.DATABASE_URL || process.env.DATABASE_URL;
  if (!base) throw new Error("The PostgreSQL test project needs DATABASE_URL");
  const template = `nw_template_${process.pid}_${Date.now()}`;
  const admin = await adminClient(base);
  await admin.query(`create database "${template}"`);
  const handle = await connect({ kind: "postgres", url: databaseUrl(base, template) });
  try {
    await migrate(handle);
  } finally {
    await handle.close();
  }
  await admin.end();
  project.provide("postgresTemplate", template);

  return async () => {
    const admin = await adminClient(base);
    await admin.query(`drop database if exists "${template}" with (force)`);
    await admin.end();
  };
}

async function adminClient(base: string) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl(base) });
  await client.connect();
  return client;
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}
