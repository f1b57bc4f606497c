import type { ActionFunctionArgs } from "react-router";
import { parseForm } from "#app/lib/forms.ts";
import { quoteAcceptSchema, quoteDeclineSchema } from "#app/lib/quotes/quotes.ts";
import { clientAddress, hitRateLimit } from "../abuse.server.ts";
import { acceptQuote, declineQuote, type AnswerResult } from "../quotes/acceptance.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, invalid, rateLimited, success } from "./form-post.server.ts";

/**
 * The customer's quote page (decision 0049): "Accept" and "Decline", posted with or without
 * JavaScript. The link is the key; each post is rate limited per client; a refused one comes back
 * with what was typed.
 */

const ACCEPT_FIELDS = ["name", "role", "poNumber", "confirm"];

function refusal(form: string, formData: FormData, result: Exclude<AnswerResult, { ok: true }>) {
  if (result.reason === "closed") {
    return failure(409, {
      form,
      formData,
      names: [],
      reason: "conflict",
      message: `This quotation is ${result.quote.status} and can no longer be ${form === "accept" ? "accepted" : "declined"}.`,
    });
  }
  return failure(result.reason === "expired_link" ? 410 : 404, {
    form,
    formData,
    names: [],
    message:
      result.reason === "expired_link"
        ? "This link has expired. Please ask us for a new quotation."
        : "This link is not valid.",
  });
}

export function quotePageAction({ request, params, context }: ActionFunctionArgs) {
  return formAction(request, { form: "accept" }, async (formData): Promise<unknown> => {
    const intent = formData.get("intent") === "decline" ? "decline" : "accept";
    const limit = await hitRateLimit("form:quote", clientAddress(context));
    if (!limit.allowed) return rateLimited(intent, formData, ACCEPT_FIELDS, limit.retryAfter);
    if (intent === "decline") {
      const parsed = parseForm(formData, quoteDeclineSchema);
      if (!parsed.ok) return invalid("decline", formData, ["reason"], parsed.fieldErrors);
      const result = await declineQuote(params.token ?? "", parsed.value.reason);
      if (!result.ok) return refusal("decline", formData, result);
      return success("decline", "Thank you: we have recorded that you declined the quotation.");
    }
    const parsed = parseForm(formData, quoteAcceptSchema);
    if (!parsed.ok) return invalid("accept", formData, ACCEPT_FIELDS, parsed.fieldErrors);
    const { name, role, poNumber } = parsed.value;
    const result = await acceptQuote(params.token ?? "", { name, role, poNumber });
    if (!result.ok) return refusal("accept", formData, result);
    return success(
      "accept",
      "Thank you: the quotation is accepted. The invoice is on its way to you by e-mail.",
    );
  });
}
