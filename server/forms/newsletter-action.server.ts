import type { ActionFunctionArgs } from "react-router";
import { parseForm } from "#app/lib/forms.ts";
import {
  FIELDS,
  newsletterSchema,
  safeReturnPath,
  type FormResult,
} from "#app/lib/inquiries/schemas.ts";
import {
  CONSENT_PAGE_FIELD,
  NEWSLETTER_CONSENT_TEXT,
  consentPageOf,
} from "#app/lib/newsletter/consent.ts";
import { NEWSLETTER_SOURCE_FOOTER, subscribe } from "../newsletter/subscribe.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, formIdOf, invalid, unreadable, type PostRefusal } from "./form-post.server.ts";
import { answerPublicForm, publicFormSaved } from "./public-form.server.ts";

/**
 * The newsletter sign-up's action (the footer's 'Stay Updated' form): parse, store the
 * subscription with its consent record, answer "already subscribed" with 409.
 */
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
export function newsletterAction({ request, context }: ActionFunctionArgs) {
  const frame = {
    form: "newsletter",
    unreadable: (refusal: PostRefusal) => withReturnTo(unreadable("newsletter", refusal), null),
  };
  return formAction(request, frame, async (formData) =>
    withReturnTo(await subscribeFromForm(formData, context), formData),
  );
}

const newsletterForm = {
  name: "newsletter",
  names,
  failureMessage: "There was an error subscribing to our newsletter. Please try again.",
  failureLog: "could not save a newsletter subscription",
};

function subscribeFromForm(formData: FormData, context: ActionFunctionArgs["context"]) {
  return answerPublicForm(newsletterForm, formData, context, async (suspected) => {
    const parsed = parseForm(formData, newsletterSchema);
    if (!parsed.ok) return invalid("newsletter", formData, names, parsed.fieldErrors);

    // A honeypot post is stored all the same, marked (not exported or counted) — decision 0012.
    // Consent is recorded with the words every newsletter form shows beside its button.
    const result = await subscribe(parsed.value.email, NEWSLETTER_SOURCE_FOOTER, suspected, {
      page: consentPageOf(formData.get(CONSENT_PAGE_FIELD)),
      text: NEWSLETTER_CONSENT_TEXT,
    });
    if (result.status === "already_subscribed") {
      return failure(409, {
        form: "newsletter",
        formData,
        names,
        reason: "duplicate",
        message: "This email is already subscribed to our newsletter",
      });
    }
    return publicFormSaved({ ok: true, form: "newsletter", formId: formIdOf(formData) });
  });
}
