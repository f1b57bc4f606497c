import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { startSite } from "#tests/support/site-process.ts";
import { BENCH_PAGES, kb, PORTS, table } from "./lib.ts";

/**
 * JavaScript a browser actually downloads for each benchmark page, as sent over the wire (gzip,
 * from Chromium's own byte counts), in two moments: once the page has loaded and the browser
 * has been idle (what a visitor who reads gets), then after the visitor starts to use the page's
 * first form (where a page that hydrates on interaction fetches the framework). The manifest
 * report (bundle.ts) says what each page could need; this says what it was sent.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const JS_TARGET_KB_ON_HOME_LOAD = 110;

async function scriptBytes(page: Page, work: () => Promise<void>) {
  const files: { file: string; bytes: number }[] = [];
  const pending: Promise<void>[] = [];
  const onFinished = (request: import("@playwright/test").Request) => {
    if (request.resourceType() !== "script") return;
    pending.push(
      request.sizes().then((sizes) => {
        files.push({
          file: path.posix.basename(new URL(request.url()).pathname),
          bytes: sizes.responseBodySize,
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
    for (const benchPage of BENCH_PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const onLoad = await scriptBytes(page, async () => {
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
        (await field.count()) > 0 ? await scriptBytes(page, () => field.focus()) : [];
      await context.close();
      const sum = (files: { bytes: number }[]) => kb(files.reduce((n, f) => n + f.bytes, 0));
      pages.push({
        page: benchPage.name,
        path: benchPage.path,
        onLoadKb: sum(onLoad),
        inlineKb: kb(inlineBytes),
        onLoadFiles: onLoad.map((f) => f.file),
        afterFormKb: sum([...onLoad, ...afterForm]),
        afterFormFiles: afterForm.map((f) => f.file),
      });
    }
    console.log("\nJavaScript downloaded by Chromium (bytes on the wire, gzip)\n");
    console.log(
      table(
        ["page", "on load KB", "files", "inline KB (raw)", "after using a form KB", "more files"],
        pages.map((p) => [
          p.path,
          p.onLoadKb,
          p.onLoadFiles.length,
          p.inlineKb,
          p.afterFormKb,
          p.afterFormFiles.length,
        ]),
      ),
    );
    const home = pages.find((p) => p.path === "/");
    const met = home !== undefined && home.onLoadKb <= JS_TARGET_KB_ON_HOME_LOAD;
    console.log(
      `Target JS on / on load ≤ ${JS_TARGET_KB_ON_HOME_LOAD} KB gz: ${home?.onLoadKb ?? "?"} KB → ${met ? "met" : "MISSED"}` +
        (home ? ` (${home.afterFormKb} KB once a form is used)` : ""),
    );
    return {
      chromium: CHROMIUM,
      pages,
      targets: { homeOnLoadKbAtMost: JS_TARGET_KB_ON_HOME_LOAD, met },
    };
  } finally {
    await browser.close();
    await site.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
