import { readPostedForm } from "./form-post.server.ts";

/**
 * An admin screen's posted form (payments, inquiries, newsletter), read like every other form.
 * Anything that is not a readable form is the client's mistake: 400 (413 when too large),
 * answered with the screen's own error message.
 */

export type AdminForm = { ok: true; form: FormData } | { ok: false; status: 400 | 413 };

export async function readAdminForm(request: Request): Promise<AdminForm> {
  const posted = await readPostedForm(request);
  if (!posted.ok) return { ok: false, status: posted.status === 413 ? 413 : 400 };
  return { ok: true, form: posted.formData };
}
