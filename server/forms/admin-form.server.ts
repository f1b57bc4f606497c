import { log } from "../log.server.ts";
import { failure, readPostedForm } from "./form-post.server.ts";

/**
 * The admin screens' actions (payments, inquiries, newsletter), one shape: the posted form is read
 * like every other; its `intent` picks the handler (any other is 400); anything refused or failed
 * is answered with the screen's error toast text. Not a readable form: 400 (413 when too large).
 */

export type AdminForm = { ok: true; form: FormData } | { ok: false; status: 400 | 413 };

export async function readAdminForm(request: Request): Promise<AdminForm> {
  const posted = await readPostedForm(request);
  if (!posted.ok) return { ok: false, status: posted.status === 413 ? 413 : 400 };
  return { ok: true, form: posted.formData };
}

/** Answers a refused post with the screen's message (or `message`). */
export type Refuse = (status: number, message?: string) => ReturnType<typeof failure>;

export type AdminIntent = (form: FormData, refuse: Refuse) => Promise<unknown>;

export async function adminFormAction<H extends Record<string, AdminIntent>>(
  request: Request,
  screen: { name: string; failureMessage: string },
  intents: H,
): Promise<Awaited<ReturnType<H[keyof H]>> | ReturnType<typeof failure>> {
  const posted = await readAdminForm(request);
  const value = posted.ok ? posted.form.get("intent") : null;
  const intent = typeof value === "string" ? value : "";
  const refuse: Refuse = (status, message = screen.failureMessage) =>
    failure(status, { form: intent, formData: null, names: [], message });
  if (!posted.ok) return refuse(posted.status);
  const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (!handler) return refuse(400);
  try {
    return (await handler(posted.form, refuse)) as Awaited<ReturnType<H[keyof H]>>;
  } catch (error) {
    log.error({ err: error, screen: screen.name, intent }, "admin action failed");
    return refuse(500);
  }
}
