import { data, type ActionFunctionArgs } from "react-router";
import type { FormResult } from "#app/lib/inquiries/schemas.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { clientAddress, hitRateLimit, honeypotMark } from "../abuse.server.ts";
import { logFailure } from "../db/errors.server.ts";
import { failure, rateLimited } from "./form-post.server.ts";
import { SUBMISSION_IN_PROGRESS, submitOnce } from "./submit-once.server.ts";

/**
 * What the site's public forms (enquiries, newsletter) do around their own work once the post is
 * read and the form known, so each form's action says only what is its own: one result per
 * submission, the client's rate limit for that form, the honeypot's mark, and an answer with the
 * form's message (never an error page) when saving fails.
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

/** A form action's answer as React Router's `data()` makes it. */
interface DataAnswer {
  data: unknown;
  init: ResponseInit | null;
}

function isDataAnswer(value: unknown): value is DataAnswer {
  return typeof value === "object" && value !== null && "data" in value && "init" in value;
}

export async function answerPublicForm<Answer>(
  form: PublicForm,
  formData: FormData,
  context: ActionFunctionArgs["context"],
  save: (suspected: SpamReason | null) => Promise<Answer>,
): Promise<Answer | ReturnType<typeof failure>> {
  try {
    // Once per submission: a repeated post gets the first one's answer (submit-once.server.ts).
    const once = await submitOnce(
      form.name,
      formData,
      async () => {
        const limit = await hitRateLimit(`form:${form.name}`, clientAddress(context));
        if (!limit.allowed) return rateLimited(form.name, formData, form.names, limit.retryAfter);
        // Honeypot filled: checked and stored like any post, but marked and held with no
        // e-mails (decision 0012), so the usual answer is true.
        return await save(honeypotMark(formData));
      },
      {
        keep: (answer) => isDataAnswer(answer) && (answer.init?.status ?? 200) === 200,
        store: (answer) => (answer as DataAnswer).data,
      },
    );
    if (once.kind === "first") return once.answer;
    if (once.kind === "repeat") {
      // The data of this form's own first answer (kept only when it was a saved one, 200).
      return data(once.stored, { status: 200, headers: { "Cache-Control": "no-store" } }) as Answer;
    }
    return failure(409, {
      form: form.name,
      formData,
      names: form.names,
      reason: "conflict",
      message: SUBMISSION_IN_PROGRESS,
    });
  } catch (error) {
    logFailure(error, { form: form.name }, form.failureLog);
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
