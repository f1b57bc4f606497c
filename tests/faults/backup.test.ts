import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { withSiteDatabase } from "#tests/support/site-client.ts";
import {
  parentEnvForProduction,
  ROOT,
  sleep,
  startSite,
  type Site,
} from "#tests/support/site-process.ts";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink.ts";
import { checkAcknowledged, emptyAcks, writeLoad } from "#tests/support/write-load.ts";

/**
 * `npm run backup` while visitors write to the embedded database, then `npm run restore` into a
 * new directory: the restored site starts, holds every enquiry and order acknowledged before the
 * backup began, and sends none of the e-mails that were waiting in the copy.
 */

const buildDir = inject("faultsBuildDir");
const PORT = 4565;

/** `npm run backup|restore -- FILE` on `dataDir`, as an operator runs it beside the site. */
async function npmScript(script: "backup" | "restore", dataDir: string, file: string) {
  // Not spawnSync: the visitors' posts go on while it runs.
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, file], {
    cwd: ROOT,
    env: {
      ...parentEnvForProduction(),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
    },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

describe("backup of the embedded database under writes, and restore", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "nw-faults-backup-"));
  const dataDir = path.join(root, "data");
  const restoredDir = path.join(root, "restored");
  const file = path.join(root, "site.tar");
  let site: Site | undefined;
  let sink: SmtpSink | undefined;

  afterAll(async () => {
    await site?.kill9();
    await sink?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("every write acknowledged before the backup is restored; waiting e-mails are not sent", async () => {
    // A relay that never answers: every e-mail of the running site is still waiting.
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir,
      env: {
        FORM_RATE_LIMIT_PER_MINUTE: "100000",
        TRUST_PROXY: "loopback",
        SMTP_URL: "smtp://127.0.0.1:9",
      },
    });
    const running = site;
    const stop = { now: false };
    const acks = emptyAcks();
    const writing = writeLoad(running, "bk", stop, acks, 4);
    while (acks.ackedAt.length < 20) await sleep(25);

    const acknowledgedBefore = {
      ...acks,
      inquiries: [...acks.inquiries],
      orders: [...acks.orders],
      ackedAt: [...acks.ackedAt],
    };
    const backup = await npmScript("backup", dataDir, file);
    const duringBackup = acks.ackedAt.length - acknowledgedBefore.ackedAt.length;
    await sleep(300);
    stop.now = true;
    await writing;
    expect(backup.output).toContain("Backup of the running site written to");
    expect(backup.code).toBe(0);
    expect(await running.stop()).toBe(0);
    site = undefined;

    const restore = await npmScript("restore", restoredDir, file);
    expect(restore.code, restore.output).toBe(0);
    const held = Number(/(\d+) e-mails? (?:was|were) waiting/.exec(restore.output)?.[1] ?? 0);

    // Restoring into a directory that holds a database is refused, and changes nothing.
    const again = await npmScript("restore", restoredDir, file);
    expect(again.code).toBe(1);
    expect(again.output).toContain("already holds a database");

    // The restored site, with a working relay: it sends nothing that was waiting in the copy.
    sink = await startSmtpSink();
    site = await startSite({
      port: PORT,
      buildDir,
      dataDir: restoredDir,
      env: { SMTP_URL: sink.url },
    });
    const home = await fetch(`${site.url}/`);
    expect(home.status).toBe(200);
    await sleep(1_500);
    const sentAfterRestore = sink.messages.length;
    expect(await site.stop()).toBe(0);
    site = undefined;

    const found = await checkAcknowledged(
      { kind: "pglite", dataDir: restoredDir },
      acknowledgedBefore,
    );
    const outbox = await withSiteDatabase({ kind: "pglite", dataDir: restoredDir }, (query) =>
      query<{ status: string; n: number }>(
        "select status, count(*)::int as n from email_outbox group by status order by status",
      ),
    );
    console.log(
      `[backup] ${acknowledgedBefore.inquiries.length} enquiries and ${acknowledgedBefore.orders.length} ` +
        `orders acknowledged before the backup (${duringBackup} more during it); restored: lost ` +
        `${found.lostInquiries.length} / ${found.lostOrders.length}; ${held} e-mails held; ` +
        `outbox ${JSON.stringify(outbox)}; ${sentAfterRestore} sent by the restored site`,
    );
    expect(found.lostInquiries).toEqual([]);
    expect(found.lostOrders).toEqual([]);
    expect(found.inquiries.filter((r) => r.emails !== 2)).toEqual([]);
    expect(held).toBeGreaterThanOrEqual(2 * acknowledgedBefore.ackedAt.length);
    expect(outbox.filter((r) => r.status === "pending" || r.status === "sending")).toEqual([]);
    expect(sentAfterRestore).toBe(0);
  });
});
