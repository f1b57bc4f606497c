import type { ActionFunctionArgs } from "react-router";
import { COURSE_DATE_FIELD } from "#app/lib/catalogue/course-dates.ts";
import {
  ANNOUNCE_FIELDS,
  announceSchema,
  WAITING_LIST_FIELDS,
  WAITING_LIST_FORM,
  WAITING_LIST_MESSAGES,
  waitingListSchema,
} from "#app/lib/catalogue/waiting-list.ts";
import { parseForm } from "#app/lib/forms.ts";
import {
  askForNewDates,
  joinWaitingList,
  type JoinOutcome,
} from "../catalogue/waiting-list.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, formIdOf, invalid } from "./form-post.server.ts";
import { answerPublicForm, publicFormSaved } from "./public-form.server.ts";

/**
 * The waiting list page's action (decision 0034): a date's list (`courseDateId` posted) or the
 * 'tell me when dates are announced' list of a course without dates. Around it the public forms'
 * frame (server/forms/public-form.server.ts): one result per submission, the client's rate
 * limit, the honeypot's mark (stored and marked, decision 0012). Bad input gets its field
 * messages and changes nothing.
 */
export function waitingListAction({ request, params, context }: ActionFunctionArgs) {
  return formAction(request, { form: WAITING_LIST_FORM }, (formData) =>
    answerWaitingList(formData, params.slug ?? "", context),
  );
}

async function answerWaitingList(
  formData: FormData,
  slug: string,
  context: ActionFunctionArgs["context"],
) {
  const posted = formData.get(COURSE_DATE_FIELD);
  const dateId = typeof posted === "string" && posted ? posted : null;
  const names = dateId ? WAITING_LIST_FIELDS : ANNOUNCE_FIELDS;
  const form = {
    name: WAITING_LIST_FORM,
    names,
    failureMessage: WAITING_LIST_MESSAGES.failed.description,
    failureLog: "could not save a waiting list entry",
  };
  return answerPublicForm(form, formData, context, async (suspected) => {
    let outcome: JoinOutcome;
    if (dateId) {
      const parsed = parseForm(formData, waitingListSchema);
      if (!parsed.ok) return invalid(WAITING_LIST_FORM, formData, names, parsed.fieldErrors);
      outcome = await joinWaitingList(slug, dateId, parsed.value, suspected);
    } else {
      const parsed = parseForm(formData, announceSchema);
      if (!parsed.ok) return invalid(WAITING_LIST_FORM, formData, names, parsed.fieldErrors);
      outcome = await askForNewDates(slug, parsed.value, suspected);
    }
    if (outcome.ok) {
      const said = dateId ? WAITING_LIST_MESSAGES.joined : WAITING_LIST_MESSAGES.announce;
      return publicFormSaved({
        ok: true,
        form: WAITING_LIST_FORM,
        formId: formIdOf(formData),
        message: said.description,
      });
    }
    const refused = (status: number, message: string, fieldErrors = {}) =>
      failure(status, {
        form: WAITING_LIST_FORM,
        formData,
        names,
        reason: status === 409 && outcome.reason === "duplicate" ? "duplicate" : "conflict",
        message,
        fieldErrors,
      });
    switch (outcome.reason) {
      case "duplicate":
        return refused(409, WAITING_LIST_MESSAGES.duplicate, {
          email: WAITING_LIST_MESSAGES.duplicate,
        });
      case "places_left":
        return refused(409, WAITING_LIST_MESSAGES.placesLeft(outcome.placesLeft), {
          places: WAITING_LIST_MESSAGES.placesLeft(outcome.placesLeft),
        });
      default:
        return refused(409, WAITING_LIST_MESSAGES.unavailable);
    }
  });
}
