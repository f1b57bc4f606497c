import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirectoryInUseError, lockDataDirectory } from "#server/db/lock.server.ts";

/**
 * The embedded database's directory lock (server/db/lock.server.ts): one holder at a time, told
 * apart by a lock the holder keeps fresh, never by pids — so two processes in two containers
 * (each pid 1) cannot both open it — and a dead holder's lock is taken over once stale.
 */
const tempDir = () => mkdtempSync(path.join(tmpdir(), "nw-lock-"));

describe("data directory lock", () => {
  it("refuses a second holder while the first holds it, and frees on release", () => {
    const dir = tempDir();
    const release = lockDataDirectory(dir);
    expect(existsSync(path.join(dir, "db.lock"))).toBe(true);
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(dir)).toThrow(/in use by another process \(pid \d+ on /);
    release();
    expect(existsSync(path.join(dir, "db.lock"))).toBe(false);
    lockDataDirectory(dir)();
  });

  it("another process's fresh lock is refused, whatever its pid", async () => {
    const dir = tempDir();
    const lockModule = path.resolve(import.meta.dirname, "../../server/db/lock.server.ts");
    // A holder in another process (as another container would be), told only by its lock.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `const { lockDataDirectory } = await import(${JSON.stringify(lockModule)}); lockDataDirectory(${JSON.stringify(dir)}); console.log("locked"); setTimeout(() => {}, 60000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk) => String(chunk).includes("locked") && resolve());
        child.once("exit", () => reject(new Error("the holder exited")));
      });
      expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUseError);
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);

  it("takes over at once a lock of this host whose process has died (a restart after kill -9)", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "0"]);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.on("exit", resolve));
    mkdirSync(path.join(dir, "db.lock"));
    writeFileSync(path.join(dir, "db.lock.holder"), `pid ${deadPid} on ${hostname()}`);
    lockDataDirectory(dir)();
    // The same on another host (another container: its pid means nothing here) is refused.
    mkdirSync(path.join(dir, "db.lock"));
    writeFileSync(path.join(dir, "db.lock.holder"), `pid ${deadPid} on another-container`);
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUseError);
  });

  it("takes over a lock its holder stopped refreshing (a crash, a copied directory)", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "db.lock"));
    writeFileSync(path.join(dir, "db.lock.holder"), "pid 1 on elsewhere");
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(dir, "db.lock"), old, old);
    const release = lockDataDirectory(dir);
    release();
  });
});
