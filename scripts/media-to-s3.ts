import { config } from "#server/config.server.ts";
import { s3MediaStorage } from "#server/storage/s3.server.ts";
import { moveLocalMedia } from "#server/storage/move-media.server.ts";
import path from "node:path";
import { withDatabase } from "./cli.ts";

/**
 * npm run media:to-s3 — moves the images uploaded to this instance's disk (DATA_DIR/media) into
 * the bucket S3_BUCKET names, and points the courses and partners at them there. Run it once,
 * with the S3_* settings of the instances that will serve the site (on the embedded database,
 * with the site stopped). The local files are left in place.
 */
await withDatabase(async () => {
  if (config.media.kind !== "s3") {
    return "S3_BUCKET (with S3_PUBLIC_URL and credentials) is not set: there is nowhere to move the images to.";
  }
  const localDir = path.join(config.dataDir, "media");
  const moved = await moveLocalMedia(localDir, s3MediaStorage(config.media));
  return (
    `Moved ${moved.files} ${moved.files === 1 ? "file" : "files"} from ${localDir} to ${config.media.publicUrl}; ` +
    `updated ${moved.thumbnails} course thumbnails, ${moved.logos} partner logos, ${moved.photos} trainer photos and the content of ${moved.contents} courses.`
  );
});
