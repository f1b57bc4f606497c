import { data } from "react-router";
import {
  echoValues,
  fieldErrorsOf,
  FORM_ID_FIELD,
  type FieldErrors,
  type FormResult,
} from "#app/lib/inquiry-schemas.ts";
import { RATE_LIMIT_MESSAGE } from "../abuse.server.ts";

/** Reading and answering public form posts, shared by the inquiry and newsletter actions. */

/** Generous for the longest allowed message, even fully percent-encoded; more is refused unread. */
export const MAX_FORM_BYTES = 128 * 1024;

export type PostedForm =
  { ok: true; formData: FormData } | { ok: false; status: 400 | 413 | 415; message: string };

const TOO_LARGE = "The form is too large to send. Please shorten your message and try again.";

/**
 * The request body as FormData, read with a size cap (urlencoded or multipart only). Never
 * throws: a broken body is a 4xx answer, not a server error.
 */
export async function readPostedForm(
  request: Request,
  maxBytes: number = MAX_FORM_BYTES,
): Promise<PostedForm> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  const urlencoded = type.startsWith("application/x-www-form-urlencoded");
  if (!urlencoded && !type.startsWith("multipart/form-data")) {
    return { ok: false, status: 415, message: "Please send the form from the website." };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { ok: false, status: 413, message: TOO_LARGE };
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, status: 413, message: TOO_LARGE };
      }
      chunks.push(value);
    }
    const body = Buffer.concat(chunks);
    if (urlencoded) {
      const formData = new FormData();
      for (const [key, value] of new URLSearchParams(body.toString("utf8"))) {
        formData.append(key, value);
      }
      return { ok: true, formData };
    }
    const formData = await new Response(body, { headers: { "content-type": type } }).formData();
    return { ok: true, formData };
  } catch {
    return { ok: false, status: 400, message: "The form could not be read. Please try again." };
  }
}

export function formIdOf(formData: FormData | null): string {
  const value = formData?.get(FORM_ID_FIELD);
  return typeof value === "string" ? value.slice(0, 100) : "";
}

type Failure = Extract<FormResult, { ok: false }>;

/** A failed post: status, reason, messages, and the visitor's values to show again. */
export function failure(
  status: number,
  fields: {
    form: Failure["form"];
    formData: FormData | null;
    names: readonly string[];
    reason: Failure["reason"];
    fieldErrors?: FieldErrors;
    message?: string;
  },
  headers?: HeadersInit,
) {
  const result: FormResult = {
    ok: false,
    form: fields.form,
    formId: formIdOf(fields.formData),
    reason: fields.reason,
    fieldErrors: fields.fieldErrors ?? {},
    message: fields.message,
    values: fields.formData ? echoValues(fields.formData, fields.names) : {},
  };
  return data(result, { status, headers });
}

export function invalid(
  form: Failure["form"],
  formData: FormData,
  names: readonly string[],
  error: Parameters<typeof fieldErrorsOf>[0],
) {
  return failure(400, {
    form,
    formData,
    names,
    reason: "invalid",
    fieldErrors: fieldErrorsOf(error),
    message: "Please correct the highlighted fields.",
  });
}

export function rateLimited(
  form: Failure["form"],
  formData: FormData,
  names: readonly string[],
  retryAfter: number,
) {
  return failure(
    429,
    { form, formData, names, reason: "rate_limited", message: RATE_LIMIT_MESSAGE },
    { "Retry-After": String(retryAfter) },
  );
}
