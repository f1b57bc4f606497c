import { z } from "zod";
import { parseForm } from "#app/lib/forms.ts";
import { logFailure } from "../db/errors.server.ts";
import type { Refuse } from "./admin-form.server.ts";
import { success } from "./form-post.server.ts";

/**
 * The Release and Delete buttons of suspected spam on an admin screen (decision 0012), as intents
 * of the screen's `adminFormAction`. The id must be a UUID (else 400); a row that is not held (or
 * gone) is 404; each answer carries the screen's toast text.
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

/** The screen's `release` and `delete` intents for `adminFormAction`. */
export function suspectedSpamIntents(ops: SuspectedSpamOperations) {
  const intent =
    (done: (id: string) => Promise<boolean>, ok: string, failed: string) =>
    async (form: FormData, refuse: Refuse) => {
      const parsed = parseForm(form, idSchema);
      if (!parsed.ok) return refuse(400, failed);
      try {
        if (!(await done(parsed.value.id))) return refuse(404, failed);
      } catch (error) {
        logFailure(error, {}, "admin: suspected spam action failed");
        return refuse(500, failed);
      }
      return success(form.get("intent") === "release" ? "release" : "delete", ok);
    };
  return {
    release: intent(
      async (id) => (await ops.release(id)) !== null,
      ops.messages.released,
      ops.messages.releaseFailed,
    ),
    delete: intent(ops.remove, ops.messages.deleted, ops.messages.deleteFailed),
  };
}
