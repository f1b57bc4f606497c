import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "@playwright/test";
import { startSite } from "#tests/support/site-process.ts";
import { BROWSER_PAGES, kb, PORTS, table } from "./lib.ts";

/**
 * JavaScript a browser actually downloads for each public page within 5 s of load with no
 * interaction: the files Chromium fetched, counted twice — as sent over the wire (Chromium's own
 * byte counts, in the encoding it negotiated: brotli) and as gzip (level 9) of the same files, the
 * budget's unit — then what more it fetches once the visitor uses the page's first form. The
 * manifest report (bundle.ts) says what each page could need; this says what it was sent.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The budgets of JS on load, gzip (decision 0028): the home page, and every other public page. */
export const JS_BUDGET_KB_GZIP = { home: 150, page: 160 } as const;
export const jsBudgetOf = (path: string) =>
  path === "/" ? JS_BUDGET_KB_GZIP.home : JS_BUDGET_KB_GZIP.page;

async function scriptBytes(page: Page, buildDir: string, work: () => Promise<void>) {
  const files: { file: string; bytes: number; gzip: number }[] = [];
  const pending: Promise<void>[] = [];
  const onFinished = (request: import("@playwright/test").Request) => {
    if (request.resourceType() !== "script") return;
    pending.push(
      request.sizes().then((sizes) => {
        const pathname = new URL(request.url()).pathname;
        const file = path.join(buildDir, "client", pathname);
        files.push({
          file: path.posix.basename(pathname),
          bytes: sizes.responseBodySize,
          gzip: gzipSync(readFileSync(file), { level: 9 }).length,
        });
      }),
    );
  };
  page.on("requestfinished", onFinished);
  await work();
  // Until no script has been requested for a second (networkidle fires only once per page).
  let seen = -1;
  while (seen !== pending.length) {
    seen = pending.length;
    await page.waitForTimeout(1000);
  }
  await Promise.all(pending);
  page.off("requestfinished", onFinished);
  return files;
}

export async function runPageJsReport(options: { buildDir: string }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-bench-js-"));
  const site = await startSite({ port: PORTS.pageJs, buildDir: options.buildDir, dataDir });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    const pages = [];
    for (const benchPage of BROWSER_PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const onLoad = await scriptBytes(page, options.buildDir, async () => {
        await page.goto(`${site.url}${benchPage.path}`);
        await page.waitForLoadState("networkidle");
        // Idle-time work (the hero particles) starts within about three seconds.
        await page.waitForTimeout(3500);
      });
      // The first field a visitor would fill in (not the spam trap, which is out of reach).
      // Scripts written into the HTML (data, scroll restoration, a page's waiting script), as text.
      const inlineBytes = await page.evaluate(() =>
        [...document.querySelectorAll("script:not([src])")]
          .filter((s) => ["", "module", "text/javascript"].includes(s.getAttribute("type") ?? ""))
          .reduce((n, s) => n + new TextEncoder().encode(s.textContent ?? "").length, 0),
      );
      const field = page.locator("form input:not([type=hidden]):not([tabindex='-1'])").first();
      const afterForm =
        (await field.count()) > 0
          ? await scriptBytes(page, options.buildDir, () => field.focus())
          : [];
      await context.close();
      const sum = (files: { bytes: number }[]) => kb(files.reduce((n, f) => n + f.bytes, 0));
      const gzip = (files: { gzip: number }[]) => kb(files.reduce((n, f) => n + f.gzip, 0));
      pages.push({
        page: benchPage.name,
        path: benchPage.path,
        onLoadKb: sum(onLoad),
        onLoadGzipKb: gzip(onLoad),
        inlineKb: kb(inlineBytes),
        onLoadFiles: onLoad.map((f) => f.file),
        afterFormKb: sum([...onLoad, ...afterForm]),
        afterFormFiles: afterForm.map((f) => f.file),
      });
    }
    console.log("\nJavaScript fetched by Chromium within 5 s of load, no interaction\n");
    console.log(
      table(
        [
          "page",
          "on load KB (wire)",
          "on load KB (gzip -9)",
          "files",
          "inline KB (raw)",
          "after using a form KB (wire)",
          "more files",
        ],
        pages.map((p) => [
          p.path,
          p.onLoadKb,
          p.onLoadGzipKb,
          p.onLoadFiles.length,
          p.inlineKb,
          p.afterFormKb,
          p.afterFormFiles.length,
        ]),
      ),
    );
    const over = pages.filter((p) => p.onLoadGzipKb > jsBudgetOf(p.path));
    const met = over.length === 0;
    console.log(
      `Budget of JS on load, gzip: / ≤ ${JS_BUDGET_KB_GZIP.home} KB, ` +
        `every other public page ≤ ${JS_BUDGET_KB_GZIP.page} KB: ` +
        (met
          ? "met"
          : `MISSED on ${over.map((p) => `${p.path} (${p.onLoadGzipKb} KB)`).join(", ")}`),
    );
    return {
      chromium: CHROMIUM,
      pages,
      targets: { onLoadGzipKbAtMost: JS_BUDGET_KB_GZIP, met },
    };
  } finally {
    await browser.close();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
