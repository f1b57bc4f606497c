import path from "node:path";
import { z } from "zod";
import { optionalString } from "./fields.server.ts";

/**
 * Where uploaded images go: local disk under DATA_DIR/media, or an S3-compatible bucket. Part of
 * the one settings schema of server/config.server.ts, which reads them from the environment.
 */

export const mediaSettings = {
  // Uploaded images: local disk under DATA_DIR/media unless S3_BUCKET names an S3-compatible
  // bucket. S3_PUBLIC_URL is where the bucket's objects are readable (a CDN or the bucket URL).
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString.pipe(
    z
      .url({ message: "must be an absolute http(s) URL, e.g. https://s3.eu-west-2.amazonaws.com" })
      .optional(),
  ),
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_PUBLIC_URL: optionalString.pipe(
    z
      .url({ message: "must be an absolute http(s) URL, e.g. https://media.example.co.uk" })
      .regex(/^https?:\/\//, "must be an absolute http(s) URL, e.g. https://media.example.co.uk")
      .optional(),
  ),
};

type MediaSettings = z.output<z.ZodObject<typeof mediaSettings>>;

export type MediaStorageConfig =
  | { kind: "local"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      endpoint?: string;
      region: string;
      credentials?: { accessKeyId: string; secretAccessKey: string };
      publicUrl: string;
    };

/** Where uploaded images go. The S3 settings only make sense together: say which one is missing. */
export function mediaStorageConfig(e: MediaSettings & { DATA_DIR: string }): MediaStorageConfig {
  if (!e.S3_BUCKET) return { kind: "local", dir: path.join(path.resolve(e.DATA_DIR), "media") };
  const problems: string[] = [];
  if (!e.S3_PUBLIC_URL) problems.push("S3_PUBLIC_URL: required when S3_BUCKET is set");
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push("S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither");
  }
  if (problems.length) {
    throw new Error(
      `Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}\nSee .env.example.`,
    );
  }
  return {
    kind: "s3",
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    // 'auto' suits Cloudflare R2 and most S3-compatible services; AWS needs the bucket's region.
    region: e.S3_REGION ?? (e.S3_ENDPOINT ? "auto" : "us-east-1"),
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : undefined,
    publicUrl: e.S3_PUBLIC_URL!.replace(/\/+$/, ""),
  };
}
