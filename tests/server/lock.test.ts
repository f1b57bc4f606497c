import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirectoryInUseError, lockDataDirectory } from "#server/db/lock.server.ts";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "nw-lock-"));

describe("data directory lock", () => {
  it("refuses a second holder while the first is alive, and frees on release", () => {
    const dir = tempDir();
    const release = lockDataDirectory(dir);
    const lockFile = path.join(dir, "db.lock");
    expect(readFileSync(lockFile, "utf8")).toBe(String(process.pid));

    // Another live process holds it: pretend by writing our parent's pid.
    release();
    expect(existsSync(lockFile)).toBe(false);
    writeFileSync(lockFile, String(process.ppid));
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUseError);
    expect(() => lockDataDirectory(dir)).toThrow(/in use by another process \(pid \d+\)/);
  });

  it("takes over a lock left by a process that has died", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "0"]);
    const deadPid = child.pid!;
    await new Promise((resolve) => child.on("exit", resolve));
    writeFileSync(path.join(dir, "db.lock"), String(deadPid));
    const release = lockDataDirectory(dir);
    expect(readFileSync(path.join(dir, "db.lock"), "utf8")).toBe(String(process.pid));
    release();
  });
});
