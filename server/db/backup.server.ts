import { once } from "node:events";
import os from "node:os";
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { log } from "../log.server.ts";
import { ensurePrivateDir, tightenTree } from "../private-files.server.ts";

/**
 * Backups of the embedded database (decision 0032), made while the site runs or not, and their
 * restore into a new data directory without sending any e-mail twice.
 *
 * A backup is one `.tar` file:
 * - `database.tar.gz`: PGlite's own dump of its data directory, taken while no statement runs —
 *   what a crash at that instant would leave, which PostgreSQL recovers on start;
 * - `auth-secret`: so admin sessions and unsubscribe links stay valid after a restore;
 * - `media/`: uploaded images (local storage only; a bucket is backed up by its provider);
 * - `backup.json`: when it was taken.
 * A running site makes it itself (its database admits one process), asked over a socket in
 * DATA_DIR that only the server's user can open; a stopped site's directory is read directly.
 * A restore holds the e-mails that were waiting in the copy: they may have been sent after it was
 * taken, so they are marked failed for staff to see, never sent twice.
 */

/** The socket in DATA_DIR a running site answers backup requests on. */
export const controlSocketPath = (dataDir: string) => path.join(dataDir, "control.sock");

/** Written on e-mails held by a restore (shown with each message's delivery state). */
export const HELD_BY_RESTORE =
  "Not sent: it was waiting when the backup restored here was taken, and may have been sent " +
  "after that. Send it again by hand if it was not.";

const DATABASE_DUMP = "database.tar.gz";
const MANIFEST = "backup.json";

/** Writes a backup to `file` (atomically: a half-written backup never has the final name). */
export async function writeBackup(options: {
  dataDir: string;
  dump: () => Promise<Blob>;
  file: string;
}): Promise<{ bytes: number }> {
  const staging = mkdtempSync(path.join(path.dirname(path.resolve(options.file)), ".backup-"));
  const partial = path.join(staging, "backup.tar");
  try {
    const dump = Buffer.from(await (await options.dump()).arrayBuffer());
    writeFileSync(path.join(staging, DATABASE_DUMP), dump, { mode: 0o600 });
    const takenAt = new Date().toISOString();
    writeFileSync(path.join(staging, MANIFEST), JSON.stringify({ takenAt, format: 1 }), {
      mode: 0o600,
    });
    await tar.create({ file: partial, cwd: staging, portable: true }, [MANIFEST, DATABASE_DUMP]);
    const fromDataDir = ["auth-secret", "media"].filter((name) =>
      existsSync(path.join(options.dataDir, name)),
    );
    if (fromDataDir.length > 0) {
      await tar.replace({ file: partial, cwd: options.dataDir, portable: true }, fromDataDir);
    }
    renameSync(partial, options.file);
    return { bytes: statSync(options.file).size };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Puts a backup into `dataDir`, which must not hold a database yet, and holds the e-mails that
 * were waiting in it. The site then starts on `dataDir` as usual (and migrates it if it is older).
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
}): Promise<{ takenAt: string; heldEmails: number }> {
  const dbDir = path.join(options.dataDir, "db");
  if (existsSync(dbDir) && readdirSync(dbDir).length > 0) {
    throw new Error(
      `${options.dataDir} already holds a database: restore into a new DATA_DIR (or move the old one away first).`,
    );
  }
  ensurePrivateDir(options.dataDir);
  await tar.extract({ file: options.file, cwd: options.dataDir });
  const dumpFile = path.join(options.dataDir, DATABASE_DUMP);
  const manifestFile = path.join(options.dataDir, MANIFEST);
  if (!existsSync(dumpFile) || !existsSync(manifestFile)) {
    throw new Error(`${options.file} is not a backup of this site (no ${DATABASE_DUMP}).`);
  }
  const { takenAt } = JSON.parse(readFileSync(manifestFile, "utf8")) as { takenAt: string };
  const { openPGlite } = await import("./pglite.server.ts");
  const client = await openPGlite(dbDir, {
    loadDataDir: new Blob([readFileSync(dumpFile)]),
  });
  let heldEmails: number;
  try {
    const held = await client.query(
      `update email_outbox set status = 'failed', locked_until = null, last_error = $1
       where status in ('pending', 'sending')`,
      [HELD_BY_RESTORE],
    );
    heldEmails = held.affectedRows ?? 0;
  } finally {
    await client.close();
  }
  rmSync(dumpFile);
  rmSync(manifestFile);
  tightenTree(options.dataDir);
  return { takenAt, heldEmails };
}

/**
 * While the site runs on the embedded database: answers `POST /backup` on DATA_DIR's control
 * socket with a backup (the socket is the server's user's alone, like the directory).
 */
export async function serveBackups(
  dataDir: string,
  dump: () => Promise<Blob>,
): Promise<Server | undefined> {
  const socketPath = controlSocketPath(dataDir);
  // Left by a process that died: this one holds the data directory's lock, so it is not in use.
  rmSync(socketPath, { force: true });
  const server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/backup") {
      res.writeHead(404).end();
      return;
    }
    void (async () => {
      // Staged outside DATA_DIR: a backup must not eat the space the database needs.
      const staging = mkdtempSync(path.join(os.tmpdir(), "nightwatch-backup-"));
      const file = path.join(staging, "backup.tar");
      try {
        const { bytes } = await writeBackup({ dataDir, dump, file });
        log.info({ bytes }, "backup taken");
        res.writeHead(200, { "Content-Type": "application/x-tar", "Content-Length": bytes });
        await pipeline(createReadStream(file), res);
      } catch (error) {
        log.error({ err: error }, "backup failed");
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(`Backup failed: ${(error as Error).message}`);
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
    })();
  });
  try {
    server.listen({ path: socketPath });
    await once(server, "listening");
    return server;
  } catch (error) {
    // E.g. a DATA_DIR path too long for a socket: the site runs, backups need it stopped.
    log.warn(
      { err: error, socketPath },
      "backups of the running site are not available: npm run backup needs the site stopped",
    );
    return undefined;
  }
}

/**
 * Asks the site running on `dataDir` for a backup into `file`. False when no site answers there
 * (the script then reads the stopped site's directory itself).
 */
export async function requestBackup(dataDir: string, file: string): Promise<boolean> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return false;
  const partial = `${file}.partial`;
  return new Promise<boolean>((resolve, reject) => {
    const req = httpRequest({ socketPath, method: "POST", path: "/backup" }, (res) => {
      if (res.statusCode !== 200) {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => reject(new Error(text || `the site answered ${res.statusCode}`)));
        return;
      }
      pipeline(res, createWriteStream(partial, { mode: 0o600 }))
        .then(() => {
          renameSync(partial, file);
          resolve(true);
        })
        .catch((error: unknown) => {
          rmSync(partial, { force: true });
          reject(error as Error);
        });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // A socket left by a site that stopped: nobody answers on it.
      if (error.code === "ECONNREFUSED" || error.code === "ENOENT") resolve(false);
      else reject(error);
    });
    req.end();
  });
}
