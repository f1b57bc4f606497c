import { data, type ActionFunctionArgs } from "react-router";
import { parseForm } from "#app/lib/forms.ts";
import {
  FIELDS,
  newsletterSchema,
  safeReturnPath,
  type FormResult,
} from "#app/lib/inquiry-schemas.ts";
import { clientAddress, hitRateLimit, honeypotMark } from "../abuse.server.ts";
import { log } from "../log.server.ts";
import { subscribe } from "../newsletter.server.ts";
import {
  failure,
  formIdOf,
  invalid,
  rateLimited,
  readPostedForm,
  unreadable,
} from "./form-post.server.ts";

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
  const posted = await readPostedForm(request);
  if (!posted.ok) return withReturnTo(unreadable("newsletter", posted), null);
  const { formData } = posted;
  return withReturnTo(await subscribeFromForm(formData, context), formData);
}

async function subscribeFromForm(formData: FormData, context: ActionFunctionArgs["context"]) {
  try {
    const limit = await hitRateLimit("form:newsletter", clientAddress(context));
    if (!limit.allowed) return rateLimited("newsletter", formData, names, limit.retryAfter);

    const parsed = parseForm(formData, newsletterSchema);
    if (!parsed.ok) return invalid("newsletter", formData, names, parsed.fieldErrors);

    // Honeypot filled: stored all the same, marked (not exported or counted) — decision 0012.
    const result = await subscribe(parsed.value.email, undefined, honeypotMark(formData));
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
  return data(result, { status: 200, headers: { "Cache-Control": "no-store" } });
}
