import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startSite, type Site } from "#tests/support/site-process.ts";

/**
 * The seller's details with every one set, the ICO number too, on a site of its own (the
 * suite's has no SELLER_ICO_NUMBER): the production build started with other SELLER_* settings.
 * The configured-as-the-suite case is in visuals.spec.ts. It starts its own server, so it runs in
 * the fault stage (playwright.faults.config.ts). Ports: E2E_PORT + 40…42, + 50 and + 60 are other
 * specs'.
 */

test.describe("the seller's details", () => {
  test.describe("with every detail set, the ICO number too", () => {
    const PORT = Number(process.env.E2E_PORT ?? 4317) + 70;
    let dataDir: string;
    let site: Site | undefined;
    test.describe.configure({ timeout: 180_000 });
    test.beforeAll(async () => {
      // A hook has the default timeout whatever the group's; a first start (initdb, migrations,
      // demo content) can take longer on a busy machine.
      test.setTimeout(180_000);
      dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-seller-"));
      site = await startSite({
        port: PORT,
        buildDir: process.env.BUILD_DIR ?? "build",
        dataDir,
        env: {
          SELLER_LEGAL_NAME: "Example Intelligence Ltd",
          SELLER_ADDRESS: "2 Sample Road, Manchester, M1 1AA",
          SELLER_COMPANY_NUMBER: "SC123456",
          SELLER_VAT_NUMBER: "GB987654321",
          SELLER_ICO_NUMBER: "ZA123456",
        },
      });
    });
    test.afterAll(async () => {
      await site?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test("the footer and the privacy policy show them all", async ({ page }) => {
      const expected =
        "Example Intelligence Ltd. Registered office: 2 Sample Road, Manchester, M1 1AA. " +
        "Company number: SC123456. VAT number: GB987654321. ICO registration number: ZA123456.";
      await page.goto(`${site!.url}/`);
      const footer = page.getByRole("contentinfo");
      await expect(footer.getByTestId("footer-address")).toHaveText(
        "2 Sample Road, Manchester, M1 1AA",
      );
      await expect(footer.getByTestId("seller-details")).toHaveText(expected);
      await page.goto(`${site!.url}/privacy`);
      await expect(page.getByRole("main").getByTestId("seller-details")).toHaveText(expected);
    });
  });
});
