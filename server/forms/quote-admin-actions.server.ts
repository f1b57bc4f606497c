import { redirect } from "react-router";
import { parseForm } from "#app/lib/forms.ts";
import { quoteFormSchema, quoteHref } from "#app/lib/quotes/quotes.ts";
import type { AuditActor } from "../audit.server.ts";
import {
  deleteQuoteDraft,
  reviseQuote,
  saveQuoteDraft,
  sendQuote,
} from "../quotes/quotes.server.ts";
import { renewLicence } from "../licences/licences.server.ts";
import type { AdminIntent } from "./admin-form.server.ts";
import { invalid, success } from "./form-post.server.ts";

/**
 * The admin quote screens' forms (decision 0049): save a draft (a new one opens on its page),
 * send it, delete it, or revise a sent one into a new draft. A refused save comes back with
 * everything typed.
 */

const SAVE_REFUSED = {
  too_large: "The total is larger than an order can hold: split the quote.",
  no_inquiry: "The enquiry this quote was made from no longer exists.",
  not_draft: "This quote has been sent and can no longer change: revise it instead.",
} as const;

export function saveQuoteIntent(quoteId: string | null, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, quoteFormSchema);
    if (!parsed.ok) {
      return invalid(
        "save",
        form,
        "all",
        parsed.fieldErrors,
        "Please correct the highlighted fields.",
      );
    }
    const saved = await saveQuoteDraft(parsed.value, quoteId, admin);
    if (!saved.ok) {
      if (saved.reason === "not_found") return refuse(404, "That quote no longer exists.");
      return invalid("save", form, "all", {}, SAVE_REFUSED[saved.reason]);
    }
    if (!quoteId) return redirect(quoteHref(saved.id));
    return success("save", "Quote saved");
  }) satisfies AdminIntent;
}

const SEND_REFUSED = {
  not_found: "That quote no longer exists.",
  not_draft: "This quote has already been sent.",
  past_validity: "Its last valid day has passed: change “Valid until” and save before sending.",
} as const;

export function quoteIntents(quoteId: string, admin: AuditActor) {
  return {
    save: saveQuoteIntent(quoteId, admin),
    send: (async (_form, refuse) => {
      const sent = await sendQuote(quoteId, admin);
      if (!sent.ok)
        return refuse(sent.reason === "not_found" ? 404 : 409, SEND_REFUSED[sent.reason]);
      return success("send", `Quote ${sent.number} sent`);
    }) satisfies AdminIntent,
    delete: (async (_form, refuse) => {
      if (!(await deleteQuoteDraft(quoteId, admin))) {
        return refuse(409, "Only a draft can be deleted.");
      }
      return redirect("/admin/quotes");
    }) satisfies AdminIntent,
    revise: (async (_form, refuse) => {
      const revised = await reviseQuote(quoteId, admin);
      if (!revised.ok) {
        return refuse(
          revised.reason === "not_found" ? 404 : 409,
          "Only a sent, expired or declined quote can be revised.",
        );
      }
      return redirect(quoteHref(revised.id));
    }) satisfies AdminIntent,
  };
}

/** The licence register's "Renew": opens the renewal quote's draft (made once). */
export function renewLicenceIntent(admin: AuditActor) {
  return (async (form, refuse) => {
    const id = form.get("id");
    const renewed = typeof id === "string" ? await renewLicence(id, admin) : null;
    if (!renewed?.ok) {
      return refuse(
        renewed?.reason === "renewed" ? 409 : 404,
        renewed?.reason === "renewed"
          ? "This licence has been renewed already."
          : "That licence no longer exists.",
      );
    }
    return redirect(quoteHref(renewed.quoteId));
  }) satisfies AdminIntent;
}
