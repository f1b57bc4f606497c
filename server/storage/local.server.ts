import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import express, { type RequestHandler } from "express";
import {
  InvalidMediaPathError,
  LOCAL_MEDIA_URL_PREFIX,
  mediaKey,
  parseMediaKey,
  type MediaFolder,
  type MediaStorage,
} from "./media.server.ts";

/** Media on local disk under DATA_DIR/media, served by the site at /media/<folder>/<name>. */

/** The file for a key, refusing anything that would resolve outside the media folder. */
function fileFor(root: string, folder: string, name: string): string {
  const key = mediaKey(folder, name);
  const file = path.resolve(root, key);
  if (!file.startsWith(path.resolve(root) + path.sep)) throw new InvalidMediaPathError(key);
  return file;
}

export function localMediaStorage(dir: string): MediaStorage {
  const root = path.resolve(dir);
  return {
    async put(folder: MediaFolder, name: string, bytes: Uint8Array) {
      const file = fileFor(root, folder, name);
      // The server's user only, like all of DATA_DIR (decision 0021).
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // 'wx': never replace an existing file (names carry a timestamp and randomness).
      await writeFile(file, bytes, { flag: "wx", mode: 0o600 });
      return `${LOCAL_MEDIA_URL_PREFIX}${folder}/${name}`;
    },
    async delete(url: string) {
      if (!url.startsWith(LOCAL_MEDIA_URL_PREFIX)) return;
      const { folder, name } = parseMediaKey(url.slice(LOCAL_MEDIA_URL_PREFIX.length));
      await rm(fileFor(root, folder, name), { force: true });
    },
  };
}

const SERVED_PATH =
  /^\/(?:thumbnails|logos|photos|content)\/[a-z0-9][a-z0-9_-]{0,150}\.[a-z0-9]{1,8}$/;

/**
 * Serves the media folder (mount at /media). File names never change content, so they are
 * cached for a year. Only paths of the exact folder/name shape reach the disk; the static server
 * below refuses '..' and dot-files as well. Files are served as inert images.
 */
export function serveLocalMedia(dir: string): RequestHandler {
  const files = express.static(path.resolve(dir), {
    immutable: true,
    maxAge: "1y",
    index: false,
    redirect: false,
    dotfiles: "deny",
    fallthrough: true,
    setHeaders(res) {
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
    },
  });
  const notFound = (res: Parameters<RequestHandler>[1]) =>
    res.status(404).type("text/plain").setHeader("Cache-Control", "no-store").send("Not found");
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !SERVED_PATH.test(req.path)) {
      notFound(res);
      return;
    }
    files(req, res, (error?: unknown) => (error ? next(error) : notFound(res)));
  };
}
