import { z } from "zod/mini";
import { checkImageFile } from "./admin/image-upload.ts";
import { hasControlChar, toOneLine } from "./text.ts";

/**
 * Pieces the admin catalogue forms (course, category, partner) share. The schemas run in the
 * browser before posting, to show messages next to the fields, and on the server on the posted
 * body; only the server's answer counts. No server imports here.
 */

const tooLong = (max: number) =>
  `Please keep this to ${max.toLocaleString("en-GB")} characters or fewer`;

/** Optional free text: trimmed, empty → null. */
export function optionalText(max: number) {
  return z.pipe(
    z.pipe(
      z.pipe(
        z.optional(z.string()),
        z.transform((v: string | undefined) => (v ?? "").trim()),
      ),
      z.string().check(z.maxLength(max, tooLong(max))),
    ),
    z.transform((v: string) => (v === "" ? null : v)),
  );
}

/**
 * Required one-line text (a title, a name): control characters become a space (as in the public
 * forms), then trimmed, with a message when empty.
 */
export function requiredText(max: number, missing: string) {
  return z.pipe(
    z.pipe(
      z.string({ error: missing }),
      z.transform((v: string) => toOneLine(v).trim()),
    ),
    z.string().check(z.minLength(1, missing), z.maxLength(max, tooLong(max))),
  );
}

export const URL_INVALID = "Please enter a valid URL starting with http:// or https://";

/**
 * An absolute http(s) URL with a host; nothing else (no javascript:, data:, relative paths), and
 * no spaces or control characters: the URL parser would skip a line break, but the public pages
 * (publicUrlOrNull) rightly refuse such a link, so it would vanish from the site once saved.
 */
export function isWebUrl(value: string): boolean {
  if (/\s/.test(value) || hasControlChar(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Optional URL field: empty → null, otherwise an http(s) URL. */
export function optionalUrl(message = URL_INVALID) {
  return optionalText(2000).check(z.refine((v) => v === null || isWebUrl(v), message));
}

export const EMAIL_INVALID = "Please enter a valid email address";

/** Optional e-mail field: empty → null, otherwise an address (stored as typed, trimmed). */
export function optionalEmail() {
  const email = z.email();
  return optionalText(254).check(
    z.refine((v) => v === null || z.safeParse(email, v).success, EMAIL_INVALID),
  );
}

/** A checkbox: present ('on', 'true') → true. */
export const checkbox = z.pipe(
  z.optional(z.union([z.string(), z.boolean()])),
  z.transform((v: string | boolean | undefined) => v === true || v === "on" || v === "true"),
);

/** An optional file input (a File, or nothing / an empty string when none was chosen). */
export const optionalFile = z.pipe(
  z.optional(z.unknown()),
  z.transform((v: unknown) =>
    typeof File !== "undefined" && v instanceof File && !(v.size === 0 && v.name === "") ? v : null,
  ),
);

/** An optional image input: the browser's type hint and the size cap (the server also reads the bytes). */
export const optionalImage = optionalFile.check(
  z.superRefine((file, ctx) => {
    const problem = checkImageFile(file);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
);

/** An id chosen in a select: '', 'none' → null; otherwise a UUID. */
export function optionalId(message: string) {
  const uuid = z.uuid();
  return z
    .pipe(
      z.pipe(
        z.optional(z.string()),
        z.transform((v: string | undefined) => (v ?? "").trim()),
      ),
      z.transform((v: string) => (v === "" || v === "none" ? null : v)),
    )
    .check(z.refine((v) => v === null || z.safeParse(uuid, v).success, message));
}
