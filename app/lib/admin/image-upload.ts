/**
 * Image upload rules shared by the admin forms, the rich-text editor and the server. The browser
 * checks these to answer early; the server checks them again and, above all, reads the file's
 * first bytes (server/media.server.ts): the name and declared type are only hints.
 */

/** The size cap for one image (thumbnails, logos, pictures in course content). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The answer for anything that is not a raster image (SVG included: it can carry script). */
export const NOT_AN_IMAGE = "Please select an image file";
export const IMAGE_TOO_LARGE = "The image is larger than 5 MB. Please choose a smaller file.";

/** The editor's picker: png, gif, jpeg, bmp, ico. */
export const EDITOR_IMAGE_ACCEPT =
  "image/png,image/gif,image/jpeg,image/bmp,image/x-icon,image/vnd.microsoft.icon";

/** Thumbnails and logos: the same types, plus WebP. Never SVG. */
export const IMAGE_ACCEPT = `${EDITOR_IMAGE_ACCEPT},image/webp`;

/** Field name of the single file the media API accepts. */
export const MEDIA_FILE_FIELD = "file";

/** What a declared type says. Unknown ('' or generic bytes) is left to the server's byte check. */
export function declaredTypeIsImage(type: string): boolean {
  const t = type.toLowerCase();
  if (t === "" || t === "application/octet-stream") return true;
  return t.startsWith("image/") && !t.startsWith("image/svg");
}

/** A form's file input: nothing chosen → null; otherwise the browser's hints must look right. */
export function checkImageFile(file: File | null | undefined): string | null {
  if (!file || (file.size === 0 && file.name === "")) return null;
  if (!declaredTypeIsImage(file.type)) return NOT_AN_IMAGE;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_TOO_LARGE;
  if (file.size === 0) return NOT_AN_IMAGE;
  return null;
}
