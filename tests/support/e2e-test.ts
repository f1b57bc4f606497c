import { test as base } from "@playwright/test";
import { siteFor, type WorkerSite } from "./e2e-sites.ts";

/**
 * `test` for the browser suite's specs: the same as Playwright's, with baseURL pointing at the
 * worker's own site (tests/support/e2e-sites.ts).
 */
export const test = base.extend<object, { site: WorkerSite }>({
  site: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, use, workerInfo) => use(siteFor(workerInfo.parallelIndex)),
    { scope: "worker" },
  ],
  baseURL: async ({ site }, use) => use(site.baseURL),
});
