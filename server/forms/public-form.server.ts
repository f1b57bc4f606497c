import { data, type ActionFunctionArgs } from "react-router";
import type { FormResult } from "#app/lib/inquiry-schemas.ts";
import type { SpamReason } from "#app/lib/suspected-spam.ts";
import { clientAddress, hitRateLimit, honeypotMark } from "../abuse.server.ts";
import { log } from "../log.server.ts";
import { failure, rateLimited } from "./form-post.server.ts";

/**
 * What the site's public forms (enquiries, newsletter) do around their own work once the post is
 * read and the form known, so each form's action says only what is its own: the client's rate
 * limit for that form, the honeypot's mark, and an answer with the form's message (never an
 * error page) when saving fails.
 */

export interface PublicForm {
  /** The answers' `form`; posts are counted per form and client. */
  name: string;
  /** The fields whose values a failed answer gives back to the form. */
  names: readonly string[];
  /** What the visitor is told when saving fails. */
  failureMessage: string;
  /** What the log says failed. */
  failureLog: string;
}

export async function answerPublicForm<Answer>(
  form: PublicForm,
  formData: FormData,
  context: ActionFunctionArgs["context"],
  save: (suspected: SpamReason | null) => Promise<Answer>,
): Promise<Answer | ReturnType<typeof failure>> {
  try {
    const limit = await hitRateLimit(`form:${form.name}`, clientAddress(context));
    if (!limit.allowed) return rateLimited(form.name, formData, form.names, limit.retryAfter);
    // Honeypot filled: checked and stored like any post, but marked and held with no e-mails
    // (decision 0012), so the usual answer is true.
    return await save(honeypotMark(formData));
  } catch (error) {
    log.error({ err: error, form: form.name }, form.failureLog);
    return failure(500, {
      form: form.name,
      formData,
      names: form.names,
      reason: "error",
      message: form.failureMessage,
    });
  }
}

/** A public form's answer to a post that was saved (never cached). */
export function publicFormSaved(result: FormResult) {
  return data(result, { status: 200, headers: { "Cache-Control": "no-store" } });
}
