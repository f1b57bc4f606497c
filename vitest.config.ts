import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/**
 * Kept apart from vite.config.ts: tests load server modules directly, without the React Router
 * plugin. Three projects (`npm run test:unit`):
 *
 * - unit: tests/unit, once;
 * - server (PGlite): tests/server on in-memory PGlite clones, always — DATABASE_URL is blanked for
 *   it, so it stays on PGlite even when a PostgreSQL server is named;
 * - server (PostgreSQL): tests/server again on the server of DATABASE_URL, only when it is set
 *   (a migrated template database per run, copied for every test: tests/support/global-setup.ts).
 *
 * TEST_DATABASE tells tests/support/db.ts which one the project means; it refuses to hand out
 * the other kind.
 */
const postgresUrl = process.env.DATABASE_URL || undefined;

const server = (
  name: string,
  env: Record<string, string>,
  globalSetup: string[] = [],
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include: ["tests/server/**/*.test.ts"], env, globalSetup },
});

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    env: { LOG_LEVEL: "silent", SEED_DEMO_CONTENT: "false" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      server("server (PGlite)", { TEST_DATABASE: "pglite", DATABASE_URL: "" }),
      ...(postgresUrl
        ? [
            server(
              "server (PostgreSQL)",
              { TEST_DATABASE: "postgres", DATABASE_URL: postgresUrl },
              ["tests/support/global-setup.ts"],
            ),
          ]
        : []),
    ],
  },
});
