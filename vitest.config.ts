import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * Kept apart from vite.config.ts: tests load server modules directly, without the React Router
 * plugin. Three projects (`npm run test:unit`):
 *
 * - unit: tests/unit, once;
 * - server (PGlite): tests/server on in-memory PGlite, always — DATABASE_URL is blanked for it,
 *   so it stays on PGlite even when a PostgreSQL server is named;
 * - server (PostgreSQL): tests/server again on the server of DATABASE_URL, only when it is set.
 *
 * Each server project migrates a template once per run (tests/support/global-setup.ts); every
 * test file gets its own copy, emptied before each test (tests/support/db.ts). TEST_DATABASE
 * tells db.ts which kind the project means; it refuses to hand out the other kind.
 *
 * Files run in two worker processes (the CI machine has two cores; Vitest's default leaves one
 * idle). Files share nothing: each has its own database, and tests that listen take port 0.
 */
const postgresUrl = process.env.DATABASE_URL || undefined;

const server = (name: string, env: Record<string, string>): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include: ["tests/server/**/*.test.ts"],
    env,
    globalSetup: ["tests/support/global-setup.ts"],
  },
});

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    env: { LOG_LEVEL: "silent", SEED_DEMO_CONTENT: "false" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      server("server (PGlite)", { TEST_DATABASE: "pglite", DATABASE_URL: "" }),
      ...(postgresUrl
        ? [server("server (PostgreSQL)", { TEST_DATABASE: "postgres", DATABASE_URL: postgresUrl })]
        : []),
    ],
  },
});
