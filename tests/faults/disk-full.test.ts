import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { post } from "#tests/support/site-client.ts";
import { sleep, startSite, type Site } from "#tests/support/site-process.ts";

/**
 * The embedded database on a nearly full disk (a size-limited tmpfs as DATA_DIR): below
 * MIN_FREE_DISK_MB a post is answered 503 with Retry-After at once and nothing is saved, while
 * pages, `/healthz` and `/readyz` still answer; once space is freed, posts are saved again; and
 * SIGTERM on a full disk still ends the process cleanly. Needs a tmpfs mount (root); skipped
 * where the machine does not allow one.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4567;
const DISK_MB = 96;
const MIN_FREE_MB = 16;

function mountTmpfs(dir: string): boolean {
  const result = spawnSync("mount", [
    "-t",
    "tmpfs",
    "-o",
    `size=${DISK_MB}m,mode=0700`,
    "tmpfs",
    dir,
  ]);
  return result.status === 0;
}

const freeBytes = (dir: string) => {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
};

/** Fills the disk of `dir` until `leaveBytes` are free. */
function fillUntil(dir: string, leaveBytes: number): string {
  const file = path.join(dir, "filler");
  const size = Math.max(0, freeBytes(dir) - leaveBytes);
  try {
    writeFileSync(file, Buffer.alloc(size));
  } catch {
    // A full disk: what was written stays, which is the point.
  }
  return file;
}

const probe = mkdtempSync(path.join(os.tmpdir(), "nw-faults-tmpfs-probe-"));
const canMount = mountTmpfs(probe);
if (canMount) spawnSync("umount", [probe]);
rmSync(probe, { recursive: true, force: true });

describe.skipIf(!canMount)("a nearly full disk under the embedded database", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "nw-faults-disk-"));
  let site: Site | undefined;
  let mounted = false;

  afterAll(async () => {
    await site?.kill9();
    if (mounted) spawnSync("umount", [dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const enquiry = (site: Site, n: number) =>
    post(`${site.url}/contact`, {
      form: "enquiry",
      contact_website: "",
      name: "Disk Test",
      email: `disk${n}@example.com`,
      message: `Enquiry ${n}`,
    });

  it("refuses posts fast with 503, keeps reading, resumes once freed, and stops on SIGTERM", async () => {
    mounted = mountTmpfs(dataDir);
    expect(mounted).toBe(true);
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      env: { MIN_FREE_DISK_MB: String(MIN_FREE_MB) },
    });
    const running = site;
    expect((await enquiry(running, 1)).status).toBe(200);

    // Below the threshold (8 MB left of 96): the next reading of the disk pauses saving.
    const filler = fillUntil(dataDir, 8 * 1024 * 1024);
    await sleep(1_500);
    const started = performance.now();
    const refused = await enquiry(running, 2);
    const refusedInMs = performance.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe("60");
    expect(refused.body).toContain("Nothing you sent has been saved");
    expect(refusedInMs).toBeLessThan(1_000);
    const page = await fetch(`${running.url}/services/counter-fraud-training`, {
      headers: { cookie: "visitor=1" },
    });
    expect(page.status).toBe(200);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);

    // Space freed: saving resumes by itself.
    rmSync(filler);
    await sleep(1_500);
    expect((await enquiry(running, 3)).status).toBe(200);

    // Full to the last byte: pages and health still answer, and SIGTERM ends it cleanly.
    fillUntil(dataDir, 0);
    await sleep(1_500);
    expect((await enquiry(running, 4)).status).toBe(503);
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    const home = await fetch(`${running.url}/`);
    expect(home.status).toBe(200);
    const signalled = Date.now();
    const code = await running.stop(15_000);
    console.log(
      `[disk full] post refused in ${refusedInMs.toFixed(0)} ms; on a full disk SIGTERM ended it ` +
        `(exit ${code}) in ${Date.now() - signalled} ms`,
    );
    expect(code).toBe(0);
    site = undefined;
  });
});
