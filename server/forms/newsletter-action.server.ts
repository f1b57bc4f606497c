import { data, type ActionFunctionArgs } from "react-router";
import {
  FIELDS,
  formValues,
  newsletterSchema,
  safeReturnPath,
  type FormResult,
} from "#app/lib/inquiry-schemas.ts";
import { clientAddress, hitRateLimit, honeypotMark } from "../abuse.server.ts";
import { log } from "../log.server.ts";
import { subscribe } from "../newsletter.server.ts";
import { failure, formIdOf, invalid, rateLimited, readPostedForm } from "./form-post.server.ts";

const names = FIELDS.newsletter;
const RETURN_TO_FIELD = "return_to";

/** Adds the page to go back to (no-JavaScript result page) to an answer. */
function withReturnTo<T extends { data: FormResult }>(response: T, formData: FormData | null): T {
  response.data.returnTo = safeReturnPath(formData?.get(RETURN_TO_FIELD));
  return response;
}

/**
 * POST /newsletter, from the footer's 'Stay Updated' form: with JavaScript through a fetcher
 * (the footer toasts the answer), without it as a page that shows the answer.
 */
export async function newsletterAction({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    return failure(405, {
      form: "newsletter",
      formData: null,
      names,
      reason: "invalid",
      message: "Method not allowed.",
    });
  }
  const posted = await readPostedForm(request);
  if (!posted.ok) {
    return failure(posted.status, {
      form: "newsletter",
      formData: null,
      names,
      reason: "invalid",
      message: posted.message,
    });
  }
  const { formData } = posted;
  return withReturnTo(await subscribeFromForm(formData, context), formData);
}

async function subscribeFromForm(formData: FormData, context: ActionFunctionArgs["context"]) {
  try {
    const limit = await hitRateLimit("form:newsletter", clientAddress(context));
    if (!limit.allowed) return rateLimited("newsletter", formData, names, limit.retryAfter);

    const parsed = newsletterSchema.safeParse(formValues(formData, names));
    if (!parsed.success) return invalid("newsletter", formData, names, parsed.error);

    // Honeypot filled: stored all the same, marked (not exported or counted) — decision 0012.
    const result = await subscribe(parsed.data.email, undefined, honeypotMark(formData));
    if (result.status === "already_subscribed") {
      return failure(409, {
        form: "newsletter",
        formData,
        names,
        reason: "duplicate",
        message: "This email is already subscribed to our newsletter",
      });
    }
    return subscribed(formData);
  } catch (error) {
    log.error({ err: error }, "could not save a newsletter subscription");
    return failure(500, {
      form: "newsletter",
      formData,
      names,
      reason: "error",
      message: "There was an error subscribing to our newsletter. Please try again.",
    });
  }
}

function subscribed(formData: FormData) {
  const result: FormResult = { ok: true, form: "newsletter", formId: formIdOf(formData) };
  return data(result, { status: 200 });
}
