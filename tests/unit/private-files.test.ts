import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePrivateDir, tightenTree } from "#server/private-files.server.ts";

/** The walk that takes group and other bits off DATA_DIR (decision 0021). */

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tree() {
  const root = mkdtempSync(path.join(os.tmpdir(), "nw-private-"));
  roots.push(root);
  const outside = path.join(root, "outside.txt");
  const data = path.join(root, "data");
  mkdirSync(path.join(data, "db", "base"), { recursive: true });
  writeFileSync(path.join(data, "db", "base", "1"), "x");
  writeFileSync(path.join(data, "run.sh"), "#!/bin/sh\n");
  writeFileSync(outside, "not ours");
  symlinkSync(outside, path.join(data, "link"));
  chmodSync(path.join(data, "db", "base", "1"), 0o666);
  chmodSync(path.join(data, "run.sh"), 0o755);
  chmodSync(outside, 0o644);
  for (const dir of [data, path.join(data, "db"), path.join(data, "db", "base")])
    chmodSync(dir, 0o755);
  return { data, outside };
}

const mode = (file: string) => lstatSync(file).mode & 0o777;

describe("tightenTree", () => {
  it("directories 0700, files keep only their owner's bits, symlinks untouched and not followed", () => {
    const { data, outside } = tree();
    expect(tightenTree(data)).toEqual({ entries: 5, tightened: 5, failed: 0 });
    expect(mode(data)).toBe(0o700);
    expect(mode(path.join(data, "db", "base"))).toBe(0o700);
    expect(mode(path.join(data, "db", "base", "1"))).toBe(0o600);
    expect(mode(path.join(data, "run.sh"))).toBe(0o700);
    // The link's target is outside DATA_DIR: left as it was.
    expect(statSync(outside).mode & 0o777).toBe(0o644);
    // A second walk finds nothing to do.
    expect(tightenTree(data)).toEqual({ entries: 5, tightened: 0, failed: 0 });
  });

  it("a missing root is nothing to do; ensurePrivateDir creates 0700 and tightens an existing one", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "nw-private-"));
    roots.push(root);
    expect(tightenTree(path.join(root, "none"))).toEqual({ entries: 0, tightened: 0, failed: 0 });
    const fresh = path.join(root, "a", "b");
    ensurePrivateDir(fresh);
    expect(mode(fresh)).toBe(0o700);
    chmodSync(fresh, 0o775);
    ensurePrivateDir(fresh);
    expect(mode(fresh)).toBe(0o700);
  });
});
