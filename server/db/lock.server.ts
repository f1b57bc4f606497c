import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock of its own: two processes opening one data directory corrupt it.
 * We hold a pid file, created exclusively; a second process refuses with a clear message.
 * A file left by a dead process (kill -9, power loss) is taken over.
 */

export class DataDirectoryInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${path.dirname(lockFile)} is in use by another process (pid ${pid}). ` +
        `Stop the site first (or use a PostgreSQL server through DATABASE_URL). ` +
        `If no such process exists, delete ${lockFile}.`,
    );
    this.name = "DataDirectoryInUseError";
  }
}

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

export function lockDataDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, "db.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (readFileSync(lockFile, "utf8").trim() === String(process.pid)) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder: number;
      try {
        holder = Number.parseInt(readFileSync(lockFile, "utf8").trim(), 10);
      } catch {
        continue; // removed between our open and read: try again
      }
      if (holder !== process.pid && isAlive(holder))
        throw new DataDirectoryInUseError(lockFile, holder);
      // Stale: left by a process that no longer runs.
      try {
        unlinkSync(lockFile);
      } catch {
        // another process took it over first; the next attempt will tell
      }
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}
