import type { FieldErrors } from "#app/lib/forms.ts";
import { logFailure } from "../db/errors.server.ts";
import { formAction, intentOf, isIntent, type Intents } from "./form-action.server.ts";
import {
  failure,
  readPostedForm,
  type FailureAnswer,
  type PostRefusal,
} from "./form-post.server.ts";

/**
 * Every admin screen's action (payments, orders, inquiries, newsletter, staff, account, and the
 * course, category and partner screens through `catalogueForm`), one shape on the site's one
 * frame (`formAction`): the posted form's `intent` picks the handler (any other is 400); anything
 * refused or failed is answered with the screen's error toast text. Not a readable form: 400
 * (413 when too large). The caller has already checked the admin.
 */

export type AdminForm = { ok: true; form: FormData } | { ok: false; status: 400 | 413 };

export async function readAdminForm(request: Request): Promise<AdminForm> {
  const posted = await readPostedForm(request);
  if (!posted.ok) return { ok: false, status: posted.status === 413 ? 413 : 400 };
  return { ok: true, form: posted.formData };
}

/** Answers a refused post with the screen's message (or `message`), and messages by the fields. */
export type Refuse = (status: number, message?: string, fieldErrors?: FieldErrors) => FailureAnswer;

export type AdminIntent = (form: FormData, refuse: Refuse) => Promise<unknown>;

export interface AdminScreen {
  /** For the log. */
  name: string;
  /** The toast's text when a post is refused or fails, unless the handler says otherwise. */
  failureMessage: string;
  /** The intent of a post that names none (the catalogue forms post `save` by default). */
  defaultIntent?: string;
  /** A larger cap for screens that upload files, and what a post over it is told. */
  maxBytes?: number;
  tooLarge?: string;
  /** The answer to a body that is not a readable form, when the screen's differs. */
  unreadable?: (refusal: PostRefusal) => FailureAnswer;
}

export async function adminFormAction<Answers>(
  request: Request,
  screen: AdminScreen,
  intents: Intents<Answers, [refuse: Refuse]>,
): Promise<Answers[keyof Answers] | FailureAnswer> {
  let intent = "";
  const refuse: Refuse = (status, message = screen.failureMessage, fieldErrors) =>
    failure(status, { form: intent, formData: null, names: [], message, fieldErrors });
  const frame = {
    form: intent,
    maxBytes: screen.maxBytes,
    tooLarge: screen.tooLarge,
    unreadable:
      screen.unreadable ?? ((refusal: PostRefusal) => refuse(refusal.status === 413 ? 413 : 400)),
  };
  return formAction(request, frame, async (form) => {
    intent = intentOf(form, screen.defaultIntent);
    if (!isIntent(intents, intent)) return refuse(400);
    try {
      return await intents[intent](form, refuse);
    } catch (error) {
      logFailure(error, { screen: screen.name, intent }, "admin action failed");
      return refuse(500);
    }
  });
}
