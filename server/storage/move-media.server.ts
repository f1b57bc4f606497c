import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import { db } from "../db/client.server.ts";
import { coursePartners, courses, trainers } from "../db/schema.ts";
import {
  LOCAL_MEDIA_URL_PREFIX,
  MEDIA_FOLDERS,
  mediaKey,
  type MediaStorage,
} from "./media.server.ts";

/**
 * Moving uploaded images from the local disk (DATA_DIR/media) to another store — an S3-compatible
 * bucket, for several instances (`npm run media:to-s3`): every file is put into the store under
 * its own folder and name, then every place the site points at it — course thumbnails, partner
 * logos, trainer photos, pictures in course content — is pointed at its new address, in one transaction. The local
 * files stay, so the move can be checked (and run again: nothing points at them any more).
 */

const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
  avif: "image/avif",
};

export interface MediaMove {
  files: number;
  thumbnails: number;
  logos: number;
  photos: number;
  contents: number;
}

export async function moveLocalMedia(localDir: string, target: MediaStorage): Promise<MediaMove> {
  const moved = new Map<string, string>();
  for (const folder of MEDIA_FOLDERS) {
    let names: string[];
    try {
      names = await readdir(path.join(localDir, folder));
    } catch {
      continue; // nothing uploaded to this folder
    }
    for (const name of names.sort()) {
      const key = mediaKey(folder, name);
      const bytes = await readFile(path.join(localDir, folder, name));
      const extension = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
      const url = await target.put(
        folder,
        name,
        bytes,
        CONTENT_TYPES[extension] ?? "application/octet-stream",
      );
      moved.set(`${LOCAL_MEDIA_URL_PREFIX}${key}`, url);
    }
  }
  const counts: MediaMove = { files: moved.size, thumbnails: 0, logos: 0, photos: 0, contents: 0 };
  await db().transaction(async (tx) => {
    for (const [from, to] of moved) {
      counts.thumbnails += (
        await tx
          .update(courses)
          .set({ thumbnailUrl: to })
          .where(eq(courses.thumbnailUrl, from))
          .returning({ id: courses.id })
      ).length;
      counts.logos += (
        await tx
          .update(coursePartners)
          .set({ logoUrl: to })
          .where(eq(coursePartners.logoUrl, from))
          .returning({ id: coursePartners.id })
      ).length;
      counts.photos += (
        await tx
          .update(trainers)
          .set({ photoUrl: to })
          .where(eq(trainers.photoUrl, from))
          .returning({ id: trainers.id })
      ).length;
      // A picture in content is `src="/media/content/<name>"`: the quote marks keep a name from
      // matching the start of a longer one.
      counts.contents += (
        await tx
          .update(courses)
          .set({ content: sql`replace(${courses.content}, ${`"${from}"`}, ${`"${to}"`})` })
          .where(like(courses.content, `%"${from}"%`))
          .returning({ id: courses.id })
      ).length;
    }
  });
  return counts;
}
