import path from "node:path";
import { test } from "@playwright/test";

/**
 * The browser suite runs one site per Playwright worker (playwright.config.ts): worker i talks to
 * its own site on E2E_PORT + i, with its own data directory (so its own outbox and embedded
 * database, or its own PostgreSQL database) and its own fake Stripe on E2E_PORT + 1000 + i. The
 * specs share state within a site (catalogue, page cache, sign-in limits, audit log), so each
 * worker's files only ever see one site.
 */
export const BASE_PORT = Number(process.env.E2E_PORT ?? 4317);

export interface WorkerSite {
  port: number;
  baseURL: string;
  fakeStripePort: number;
  fakeStripe: string;
  dataDir: string;
}

export function siteFor(index: number): WorkerSite {
  const port = BASE_PORT + index;
  const fakeStripePort = Number(process.env.FAKE_STRIPE_PORT ?? BASE_PORT + 1000) + index;
  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    fakeStripePort,
    fakeStripe: `http://127.0.0.1:${fakeStripePort}`,
    dataDir: `test-results/e2e-data-${port}`,
  };
}

/** The running test's site (by its worker's parallel index). */
export function currentSite(): WorkerSite {
  return siteFor(test.info().parallelIndex);
}

/**
 * The PostgreSQL database of site `index` (the running test's by default), or undefined when the
 * suite runs on the embedded database: DATABASE_URL for the first site, the same name + `_w<i>`
 * for the others (playwright.config.ts makes them). For the few specs that must set up what no
 * screen can, e.g. a date that has already ended.
 */
export function siteDatabaseUrl(index?: number): string | undefined {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const i = index ?? test.info().parallelIndex;
  if (i === 0) return base;
  const url = new URL(base);
  url.pathname = `${url.pathname}_w${i}`;
  return url.href;
}

/** Where the running test's site leaves its e-mails (it runs without SMTP_URL). */
export function outboxDir(): string {
  return path.resolve(currentSite().dataDir, "outbox");
}
