import { DeleteObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { MediaStorageConfig } from "../config.server.ts";
import { mediaKey, parseMediaKey, type MediaFolder, type MediaStorage } from "./media.server.ts";

/** Media in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, …), read from S3_PUBLIC_URL. */

export function s3MediaStorage(
  settings: Extract<MediaStorageConfig, { kind: "s3" }>,
): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    // Custom endpoints (MinIO, R2, …) address buckets by path; AWS itself by host name.
    forcePathStyle: Boolean(settings.endpoint),
    credentials: settings.credentials,
  });
  const prefix = `${settings.publicUrl}/`;
  return {
    async put(folder: MediaFolder, name: string, bytes: Uint8Array, contentType: string) {
      const key = mediaKey(folder, name);
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          CacheControl: "public, max-age=31536000, immutable",
        }),
      );
      return `${prefix}${key}`;
    },
    async delete(url: string) {
      if (!url.startsWith(prefix)) return;
      const { folder, name } = parseMediaKey(url.slice(prefix.length));
      await client.send(
        new DeleteObjectCommand({ Bucket: settings.bucket, Key: mediaKey(folder, name) }),
      );
    },
  };
}
