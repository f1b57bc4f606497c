import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { post } from "#tests/support/site-client.ts";
import { createAdmin, signIn, sleep, startSite, type Site } from "#tests/support/site-process.ts";

/**
 * Files under DATA_DIR are the server's user's only (decision 0021): the real built
 * server (the fault suite's fresh build, so never a stale one) on a fresh data directory writes its
 * embedded database, an enquiry's .eml copies, a newsletter welcome and an uploaded picture (the
 * admin made beforehand by `npm run admin:create`'s script); once it has stopped, no
 * entry has a group or other permission bit. A directory loosened by hand is tightened at the
 * next start, which says so in one log line. On the way, a mail client's one-click unsubscribe
 * (RFC 8058: a POST with a foreign Origin and no cookie) goes through the site's request rules.
 */

const buildDir = inject("faultsBuildDir");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const ADMIN = { email: "modes-admin@example.com", password: "modes-admin-password-1" };
const root = mkdtempSync(path.join(os.tmpdir(), "nw-modes-"));
const dataDir = path.join(root, "data");
let site: Site | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every entry under `dir` (symbolic links left out) with its permission bits. */
function walk(dir: string, found: { file: string; mode: number }[] = []) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stats = lstatSync(file);
    if (stats.isSymbolicLink()) continue;
    found.push({ file: path.relative(dataDir, file), mode: stats.mode & 0o777 });
    if (stats.isDirectory()) walk(file, found);
  }
  return found;
}

const loose = (entries: { file: string; mode: number }[]) =>
  entries.filter((e) => (e.mode & 0o077) !== 0).map((e) => `${e.file} ${e.mode.toString(8)}`);

async function outboxFiles(kind: string, count: number): Promise<string[]> {
  const dir = path.join(dataDir, "outbox");
  for (let waited = 0; waited < 30_000; waited += 200) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.includes(`-${kind}-`) && f.endsWith(".eml"));
    } catch {
      // not written yet
    }
    if (files.length >= count) return files.map((f) => path.join(dir, f));
    await sleep(200);
  }
  throw new Error(`no ${kind} e-mail in ${dir}`);
}

afterAll(async () => {
  await site?.kill9();
  rmSync(root, { recursive: true, force: true });
});

describe("files under DATA_DIR are readable by the server's user only", () => {
  it("a fresh DATA_DIR: database, .eml copies, media and the directory itself", async () => {
    createAdmin({ ...ADMIN, dataDir });
    site = await startSite({
      port: await freePort(),
      buildDir,
      dataDir,
      env: { SMTP_URL: undefined, SEED_DEMO_CONTENT: "false" },
    });
    const enquiry = await post(`${site.url}/contact`, {
      form: "enquiry",
      contact_website: "",
      name: "Mode Test",
      email: "modes@example.com",
      message: "Checking who may read the files this writes.",
    });
    expect(enquiry.status).toBe(200);
    expect(await outboxFiles("visitor_confirmation", 1)).toHaveLength(1);
    expect(await outboxFiles("admin_alert", 1)).toHaveLength(1);

    const signUp = await post(`${site.url}/newsletter`, {
      email: "reader@example.com",
      contact_website: "",
    });
    expect(signUp.status).toBe(200);
    const [welcome] = await outboxFiles("newsletter_welcome", 1);
    const eml = readFileSync(welcome!, "utf8").replace(/\r?\n(?=[ \t])/g, "");
    const link = /^List-Unsubscribe: <([^>]+)>$/m.exec(eml)?.[1];
    expect(link).toContain("/newsletter/unsubscribe?token=");
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    // A mail client's one-click POST: its own Origin, no cookie, the RFC 8058 body.
    const oneClick = await post(link!, "List-Unsubscribe=One-Click", {
      headers: { origin: "https://mail.example" },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toContain("You have been unsubscribed");
    // The exemption is that path's alone: a foreign Origin is still refused on other forms.
    const foreign = await post(
      `${site.url}/newsletter`,
      { email: "other@example.com", contact_website: "" },
      { headers: { origin: "https://mail.example" } },
    );
    expect(foreign.status).toBe(400);

    const cookie = await signIn(site.url, ADMIN.email, ADMIN.password);
    const upload = new FormData();
    upload.append("file", new File([PNG], "pixel.png", { type: "image/png" }));
    const uploaded = await post(`${site.url}/api/admin/media`, upload, {
      headers: { cookie, origin: site.url },
    });
    expect(uploaded.status).toBe(201);

    expect(await site.stop()).toBe(0);
    site = undefined;

    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = walk(dataDir);
    expect(entries.filter((e) => e.file.startsWith("db")).length).toBeGreaterThan(100);
    expect(entries.filter((e) => e.file.endsWith(".eml")).length).toBeGreaterThanOrEqual(3);
    expect(entries.filter((e) => e.file.startsWith("media/content/")).length).toBe(1);
    expect(loose(entries)).toEqual([]);
  });

  it("an existing directory with looser modes is tightened at start, with one log line", async () => {
    // As an older version (or a copy, or a restore) left it: world-readable and writable.
    const loosen = (dir: string) => {
      chmodSync(dir, 0o777);
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        const stats = lstatSync(file);
        if (stats.isSymbolicLink()) continue;
        if (stats.isDirectory()) loosen(file);
        else chmodSync(file, 0o666);
      }
    };
    loosen(dataDir);
    const before = walk(dataDir);
    expect(loose(before).length).toBe(before.length);

    site = await startSite({ port: await freePort(), buildDir, dataDir });
    const lines = site
      .output()
      .split("\n")
      .filter((l) => l.includes("entries in the data directory to the server's user only"));
    expect(lines).toHaveLength(1);
    // Every entry there was, and DATA_DIR itself.
    expect(JSON.parse(lines[0]!)).toMatchObject({ tightened: before.length + 1, failed: 0 });
    expect(loose(walk(dataDir))).toEqual([]);
    expect(await site.stop()).toBe(0);
    site = undefined;
    expect(loose(walk(dataDir))).toEqual([]);
  });
});
