import { statfs } from "node:fs/promises";
import type { RequestHandler } from "express";
import { log } from "./log.server.ts";

/**
 * Free space where DATA_DIR lives, read every second. Below MIN_FREE_DISK_MB the site stops
 * writing before the disk is full (decision 0032): posts are answered 503 at once, the e-mail
 * worker and the housekeeping jobs wait. The embedded database does not fail cleanly on a full
 * disk — it stops answering, and the whole process with it — so it must never get there; reads,
 * `/healthz`, `/readyz` and shutdown go on as usual, and writes resume by themselves once space
 * is freed.
 */

/** Seconds a refused writer is asked to wait. */
export const DISK_RETRY_AFTER_SECONDS = 60;

const CHECK_EVERY_MS = 1_000;

let low = false;
let freeBytes: number | null = null;
let timer: NodeJS.Timeout | undefined;
let unreadable = false;

/** Whether writes are paused for want of space. */
export function diskLow(): boolean {
  return low;
}

/** Free bytes at the last reading (null before the first, or where it cannot be read). */
export function diskFreeBytes(): number | null {
  return freeBytes;
}

async function check(dir: string, minFreeBytes: number): Promise<void> {
  try {
    const stats = await statfs(dir);
    freeBytes = stats.bavail * stats.bsize;
  } catch (error) {
    // Unreadable (a vanished mount): the last state stands; said once, not every second.
    if (!unreadable) log.warn({ err: error, dir }, "could not read the free space of DATA_DIR");
    unreadable = true;
    return;
  }
  unreadable = false;
  const nowLow = freeBytes < minFreeBytes;
  if (nowLow === low) return;
  low = nowLow;
  const free = `${Math.round(freeBytes / 1024 / 1024)} MB free`;
  if (low) {
    log.error(
      { dir, freeBytes, minFreeBytes },
      `${free} where DATA_DIR lives, below MIN_FREE_DISK_MB: saving is refused until space is freed`,
    );
  } else {
    log.warn({ dir, freeBytes }, `${free} where DATA_DIR lives: saving is accepted again`);
  }
}

/** Reads the free space now and every second after (0: never refuses). */
export async function startDiskWatch(dir: string, minFreeBytes: number): Promise<void> {
  if (minFreeBytes <= 0 || timer) return;
  await check(dir, minFreeBytes);
  timer = setInterval(() => void check(dir, minFreeBytes), CHECK_EVERY_MS);
  timer.unref();
}

export function stopDiskWatch(): void {
  clearInterval(timer);
  timer = undefined;
  low = false;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Answers every write 503 with Retry-After while the disk is low, before anything is read. */
export function refuseWritesWhenDiskLow(): RequestHandler {
  return (req, res, next) => {
    if (!low || READS.has(req.method)) return next();
    log.warn({ method: req.method, path: req.path }, "write refused: the disk is nearly full");
    res.setHeader("Retry-After", String(DISK_RETRY_AFTER_SECONDS));
    res.setHeader("Cache-Control", "no-store");
    res
      .status(503)
      .type("html")
      .send(
        '<!doctype html><html lang="en-GB"><meta charset="utf-8"><title>Please try again later | NightWatch</title>' +
          "<h1>We cannot save anything just now</h1>" +
          "<p>Nothing you sent has been saved: the site's storage is full. Please go back and send it again later; " +
          "your browser should still have what you typed.</p></html>",
      );
  };
}
