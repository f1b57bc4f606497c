import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from "node:fs";
import path from "node:path";

/**
 * Files under DATA_DIR (the embedded database, media, .eml copies, the generated auth secret)
 * hold personal data and secrets: the server's user alone may read them (decision 0021).
 * What we create is created 0700 (directories) or 0600 (files); what others create there
 * (PGlite writes its files 0666 whatever the umask) is tightened by `tightenTree`.
 */

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and missing parents) 0700, and takes group and other bits off it if it existed. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tightenOne(dir, lstatSync(dir));
}

export interface TightenResult {
  /** Entries looked at (the root included). */
  entries: number;
  /** Entries whose mode had a group or other bit, now removed. */
  tightened: number;
  /** Entries that could not be changed (e.g. owned by another user). */
  failed: number;
}

function tightenOne(file: string, stats: Stats): boolean {
  if ((stats.mode & 0o077) === 0) return false;
  // Directories keep owner rwx (to be entered); files keep the owner's own bits (0666 → 0600).
  chmodSync(file, stats.isDirectory() ? PRIVATE_DIR_MODE : stats.mode & 0o700);
  return true;
}

/**
 * Walks `root` and removes every group and other permission bit: directories 0700, files their
 * owner's bits only. Symbolic links are neither changed nor followed (they may point anywhere).
 * Entries that vanish during the walk (a database removing a file) are skipped.
 */
export function tightenTree(root: string): TightenResult {
  const result: TightenResult = { entries: 0, tightened: 0, failed: 0 };
  const visit = (file: string) => {
    let stats: Stats;
    try {
      stats = lstatSync(file);
    } catch {
      return;
    }
    if (stats.isSymbolicLink()) return;
    result.entries++;
    try {
      if (tightenOne(file, stats)) result.tightened++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") result.failed++;
    }
    if (!stats.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(file);
    } catch {
      return;
    }
    for (const name of names) visit(path.join(file, name));
  };
  visit(root);
  return result;
}
