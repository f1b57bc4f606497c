import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";
import { localMediaStorage } from "#server/storage/local.server.ts";
import { useMediaStorage } from "#server/storage/storage.server.ts";

/**
 * Uploads in server tests go to a temporary folder of their own, made before each test and
 * removed after it. Returns the folder's current path.
 */
export function useTemporaryMediaStorage(prefix: string): () => string {
  let mediaDir: string;
  beforeEach(() => {
    mediaDir = mkdtempSync(path.join(tmpdir(), prefix));
    useMediaStorage(localMediaStorage(mediaDir));
  });
  afterEach(() => {
    useMediaStorage(undefined);
    rmSync(mediaDir, { recursive: true, force: true });
  });
  return () => mediaDir;
}
