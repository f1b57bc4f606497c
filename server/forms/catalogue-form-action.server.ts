import type { z } from "zod";
import { parseForm, type FieldErrors } from "#app/lib/forms.ts";
import { IMAGE_TOO_LARGE } from "#app/lib/image-upload.ts";
import { failure, FORM_UNREADABLE, readPostedForm, success } from "./form-post.server.ts";
import type { AuditActor } from "../audit.server.ts";
import { InvalidInputError } from "../catalogue-write.server.ts";
import { isUuid } from "../db/sql.server.ts";
import { log } from "../log.server.ts";
import { FORM_BODY_LIMIT, UploadError } from "../uploads.server.ts";

/**
 * The one shape of the course, category and partner admin actions: read the posted form (with a
 * size cap), then either save (create without `id`, update with it) after the form's zod schema,
 * or delete. Bad input comes back as messages per field with nothing saved; every outcome carries
 * the toast text of spec §8. The caller has already checked `requireAdmin`, and passes that admin:
 * each change is written to the audit log as theirs, in the change's transaction.
 */

export const INTENT_FIELD = "intent";

export interface CatalogueFormSpec<Values> {
  /** For the log: 'course', 'category', 'partner'. */
  entity: string;
  schema: z.ZodType<Values, unknown>;
  /** The form's image input, where an upload refusal is shown. */
  imageField?: string;
  messages: {
    created: string;
    updated: string;
    deleted: string;
    saveFailed: string;
    deleteFailed: string;
  };
  create(values: Values, actor: AuditActor): Promise<unknown>;
  update(id: string, values: Values, actor: AuditActor): Promise<unknown | null>;
  remove(id: string, actor: AuditActor): Promise<boolean>;
}

/** A refused admin post: the screen's toast text, and messages next to the fields if any. */
function refuse(status: number, form: string, message: string, fieldErrors?: FieldErrors) {
  return failure(status, { form, formData: null, names: [], message, fieldErrors });
}

export async function catalogueFormAction<Values>(
  request: Request,
  actor: AuditActor,
  spec: CatalogueFormSpec<Values>,
) {
  const { messages } = spec;
  const posted = await readPostedForm(request, {
    maxBytes: FORM_BODY_LIMIT,
    tooLarge: IMAGE_TOO_LARGE,
  });
  if (!posted.ok) {
    // Not a form at all is the client's mistake like any other: 400, as on every admin screen.
    if (posted.status !== 413) return refuse(400, "save", FORM_UNREADABLE);
    const errors = spec.imageField ? { [spec.imageField]: posted.message } : undefined;
    return refuse(413, "save", posted.message, errors);
  }
  const form = posted.formData;
  const intent = String(form.get(INTENT_FIELD) ?? "save");
  const id = String(form.get("id") ?? "").trim();
  if (id !== "" && !isUuid(id)) {
    return refuse(400, intent, intent === "delete" ? messages.deleteFailed : messages.saveFailed);
  }

  if (intent === "delete") {
    try {
      if (id && (await spec.remove(id, actor))) return success(intent, messages.deleted);
      return refuse(404, intent, messages.deleteFailed);
    } catch (error) {
      log.error({ err: error, entity: spec.entity, id }, "admin delete failed");
      return refuse(500, intent, messages.deleteFailed);
    }
  }
  if (intent !== "save") return refuse(400, intent, messages.saveFailed);

  const parsed = parseForm(form, spec.schema);
  if (!parsed.ok) return refuse(400, intent, messages.saveFailed, parsed.fieldErrors);
  try {
    if (!id) {
      await spec.create(parsed.value, actor);
      return success(intent, messages.created);
    }
    if ((await spec.update(id, parsed.value, actor)) === null) {
      return refuse(404, intent, messages.saveFailed);
    }
    return success(intent, messages.updated);
  } catch (error) {
    if (error instanceof InvalidInputError) {
      return refuse(400, intent, messages.saveFailed, error.errors);
    }
    if (error instanceof UploadError) {
      // Spec §8: a non-image is answered 'Please select an image file' (as the toast, too).
      const errors = spec.imageField ? { [spec.imageField]: error.message } : undefined;
      return refuse(error.status, intent, error.message, errors);
    }
    log.error({ err: error, entity: spec.entity, id: id || undefined }, "admin save failed");
    return refuse(500, intent, messages.saveFailed);
  }
}
