import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests in Chromium against the production build (`npm run build` first), on a
 * fresh data directory — or, with DATABASE_URL set, on that PostgreSQL database.
 */
const port = Number(process.env.E2E_PORT ?? 4317);
// Per port, so two runs side by side never share (or empty) each other's folders.
const outputDir = `test-results/e2e-${port}`;
const dataDir = `test-results/e2e-data-${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: "list",
  timeout: 30_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx server.ts`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "warn",
      // Public forms: a short minimum time-to-submit and a high rate limit, so tests that fill
      // forms at machine speed from one address are neither taken for bots nor throttled.
      FORM_MIN_SUBMIT_MS: "0",
      FORM_RATE_LIMIT_PER_MINUTE: "1000",
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
