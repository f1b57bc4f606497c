import type { TestProject } from "vitest/node";
import { connect, migrate } from "#server/db/client.server.ts";
import { adminUrl, databaseUrl } from "./postgres.ts";

/**
 * With DATABASE_URL set, server-module tests run on that PostgreSQL server: one migrated
 * template database per run, copied into a fresh database for every test.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  if (!base) return;
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
    postgresTemplate: string;
  }
}
