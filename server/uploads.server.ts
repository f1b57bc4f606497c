import { randomBytes } from "node:crypto";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, NOT_AN_IMAGE } from "#app/lib/admin/image-upload.ts";
import { log } from "./log.server.ts";
import type { MediaFolder } from "./storage/media.server.ts";
import { mediaStorage } from "./storage/storage.server.ts";

/**
 * Image uploads (decision 0006): bodies are read with a size cap, images are recognised
 * by their first bytes (never by name or declared type), SVG is refused because it can carry
 * script, and stored files get names we make: prefix, timestamp, randomness, an extension that
 * matches the content.
 */

/** A refused upload or form body; `message` is shown to the admin. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
    this.name = "UploadError";
  }
}

/** The most an admin form with one image may weigh: the image cap plus room for the text fields. */
export const FORM_BODY_LIMIT = MAX_IMAGE_BYTES + 2 * 1024 * 1024;

export interface ImageType {
  contentType: string;
  /** Extensions for this type, the preferred first. */
  extensions: readonly string[];
}

const PNG: ImageType = { contentType: "image/png", extensions: ["png"] };
const GIF: ImageType = { contentType: "image/gif", extensions: ["gif"] };
const JPEG: ImageType = { contentType: "image/jpeg", extensions: ["jpg", "jpeg"] };
const BMP: ImageType = { contentType: "image/bmp", extensions: ["bmp"] };
const ICO: ImageType = { contentType: "image/x-icon", extensions: ["ico"] };
const WEBP: ImageType = { contentType: "image/webp", extensions: ["webp"] };

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/** BMP DIB header sizes (core, v1–v5): 'BM' alone is too weak a signature. */
const BMP_HEADER_SIZES = new Set([12, 16, 40, 52, 56, 64, 108, 124]);

/** The raster image type the bytes start with, or null (text, SVG, HTML, anything else). */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)
  ) {
    return PNG;
  }
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return GIF;
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return JPEG;
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) {
    const dib = b[14]! | (b[15]! << 8) | (b[16]! << 16) | (b[17]! << 24);
    if (BMP_HEADER_SIZES.has(dib)) return BMP;
  }
  // ICO: reserved 0, type 1, at least one image, each directory entry 16 bytes.
  if (b.length >= 22 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0) {
    const count = b[4]! | (b[5]! << 8);
    if (count > 0 && b.length >= 6 + 16 * count) return ICO;
  }
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return WEBP;
  return null;
}

/** What each folder takes: the editor's picker is png, gif, jpeg, bmp and ico. */
const ACCEPTED: Record<MediaFolder, readonly ImageType[]> = {
  thumbnails: [PNG, GIF, JPEG, BMP, ICO, WEBP],
  logos: [PNG, GIF, JPEG, BMP, ICO, WEBP],
  photos: [PNG, GIF, JPEG, BMP, ICO, WEBP],
  content: [PNG, GIF, JPEG, BMP, ICO],
};

const PREFIX: Record<MediaFolder, string> = {
  thumbnails: "course",
  logos: "partner",
  photos: "trainer",
  content: "content",
};

/**
 * Prefix, timestamp, randomness (two uploads in one millisecond never clash) and the original
 * extension when it names the detected type — otherwise the type's own, so a PNG called
 * 'x.html' is stored as '.png' and served as an image.
 */
export function mediaFileName(folder: MediaFolder, originalName: string, type: ImageType): string {
  const original = /\.([a-z0-9]{1,8})$/i.exec(originalName)?.[1]?.toLowerCase();
  const extension = original && type.extensions.includes(original) ? original : type.extensions[0];
  return `${PREFIX[folder]}-${Date.now()}-${randomBytes(6).toString("hex")}.${extension}`;
}

/** Checks an uploaded file and stores it; returns its public URL. Refusals throw UploadError. */
export async function storeImage(folder: MediaFolder, file: File): Promise<string> {
  if (file.size > MAX_IMAGE_BYTES) throw new UploadError(IMAGE_TOO_LARGE, 413);
  if (file.size === 0) throw new UploadError(NOT_AN_IMAGE);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new UploadError(IMAGE_TOO_LARGE, 413);
  const type = detectImageType(bytes);
  if (!type || !ACCEPTED[folder].includes(type)) throw new UploadError(NOT_AN_IMAGE);
  const storage = await mediaStorage();
  const url = await storage.put(
    folder,
    mediaFileName(folder, file.name, type),
    bytes,
    type.contentType,
  );
  log.info({ folder, url, bytes: bytes.byteLength, type: type.contentType }, "image stored");
  return url;
}

/**
 * Deletes a stored image that is no longer used (replaced, removed, or its row deleted). A
 * failure is logged, not thrown: the row change already happened and must not be undone by it.
 */
export async function discardImage(url: string | null | undefined): Promise<void> {
  if (!url) return;
  try {
    await (await mediaStorage()).delete(url);
  } catch (error) {
    log.warn({ err: error, url }, "could not delete a stored image");
  }
}
