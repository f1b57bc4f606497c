import { readPostedForm } from "./form-post.server.ts";

/**
 * Reading an admin screen's posted form (payments, inquiries, newsletter): a form body
 * (urlencoded or multipart) within the public forms' size cap, with no NUL byte in any field — a
 * PostgreSQL text value cannot hold one. Anything else is the client's mistake: 400 (413 when
 * too large), answered with the screen's own error message.
 */

export type AdminForm = { ok: true; form: FormData } | { ok: false; status: 400 | 413 };

export async function readAdminForm(request: Request): Promise<AdminForm> {
  const posted = await readPostedForm(request);
  if (!posted.ok) return { ok: false, status: posted.status === 413 ? 413 : 400 };
  if (hasNulByte(posted.formData)) return { ok: false, status: 400 };
  return { ok: true, form: posted.formData };
}

/** Whether any field name or text value holds a NUL byte (files may: they are bytes). */
export function hasNulByte(form: FormData): boolean {
  for (const [name, value] of form) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return true;
  }
  return false;
}
