/**
 * What every media store shares: the folders, the names we generate, the key a public URL maps
 * to, and the interface the local and S3 stores implement (server/storage/storage.server.ts
 * picks one).
 */

export const MEDIA_FOLDERS = ["thumbnails", "logos", "photos", "content"] as const;

/** Where the local store's files are served: `/media/<folder>/<name>`. */
export const LOCAL_MEDIA_URL_PREFIX = "/media/";
export type MediaFolder = (typeof MEDIA_FOLDERS)[number];

export interface MediaStorage {
  /** Stores the bytes under `folder/name` and returns the public URL. Never overwrites. */
  put(folder: MediaFolder, name: string, bytes: Uint8Array, contentType: string): Promise<string>;
  /**
   * Deletes the object a public URL points at. A URL that is not this storage's (an external
   * image, seed content) is left alone; a URL that claims to be ours but is not a plain
   * `folder/name` key (e.g. '/media/../db') is refused with an error.
   */
  delete(url: string): Promise<void>;
}

/** Names we generate: letters, digits, '-', '_', one dot before the extension. Nothing else. */
const MEDIA_NAME = /^[a-z0-9][a-z0-9_-]{0,150}\.[a-z0-9]{1,8}$/;

export class InvalidMediaPathError extends Error {
  constructor(value: string) {
    super(`Refused media path ${JSON.stringify(value.slice(0, 200))}`);
    this.name = "InvalidMediaPathError";
  }
}

/** `folder/name` for a valid folder and name; throws for anything else (traversal included). */
export function mediaKey(folder: string, name: string): string {
  if (!(MEDIA_FOLDERS as readonly string[]).includes(folder) || !MEDIA_NAME.test(name)) {
    throw new InvalidMediaPathError(`${folder}/${name}`);
  }
  return `${folder}/${name}`;
}

/** Splits a key back into folder and name; throws unless it is exactly one valid folder/name. */
export function parseMediaKey(key: string): { folder: MediaFolder; name: string } {
  const slash = key.indexOf("/");
  const folder = key.slice(0, slash);
  const name = key.slice(slash + 1);
  if (slash < 0) throw new InvalidMediaPathError(key);
  mediaKey(folder, name);
  return { folder: folder as MediaFolder, name };
}
