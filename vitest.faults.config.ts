import { defineConfig } from "vitest/config";

/**
 * Fault and abuse tests (npm run test:faults, before the browser specs of
 * playwright.faults.config.ts): each file starts the production server (BUILD_DIR, default
 * build/ — the end-to-end suite's, reused unless its sources are newer: tests/support/faults-setup.ts)
 * as a child process on its own port (4550–4599) and talks to it over loopback. Files run one
 * after another: they load the machine, and side by side they would skew each other.
 */
export default defineConfig({
  test: {
    include: ["tests/faults/**/*.test.ts"],
    globalSetup: ["tests/support/faults-setup.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
    env: { LOG_LEVEL: "silent" },
  },
});
