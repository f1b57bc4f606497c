import { z } from "zod";
import { parseForm } from "#app/lib/forms.ts";
import { log } from "../log.server.ts";
import { failure, success } from "./form-post.server.ts";

/**
 * The Release and Delete buttons of suspected spam on an admin screen (decision 0012): the
 * screen's action hands over its already-read form when `intent` is release or delete. The id
 * must be a UUID (else 400); a row that is not held (or gone) is 404; each answer carries the
 * screen's toast text.
 */

const idSchema = z.object({ id: z.uuid() });

export interface SuspectedSpamOperations {
  /** Clears the mark and sends what was held; null when no such held row. */
  release: (id: string) => Promise<unknown>;
  /** Deletes a held row; false when no such held row. */
  remove: (id: string) => Promise<boolean>;
  messages: {
    released: string;
    deleted: string;
    releaseFailed: string;
    deleteFailed: string;
  };
}

export function isSuspectedSpamIntent(intent: string): intent is "release" | "delete" {
  return intent === "release" || intent === "delete";
}

export async function suspectedSpamAction(
  intent: "release" | "delete",
  form: FormData,
  ops: SuspectedSpamOperations,
) {
  const message = intent === "release" ? ops.messages.releaseFailed : ops.messages.deleteFailed;
  const failed = (status: number) =>
    failure(status, { form: intent, formData: null, names: [], message });
  const parsed = parseForm(form, idSchema);
  if (!parsed.ok) return failed(400);
  try {
    const done =
      intent === "release"
        ? (await ops.release(parsed.value.id)) !== null
        : await ops.remove(parsed.value.id);
    if (!done) return failed(404);
  } catch (error) {
    log.error({ err: error, intent }, "admin: suspected spam action failed");
    return failed(500);
  }
  return success(intent, intent === "release" ? ops.messages.released : ops.messages.deleted);
}
