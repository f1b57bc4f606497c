import { readdirSync, readFileSync } from "node:fs";
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
 * idle). Files share no data: each has its own database, and tests that listen take port 0.
 *
 * Each server project is split in two by what a file does to the modules it tests. A file that
 * sets the environment before the configuration is first read (`vi.hoisted`, as the fake Stripe
 * is started) or mocks a module needs a module graph of its own, so it runs isolated, as Vitest
 * runs every file by default. The others read the configuration as the site starts with it and
 * share one module graph per worker (`isolate: false`): importing the server modules afresh for
 * each of them was a third of the server tests' time.
 */
const postgresUrl = process.env.DATABASE_URL || undefined;

const SERVER_TESTS = "tests/server";
const OWN_MODULES = /\bvi\.(hoisted|mock|doMock|stubEnv|resetModules)\(/;
const ownModules = readdirSync(SERVER_TESTS, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .filter((file) => OWN_MODULES.test(readFileSync(`${SERVER_TESTS}/${file}`, "utf8")))
  .map((file) => `${SERVER_TESTS}/${file}`);

const server = (name: string, env: Record<string, string>): TestProjectInlineConfiguration[] => [
  {
    extends: true,
    test: {
      name,
      include: [`${SERVER_TESTS}/**/*.test.ts`],
      exclude: ownModules,
      isolate: false,
      env,
      globalSetup: ["tests/support/global-setup.ts"],
    },
  },
  {
    extends: true,
    test: {
      name: `${name}, isolated`,
      include: ownModules,
      env,
      globalSetup: ["tests/support/global-setup.ts"],
    },
  },
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    env: { LOG_LEVEL: "silent", SEED_DEMO_CONTENT: "false" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      ...server("server (PGlite)", { TEST_DATABASE: "pglite", DATABASE_URL: "" }),
      ...(postgresUrl
        ? server("server (PostgreSQL)", { TEST_DATABASE: "postgres", DATABASE_URL: postgresUrl })
        : []),
    ],
  },
});
