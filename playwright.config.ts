import { defineConfig, devices } from "@playwright/test";
import { E2E_2FA_ADMIN, E2E_ADMIN, E2E_SELLER_ENV } from "./tests/support/e2e-fixtures.ts";
import { BASE_PORT, siteDatabaseUrl, siteFor } from "./tests/support/e2e-sites.ts";

/**
 * End-to-end tests in Chromium against the production build (`npm run build` first), on a
 * fresh data directory — or, with DATABASE_URL set, on that PostgreSQL database.
 *
 * The specs that start production servers of their own (SERVER_SPECS) are left out here and run
 * in the fault stage instead (playwright.faults.config.ts, `npm run test:faults`): they would
 * boot a site each inside the browser suite.
 */
export const SERVER_SPECS = [
  "deployment.spec.ts",
  "embedded-default.spec.ts",
  "seller-variant.spec.ts",
  "visual.spec.ts",
  "reply-by-smtp.spec.ts",
];
const port = BASE_PORT;
// Per port, so two runs side by side never share (or empty) each other's folders.
const outputDir = `test-results/e2e-${port}`;
// One site per worker (tests/support/e2e-sites.ts): worker i's site on port + i with its own data
// directory and, on PostgreSQL, its own database; its fake Stripe on port + 1000 + i. The specs
// read what others change (the catalogue, the page cache, the admins' sign-in limit, the audit
// log), so a site is never shared between workers. E2E_WORKERS=1 is one site, as before. The
// server-boot specs (SERVER_SPECS) use port + 40 and up, so keep this below 40.
const workers = Number(process.env.E2E_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1 || workers >= 40) {
  throw new Error(
    `E2E_WORKERS must be a whole number from 1 to 39, not ${process.env.E2E_WORKERS}`,
  );
}
const stripeWebhookSecret = "whsec_e2e_nightwatch";

/**
 * Site i > 0 on PostgreSQL gets a database of its own, named after the main one + `_w<i>`,
 * dropped and made afresh before the site starts (so a run that was cut short leaves nothing
 * stale for the next); .ci/run drops these with its own.
 */
function databaseFor(i: number): { url: string; prepare: string } | undefined {
  const siteUrl = siteDatabaseUrl(i);
  if (!siteUrl) return undefined;
  if (i === 0) return { url: siteUrl, prepare: "" };
  const url = new URL(siteUrl);
  const name = url.pathname.slice(1);
  const adminUrl = new URL(url);
  adminUrl.pathname = "/postgres";
  const env = `PG_ADMIN_URL='${process.env.PG_ADMIN_URL ?? adminUrl.href}'`;
  return {
    url: url.href,
    prepare:
      `${env} node --import tsx scripts/pg-database.ts drop ${name} && ` +
      `${env} node --import tsx scripts/pg-database.ts create ${name} && `,
  };
}

// For specs that sign in through the form (prefer signInAsAdmin from tests/support/e2e-fixtures.ts).
process.env.E2E_ADMIN_EMAIL ??= E2E_ADMIN.email;
process.env.E2E_ADMIN_PASSWORD ??= E2E_ADMIN.password;

export default defineConfig({
  testDir: "tests/e2e",
  testIgnore: SERVER_SPECS,
  outputDir,
  fullyParallel: false,
  // Files run one after another within a worker, on that worker's site.
  workers,
  retries: 0,
  forbidOnly: true,
  reporter: "list",
  // Generous for a shared 2-core machine, where a test that takes 15 s alone has taken 60 s while
  // the other worker's site and browser were busy: a timeout here should mean a hang, not load.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    // Each test's baseURL is its worker's site (the fixture in tests/support/e2e-test.ts).
    baseURL: siteFor(0).baseURL,
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
  webServer: Array.from({ length: workers }, (_, i) => webServers(i)).flat(),
});

function webServers(i: number) {
  const site = siteFor(i);
  const database = databaseFor(i);
  return [
    {
      command: `node --import tsx tests/support/fake-stripe.ts --port ${site.fakeStripePort} --webhook-url ${site.baseURL}/api/stripe/webhook --webhook-secret ${stripeWebhookSecret}`,
      url: `${site.fakeStripe}/`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
    },
    {
      // The admins are created before the site starts (the embedded database admits one process);
      // on a reused PostgreSQL database it already exists, which is fine.
      command:
        `rm -rf ${site.dataDir} && ${database?.prepare ?? ""}` +
        `{ printf '%s\n' '${E2E_ADMIN.password}' | node --import tsx scripts/admin-create.ts --email ${E2E_ADMIN.email} || true; } && ` +
        `{ printf '%s\n' '${E2E_2FA_ADMIN.password}' | node --import tsx scripts/admin-create.ts --email ${E2E_2FA_ADMIN.email} || true; } && ` +
        `node ${process.env.BUILD_DIR ?? "build"}/server.js`,
      url: `${site.baseURL}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      env: {
        PORT: String(site.port),
        HOST: "127.0.0.1",
        DATA_DIR: site.dataDir,
        PUBLIC_URL: site.baseURL,
        LOG_LEVEL: "warn",
        // Public forms: a high rate limit, so tests that fill forms from one address are not
        // throttled.
        FORM_RATE_LIMIT_PER_MINUTE: "1000",
        // Admin sign-ins: the specs sign in a few times within a minute from one address.
        SIGN_IN_RATE_LIMIT_PER_MINUTE: "50",
        // Most specs sign in with a password only; two-factor sign-in has its own spec, and the
        // rule that makes it compulsory is tested on the server (tests/server/two-factor-sessions.test.ts).
        REQUIRE_ADMIN_2FA: "false",
        STRIPE_SECRET_KEY: "sk_test_e2e_nightwatch",
        STRIPE_WEBHOOK_SECRET: stripeWebhookSecret,
        STRIPE_API_BASE: site.fakeStripe,
        ...E2E_SELLER_ENV,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
    },
  ];
}
