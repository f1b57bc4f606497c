import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";

/**
 * PGlite has no lock of its own: two processes opening one data directory corrupt it. We hold a
 * lock in the directory itself with `proper-lockfile`: an atomic `mkdir` of `db.lock`, whose time
 * the holder refreshes every few seconds. Another process — in this container or another one
 * sharing the volume, whatever its pid — finds it fresh and refuses with a clear message; one left
 * by a process that died (kill -9, power loss, a copied directory) goes stale within seconds and
 * is taken over (at once when the holder was a process of this very host that is gone). Freshness,
 * not a pid, decides across hosts, so two containers whose processes are both pid 1 cannot both
 * open it.
 */

/** A lock not refreshed for this long is a dead holder's. */
const STALE_MS = 10_000;

export class DataDirectoryInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: string,
  ) {
    super(
      `The embedded database in ${path.dirname(lockFile)} is in use by another process (${holder}). ` +
        `Stop the site first (or use a PostgreSQL server through DATABASE_URL). ` +
        `A lock left by a process that has stopped is taken over ${STALE_MS / 1000} seconds after it stopped.`,
    );
    this.name = "DataDirectoryInUseError";
  }
}

/** Whether a process of this machine's pid namespace runs under `pid`. */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const describeHolder = () => `pid ${process.pid} on ${os.hostname()}`;

function lockNow(dataDir: string, lockPath: string): () => void {
  return lockfile.lockSync(dataDir, {
    lockfilePath: lockPath,
    realpath: false,
    stale: STALE_MS,
    update: STALE_MS / 4,
    // The refresh failed (the directory vanished, the disk is gone): stop rather than let a
    // second process open the database beside this one.
    onCompromised: (error) => {
      throw error;
    },
  });
}

export function lockDataDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "db.lock");
  // Who holds it, for the message another process shows (the lock itself is the directory).
  const holderFile = path.join(dataDir, "db.lock.holder");
  // Earlier versions kept a pid file under the same name: it is no lock of ours.
  if (existsSync(lockPath) && statSync(lockPath).isFile()) unlinkSync(lockPath);
  let release: () => void;
  try {
    release = lockNow(dataDir, lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    let holder = "another process";
    try {
      holder = readFileSync(holderFile, "utf8").trim() || holder;
    } catch {
      // no description left: the lock alone says enough
    }
    // A holder of this very machine that has died (a restart right after kill -9) need not be
    // waited out: its pid says so at once. On another host (another container), only the lock's
    // freshness counts.
    const same = /^pid (\d+) on (.+)$/.exec(holder);
    const deadHere =
      same &&
      same[2] === os.hostname() &&
      Number(same[1]) !== process.pid &&
      !isAlive(Number(same[1]));
    if (!deadHere) throw new DataDirectoryInUseError(lockPath, holder);
    rmSync(lockPath, { recursive: true, force: true });
    release = lockNow(dataDir, lockPath);
  }
  try {
    writeFileSync(holderFile, describeHolder());
  } catch {
    // only a description
  }
  let released = false;
  const unlock = () => {
    if (released) return;
    released = true;
    process.off("exit", unlock);
    try {
      release();
    } catch {
      // already gone
    }
  };
  process.on("exit", unlock);
  return unlock;
}
