import { formatPaths, parse } from "@conform-to/dom";
import { isRouteErrorResponse } from "react-router";
import { safeParse, type $ZodError, type $ZodType, type output } from "zod/v4/core";

/**
 * The one pipeline every form of the site goes through, on both sides:
 * - `parseForm`: Conform's parser turns the posted fields into the value the form's zod schema
 *   checks (`students[0].email` becomes `students: [{ email }]`); the browser runs it before
 *   posting and the server on the posted body (after `readPostedForm`), and only the server's
 *   answer counts;
 * - `FormAnswer`: what every form action answers, and what the page turns into field messages
 *   and a toast (`useFormAnswer` in app/components/forms/use-form-answer.ts).
 * Safe on both sides: no server imports here.
 */

/**
 * The hidden field that names one submission of a form (server/forms/submit-once.server.ts): a
 * repeated post with the same key gets the first post's answer and creates nothing new.
 */
export const SUBMISSION_KEY_FIELD = "submission_key";

export function isSubmissionKey(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(value);
}

/** A new submission key: 128 random bits as hex (getRandomValues works on plain http too). */
export function newSubmissionKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Field name (as posted, e.g. `students[1].email`) → its first message. */
export type FieldErrors = Record<string, string>;

/** Why a post failed: what the form shows differs (field messages, a limit, a network error). */
export type FailureReason =
  | "invalid"
  | "rate_limited"
  | "duplicate"
  | "not_found"
  | "conflict"
  | "too_large"
  | "error"
  /** Set in the browser: the answer never came (connection lost, proxy error page). */
  | "network";

export type FormFailure = {
  ok: false;
  /** Which form answered (e.g. "enquiry", "checkout", "save"); null when the post named none. */
  form: string | null;
  /** Which instance of the form on the page (no-JavaScript answers are matched by it). */
  formId?: string;
  reason: FailureReason;
  /** The toast's title, when the form's usual one does not fit (the checkout's). */
  title?: string;
  message?: string;
  fieldErrors: FieldErrors;
  /** What was typed, shown again after a failed post without JavaScript. */
  values?: Record<string, string>;
};

export type FormSuccess<Extra extends object = object> = {
  ok: true;
  form: string;
  formId?: string;
  message?: string;
} & Extra;

/** A form's extra fields (`Extra`) are on its success, and may be on its failure. */
export type FormAnswer<Extra extends object = object> =
  FormSuccess<Extra> | (FormFailure & Partial<Extra>);

/** Whether an action's data is a form's answer (a page's action data can be anything). */
export function isFormAnswer(value: unknown): value is FormAnswer {
  return (
    typeof value === "object" &&
    value !== null &&
    "ok" in value &&
    typeof value.ok === "boolean" &&
    "form" in value &&
    (typeof value.form === "string" || value.form === null)
  );
}

/** The answer the browser gives itself when the server's never arrived. */
export const NETWORK_MESSAGE =
  "We could not reach the server. Please check your connection and try again.";

const UNREADABLE = "The form could not be read. Please try again.";

/** Lists longer than this are refused before the schema sees them (a posted index sets length). */
const MAX_LIST = 100;

export type ParsedForm<S extends $ZodType> =
  { ok: true; value: output<S> } | { ok: false; fieldErrors: FieldErrors };

/** Checks a form's fields with its schema: the value, or the first message of each field. */
export function parseForm<S extends $ZodType>(formData: FormData, schema: S): ParsedForm<S> {
  // Conform skips the schema for its own intents (a posted `__intent__`): never a valid post here.
  let parsed: ParsedForm<S> = { ok: false, fieldErrors: { form: UNREADABLE } };
  try {
    parse(formData, {
      resolve(payload) {
        if (!withinListLimit(payload)) return { error: {} };
        const result = safeParse(schema, payload);
        parsed = result.success
          ? { ok: true, value: result.data }
          : { ok: false, fieldErrors: fieldErrorsOf(result.error) };
        return result.success ? { value: result.data } : { error: {} };
      },
    });
  } catch {
    // Conform refuses its own reserved names when they are malformed: not a form we sent.
    return { ok: false, fieldErrors: { form: UNREADABLE } };
  }
  return parsed;
}

/** The first message of each field, named as it is posted (`students[0].email`). */
export function fieldErrorsOf(error: $ZodError): FieldErrors {
  const found: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    found[path.length ? formatPaths(path) : "form"] ??= issue.message;
  }
  return found;
}

function withinListLimit(value: unknown, depth = 0): boolean {
  if (depth > 8) return false;
  if (Array.isArray(value)) {
    return value.length <= MAX_LIST && value.every((v) => withinListLimit(v, depth + 1));
  }
  if (value !== null && typeof value === "object" && !(value instanceof Blob)) {
    return Object.values(value).every((v) => withinListLimit(v, depth + 1));
  }
  return true;
}

/** What a form echoes back after a failed post without JavaScript, so nothing typed is lost. */
export function echoValues(
  formData: FormData,
  names: readonly string[] | "all",
  max = 5100,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of formData) {
    if (names !== "all" && !names.includes(name)) continue;
    if (typeof value === "string" && !(name in values)) values[name] = value.slice(0, max);
  }
  return values;
}

/**
 * The browser's check of a form about to post, with the schema the server runs: every form's
 * `onSubmit`. With messages (the schema's, plus `extra` ones the schema cannot see), the post is
 * stopped, focus goes to the first field named and the messages are returned; null: it may go.
 */
export function checkBeforePost(
  event: { currentTarget: HTMLFormElement; preventDefault(): void },
  schema: $ZodType,
  extra: FieldErrors = {},
): FieldErrors | null {
  const form = event.currentTarget;
  const parsed = parseForm(new FormData(form), schema);
  const errors = { ...(parsed.ok ? {} : parsed.fieldErrors), ...extra };
  if (Object.keys(errors).length === 0) return null;
  event.preventDefault();
  focusFirstInvalid(form, errors);
  return errors;
}

/** Moves focus to the first control the messages name (in the form's order), if any. */
export function focusFirstInvalid(form: HTMLFormElement | null, errors: FieldErrors): void {
  if (!form) return;
  for (const element of Array.from(form.elements)) {
    const name = (element as HTMLInputElement).name;
    if (
      name &&
      name in errors &&
      element instanceof HTMLElement &&
      (element as HTMLInputElement).type !== "hidden"
    ) {
      element.focus();
      return;
    }
  }
}

/**
 * Every route with a form exports this as its `clientAction`: the post goes to the server as
 * usual; if no answer comes back (the connection dropped, a proxy's error page, a server error)
 * the form gets a failed answer instead of the page turning into an error page, so what was
 * typed stays where it is and the form shows its usual error toast. What the server threw on
 * purpose (a course that is gone) and redirects still go through.
 */
export async function keepFormOnFailure<T>({
  request,
  serverAction,
}: {
  request: Request;
  serverAction: () => Promise<T>;
}): Promise<T | FormFailure> {
  const sent = await request
    .clone()
    .formData()
    .catch(() => null);
  try {
    return await serverAction();
  } catch (error) {
    if (error instanceof Response) throw error;
    if (isRouteErrorResponse(error) && typeof error.data !== "string") throw error;
    const name = sent?.get("form") ?? sent?.get("intent");
    const formId = sent?.get("form_id");
    const answer: FormFailure = {
      ok: false,
      form: typeof name === "string" ? name : null,
      formId: typeof formId === "string" ? formId : undefined,
      reason: "network",
      message: NETWORK_MESSAGE,
      fieldErrors: {},
    };
    return answer;
  }
}
