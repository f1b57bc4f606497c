import type { $ZodType } from "zod/v4/core";
import { IMAGE_TOO_LARGE } from "#app/lib/admin/image-upload.ts";
import type { AdminScreen, Refuse } from "./admin-form.server.ts";
import { withSchema } from "./form-action.server.ts";
import { failure, FORM_UNREADABLE, success } from "./form-post.server.ts";
import type { AuditActor } from "../audit.server.ts";
import { InvalidInputError } from "../catalogue/write.server.ts";
import { isUuid } from "../db/sql.server.ts";
import { logFailure } from "../db/errors.server.ts";
import { FORM_BODY_LIMIT, UploadError } from "../uploads.server.ts";

/**
 * The course, category and partner screens as an admin screen (`adminFormAction`): `save`
 * (create without `id`, update with it) after the form's zod schema, and `delete`. A post that
 * names no intent saves. Bad input comes back as messages per field with nothing saved; every
 * outcome carries the screen's toast text. Each change is written to the audit log as the
 * admin's, in the change's transaction.
 */

export interface CatalogueFormSpec<Values> {
  /** For the log: 'course', 'category', 'partner'. */
  entity: string;
  schema: $ZodType<Values, unknown>;
  /** The form's image input, where an upload refusal is shown. */
  imageField?: string;
  /**
   * Fields a refused save sends back as typed, for a screen whose form also works without
   * JavaScript (the page shows them again); the others' dialogs keep what was typed themselves.
   */
  keepTyped?: readonly string[];
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

/** The posted `id`: '' when adding, null when it is not a UUID (refused). */
function postedId(form: FormData): string | null {
  const id = String(form.get("id") ?? "").trim();
  return id === "" || isUuid(id) ? id : null;
}

export function catalogueForm<Values>(actor: AuditActor, spec: CatalogueFormSpec<Values>) {
  const { messages } = spec;
  const imageErrors = (message: string) =>
    spec.imageField ? { [spec.imageField]: message } : undefined;
  const screen: AdminScreen = {
    name: spec.entity,
    failureMessage: messages.saveFailed,
    defaultIntent: "save",
    maxBytes: FORM_BODY_LIMIT,
    tooLarge: IMAGE_TOO_LARGE,
    unreadable: (refusal) =>
      // Not a form at all is the client's mistake like any other: 400, as on every admin screen.
      refusal.status === 413
        ? refuseSave(413, refusal.message, imageErrors(refusal.message))
        : refuseSave(400, FORM_UNREADABLE),
  };
  const intents = {
    delete: async (form: FormData, refuse: Refuse) => {
      const id = postedId(form);
      if (id === null) return refuse(400, messages.deleteFailed);
      try {
        if (id && (await spec.remove(id, actor))) return success("delete", messages.deleted);
        return refuse(404, messages.deleteFailed);
      } catch (error) {
        logFailure(error, { entity: spec.entity, id }, "admin delete failed");
        return refuse(500, messages.deleteFailed);
      }
    },
    save: async (form: FormData, screenRefuse: Refuse) => {
      const keep = spec.keepTyped;
      const refuse: Refuse = keep
        ? (status, message = messages.saveFailed, fieldErrors) =>
            failure(status, { form: "save", formData: form, names: keep, message, fieldErrors })
        : screenRefuse;
      const id = postedId(form);
      if (id === null) return refuse(400);
      return withSchema(
        spec.schema,
        (fieldErrors) => refuse(400, messages.saveFailed, fieldErrors),
        (values) => save(id, values, refuse),
      )(form);
    },
  };

  async function save(id: string, values: Values, refuse: Refuse) {
    try {
      if (!id) {
        await spec.create(values, actor);
        return success("save", messages.created);
      }
      if ((await spec.update(id, values, actor)) === null) return refuse(404);
      return success("save", messages.updated);
    } catch (error) {
      if (error instanceof InvalidInputError) return refuse(400, messages.saveFailed, error.errors);
      if (error instanceof UploadError) {
        // A non-image is answered 'Please select an image file' (as the toast, too).
        return refuse(error.status, error.message, imageErrors(error.message));
      }
      logFailure(error, { entity: spec.entity, id: id || undefined }, "admin save failed");
      return refuse(500);
    }
  }

  return { screen, intents };
}

/** A refusal before the intent is known: the catalogue forms' default, `save`. */
function refuseSave(status: number, message: string, fieldErrors?: Record<string, string>) {
  return failure(status, { form: "save", formData: null, names: [], message, fieldErrors });
}
