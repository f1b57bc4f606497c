import { config } from "../config.server.ts";
import type { DatabaseTarget } from "./client.server.ts";

/** Where the configured database lives: the PostgreSQL server when DATABASE_URL is set, else PGlite. */
export function configuredTarget(): DatabaseTarget {
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : { kind: "pglite", dataDir: config.dataDir };
}

export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === "postgres") {
    const url = new URL(target.url);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  }
  return target.kind === "pglite"
    ? `embedded PostgreSQL in ${target.dataDir}`
    : "in-memory PostgreSQL";
}
