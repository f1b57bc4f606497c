import { data } from "react-router";
import {
  echoValues,
  type FieldErrors,
  type FormFailure,
  type FormSuccess,
} from "#app/lib/forms.ts";
import { FORM_ID_FIELD } from "#app/lib/inquiries/schemas.ts";
import { RATE_LIMIT_MESSAGE } from "../abuse.server.ts";

/**
 * The one way a posted form is read, for every form of the site (public, checkout, admin):
 * urlencoded or multipart only, a size cap checked before and while reading, and no NUL byte in
 * any field name or text value (PostgreSQL text cannot hold one). Never throws: a body that is
 * not a readable form is a 4xx answer with a message the form shows, never a server error.
 */

/** Generous for the longest allowed message, even fully percent-encoded; more is refused unread. */
export const MAX_FORM_BYTES = 128 * 1024;

export type PostRefusal = { ok: false; status: 400 | 413 | 415; message: string };
export type PostedForm = { ok: true; formData: FormData } | PostRefusal;

/** A failed post's answer, as every action returns it. */
export type FailureAnswer = ReturnType<typeof failure>;

export const FORM_TOO_LARGE =
  "The form is too large to send. Please shorten your message and try again.";
export const FORM_UNREADABLE = "The form could not be read. Please try again.";
const NOT_A_FORM = "Please send the form from the website.";

export async function readPostedForm(
  request: Request,
  {
    maxBytes = MAX_FORM_BYTES,
    tooLarge = FORM_TOO_LARGE,
  }: { maxBytes?: number; tooLarge?: string } = {},
): Promise<PostedForm> {
  // The multipart boundary is case-sensitive: only the media type is compared lower-cased.
  const contentType = request.headers.get("content-type") ?? "";
  const type = contentType.toLowerCase();
  const urlencoded = type.startsWith("application/x-www-form-urlencoded");
  if (!urlencoded && !type.startsWith("multipart/form-data")) {
    return { ok: false, status: 415, message: NOT_A_FORM };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { ok: false, status: 413, message: tooLarge };
  let formData: FormData;
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // The server reads off (within bounds) whatever the client still sends.
        await reader.cancel().catch(() => {});
        return { ok: false, status: 413, message: tooLarge };
      }
      chunks.push(value);
    }
    const body = Buffer.concat(chunks);
    if (urlencoded) {
      formData = new FormData();
      for (const [key, value] of new URLSearchParams(body.toString("utf8"))) {
        formData.append(key, value);
      }
    } else {
      formData = await new Response(body, { headers: { "content-type": contentType } }).formData();
    }
  } catch {
    return { ok: false, status: 400, message: FORM_UNREADABLE };
  }
  if (hasNulByte(formData)) return { ok: false, status: 400, message: FORM_UNREADABLE };
  return { ok: true, formData };
}

/** Whether any field name or text value holds a NUL byte (files may: they are bytes). */
export function hasNulByte(form: FormData): boolean {
  for (const [name, value] of form) {
    if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return true;
  }
  return false;
}

export function formIdOf(formData: FormData | null): string {
  const value = formData?.get(FORM_ID_FIELD);
  return typeof value === "string" ? value.slice(0, 100) : "";
}

/** A failed post: status, reason, messages, and the visitor's values to show again. */
export function failure(
  status: number,
  fields: {
    form: string | null;
    formData: FormData | null;
    names: readonly string[] | "all";
    /** By default, what the status says. */
    reason?: FormFailure["reason"];
    fieldErrors?: FieldErrors;
    title?: string;
    message?: string;
  },
  headers?: HeadersInit,
) {
  const answer: FormFailure = {
    ok: false,
    form: fields.form,
    formId: formIdOf(fields.formData),
    reason: fields.reason ?? reasonFor(status),
    title: fields.title,
    fieldErrors: fields.fieldErrors ?? {},
    message: fields.message,
    values: fields.formData ? echoValues(fields.formData, fields.names) : {},
  };
  return data(answer, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

function reasonFor(status: number): FormFailure["reason"] {
  switch (status) {
    case 400:
    case 415:
      return "invalid";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 413:
      return "too_large";
    case 429:
      return "rate_limited";
    default:
      return "error";
  }
}

/** A post that did what it asked; `message` is the toast's text where the screen shows one. */
/** An answer with its status and headers, as `data()` makes it. */
type Answer<T> = ReturnType<typeof data<T>>;

export function success(form: string, message?: string): Answer<FormSuccess>;
export function success<Extra extends object>(
  form: string,
  message: string | undefined,
  extra: Extra,
): Answer<FormSuccess<Extra>>;
export function success(form: string, message?: string, extra: object = {}) {
  const answer: FormSuccess<object> = { ok: true, form, message, ...extra };
  return data(answer, { headers: { "Cache-Control": "no-store" } });
}

/** A post the form's schema refused: 400, a message per field. */
export function invalid(
  form: string,
  formData: FormData,
  names: readonly string[] | "all",
  fieldErrors: FieldErrors,
  message = "Please correct the highlighted fields.",
) {
  return failure(400, { form, formData, names, reason: "invalid", fieldErrors, message });
}

export function rateLimited(
  form: string,
  formData: FormData,
  names: readonly string[] | "all",
  retryAfter: number,
) {
  return failure(
    429,
    { form, formData, names, reason: "rate_limited", message: RATE_LIMIT_MESSAGE },
    { "Retry-After": String(retryAfter) },
  );
}

/** A post that could not be read at all (`readPostedForm`'s refusal), as the form's answer. */
export function unreadable(form: string | null, refusal: PostRefusal) {
  return failure(refusal.status, {
    form,
    formData: null,
    names: [],
    reason: refusal.status === 413 ? "too_large" : "invalid",
    message: refusal.message,
  });
}
