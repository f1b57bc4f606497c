import { defineConfig } from "@playwright/test";
import suite, { SERVER_SPECS } from "./playwright.config.ts";

/**
 * The browser specs that start production servers of their own (the deployment modes, the
 * embedded default, the seller variant, the visual baselines, a reply by SMTP), run by `npm run test:faults` after
 * the fault tests, on the same build (BUILD_DIR, default build/; built first if older than its
 * sources). The suite's browser settings, without its shared site and fake Stripe. Same test
 * folder and project name as the suite, so visual.spec.ts finds its baselines where they are.
 */
const port = Number(process.env.E2E_PORT ?? 4317);

export default defineConfig({
  ...suite,
  testIgnore: undefined,
  testMatch: SERVER_SPECS,
  outputDir: `test-results/e2e-servers-${port}`,
  globalSetup: "./tests/support/build-setup.ts",
  webServer: undefined,
  // Two files at a time: each boots its servers on ports of its own (E2E_PORT + 40 and up), and
  // waits on them much of the time, so one file alone left a core idle.
  workers: 2,
});
