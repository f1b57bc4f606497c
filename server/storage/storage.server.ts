import { config } from "../config.server.ts";
import type { MediaStorage } from "./media.server.ts";

/**
 * Where uploaded images live (decision 0006: one bucket, folders thumbnails/ and logos/, trainers'
 * photos/; the editor's pictures go to content/). The rows store the public URL `put` returns. Two
 * implementations: local disk under DATA_DIR/media served at /media/*, or an S3-compatible bucket.
 */

let current: MediaStorage | undefined;

/** The configured storage (created on first use). */
export async function mediaStorage(): Promise<MediaStorage> {
  if (current) return current;
  const media = config.media;
  if (media.kind === "s3") {
    const { s3MediaStorage } = await import("./s3.server.ts");
    current = s3MediaStorage(media);
  } else {
    const { localMediaStorage } = await import("./local.server.ts");
    current = localMediaStorage(media.dir);
  }
  return current;
}

/** Replaces the storage (tests point it at a temporary folder or a fake bucket). */
export function useMediaStorage(storage: MediaStorage | undefined): void {
  current = storage;
}
