import { defineConfig } from "vitest/config";

// Kept apart from vite.config.ts: tests load server modules directly, without the React Router plugin.
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/server/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    env: { LOG_LEVEL: "silent", SEED_DEMO_CONTENT: "false" },
  },
});
