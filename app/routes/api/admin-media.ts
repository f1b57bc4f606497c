import type { Route } from "./+types/admin-media";
import {
  IMAGE_TOO_LARGE,
  MAX_IMAGE_BYTES,
  MEDIA_FILE_FIELD,
  NOT_AN_IMAGE,
} from "#app/lib/admin/image-upload.ts";
import { requireAdmin } from "#server/auth/guard.server.ts";
import { readPostedForm } from "#server/forms/form-post.server.ts";
import { storeImage, UploadError } from "#server/uploads.server.ts";

/**
 * POST /api/admin/media: the rich-text editor's picture upload. One image in the `file` field,
 * checked by its bytes and stored in content/; answers `{ url }` (201) or `{ error }`. Admins only
 * (anyone else: 401).
 */

const json = (body: unknown, status: number) =>
  Response.json(body, {
    status,
    headers: { "Cache-Control": "no-store", ...(status === 405 ? { Allow: "POST" } : {}) },
  });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return json({ error: "Use POST to upload an image." }, 405);
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  if (request.method !== "POST") return json({ error: "Use POST to upload an image." }, 405);
  try {
    // Room for one image plus the multipart framing.
    const posted = await readPostedForm(request, {
      maxBytes: MAX_IMAGE_BYTES + 64 * 1024,
      tooLarge: IMAGE_TOO_LARGE,
    });
    if (!posted.ok) return json({ error: posted.message }, posted.status === 413 ? 413 : 400);
    const form = posted.formData;
    const file = form.get(MEDIA_FILE_FIELD);
    if (!(file instanceof File) || file.size === 0) return json({ error: NOT_AN_IMAGE }, 400);
    return json({ url: await storeImage("content", file) }, 201);
  } catch (error) {
    if (error instanceof UploadError) return json({ error: error.message }, error.status);
    throw error;
  }
}
