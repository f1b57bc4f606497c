import { defineConfig, devices } from "@playwright/test";
import { E2E_2FA_ADMIN, E2E_ADMIN, E2E_SELLER_ENV } from "./tests/support/e2e-fixtures.ts";

/**
 * End-to-end tests in Chromium against the production build (`npm run build` first), on a
 * fresh data directory — or, with DATABASE_URL set, on that PostgreSQL database.
 */
const port = Number(process.env.E2E_PORT ?? 4317);
// Per port, so two runs side by side never share (or empty) each other's folders.
const outputDir = `test-results/e2e-${port}`;
const dataDir = `test-results/e2e-data-${port}`;
// Card payments run against a fake Stripe (tests/support/fake-stripe.ts) that the site's real
// Stripe SDK is pointed at; it also sends the signed webhooks back to the site.
const fakeStripePort = Number(process.env.FAKE_STRIPE_PORT ?? port + 1000);
const stripeWebhookSecret = "whsec_e2e_nightwatch";
// For specs that sign in through the form (prefer signInAsAdmin from tests/support/e2e-fixtures.ts).
process.env.E2E_ADMIN_EMAIL ??= E2E_ADMIN.email;
process.env.E2E_ADMIN_PASSWORD ??= E2E_ADMIN.password;

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
  webServer: [
    {
      command: `node --import tsx tests/support/fake-stripe.ts --port ${fakeStripePort} --webhook-url http://127.0.0.1:${port}/api/stripe/webhook --webhook-secret ${stripeWebhookSecret}`,
      url: `http://127.0.0.1:${fakeStripePort}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // The admins are created before the site starts (the embedded database admits one process);
      // on a reused PostgreSQL database it already exists, which is fine.
      command:
        `rm -rf ${dataDir} && ` +
        `{ printf '%s\n' '${E2E_ADMIN.password}' | node --import tsx scripts/admin-create.ts --email ${E2E_ADMIN.email} || true; } && ` +
        `{ printf '%s\n' '${E2E_2FA_ADMIN.password}' | node --import tsx scripts/admin-create.ts --email ${E2E_2FA_ADMIN.email} || true; } && ` +
        `node ${process.env.BUILD_DIR ?? "build"}/server.js`,
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
        // Public forms: a high rate limit, so tests that fill forms from one address are not
        // throttled.
        FORM_RATE_LIMIT_PER_MINUTE: "1000",
        // Admin sign-ins: the specs sign in a few times within a minute from one address.
        SIGN_IN_RATE_LIMIT_PER_MINUTE: "50",
        // Most specs sign in with a password only; two-factor sign-in has its own spec, and the
        // rule that makes it compulsory is tested on the server (tests/server/two-factor.test.ts).
        REQUIRE_ADMIN_2FA: "false",
        STRIPE_SECRET_KEY: "sk_test_e2e_nightwatch",
        STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
        STRIPE_API_BASE: `http://127.0.0.1:${fakeStripePort}`,
        ...E2E_SELLER_ENV,
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      },
    },
  ],
});
