import type { $ZodType, output } from "zod/v4/core";
import { parseForm, type FieldErrors } from "#app/lib/forms.ts";
import {
  readPostedForm,
  unreadable,
  type FailureAnswer,
  type PostRefusal,
} from "./form-post.server.ts";

/**
 * The one action frame of every form of the site — public, admin, sign-in and checkout
 * (decisions 0011 and 0027): read the posted form (size cap, `readPostedForm`), pick the handler
 * by the post's intent where a screen has several, check the fields with the form's zod schema,
 * and answer a `FormAnswer` (app/lib/forms.ts). The layers above it add only what is their own:
 * the public forms' rate limit and honeypot (`answerPublicForm`), the admin screens' toast texts
 * and error answer (`adminFormAction`).
 */

export interface FormFrame<Refusal = FailureAnswer> {
  /** The answer's `form` when the post cannot be read at all. */
  form: string | null;
  /** The size cap (by default `MAX_FORM_BYTES`) and what a post over it is told. */
  maxBytes?: number;
  tooLarge?: string;
  /** The answer to a body that is not a readable form; by default `unreadable(form, refusal)`. */
  unreadable?: (refusal: PostRefusal) => Refusal;
}

/** Reads the posted form and hands it to `handle`; a post that cannot be read is answered here. */
export async function formAction<Answer, Refusal = FailureAnswer>(
  request: Request,
  frame: FormFrame<Refusal>,
  handle: (formData: FormData) => Promise<Answer>,
): Promise<Answer | Refusal | FailureAnswer> {
  const posted = await readPostedForm(request, {
    maxBytes: frame.maxBytes,
    tooLarge: frame.tooLarge,
  });
  if (!posted.ok) {
    return frame.unreadable ? frame.unreadable(posted) : unreadable(frame.form, posted);
  }
  return handle(posted.formData);
}

/**
 * A form's fields checked with its schema: `submit` gets the value, `invalid` the first message
 * of each field. The browser runs the same schema before posting; this check is the one that
 * counts.
 */
export function withSchema<S extends $ZodType, Answer, Refusal>(
  schema: S,
  invalid: (fieldErrors: FieldErrors, formData: FormData) => Refusal,
  submit: (value: output<S>, formData: FormData) => Promise<Answer>,
): (formData: FormData) => Promise<Answer | Refusal> {
  return async (formData) => {
    const parsed = parseForm(formData, schema);
    return parsed.ok ? submit(parsed.value, formData) : invalid(parsed.fieldErrors, formData);
  };
}

/** The handlers of a screen's intents, each with its own answer. */
export type Intents<Answers, Extra extends unknown[] = []> = {
  [K in keyof Answers]: (formData: FormData, ...extra: Extra) => Promise<Answers[K]>;
};

/**
 * Which intent a post asks for (the `intent` field): `fallback` when it names none; a field
 * that is not text (a file) names no intent the screen knows.
 */
export function intentOf(formData: FormData, fallback = "", field = "intent"): string {
  const value = formData.get(field);
  if (value === null) return fallback;
  return typeof value === "string" ? value : "";
}

/** Whether the screen has a handler for `intent` (its own keys only, never `toString` & co.). */
export function isIntent<Answers, Extra extends unknown[]>(
  intents: Intents<Answers, Extra>,
  intent: string,
): intent is Extract<keyof Answers, string> {
  return Object.hasOwn(intents, intent);
}
