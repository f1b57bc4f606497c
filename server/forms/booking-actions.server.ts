import type { ActionFunctionArgs } from "react-router";
import {
  BOOKING_MESSAGES,
  FIND_BOOKING_FORM,
  findBookingSchema,
  STUDENT_FIELDS,
  STUDENT_FORM,
  studentSchema,
} from "#app/lib/orders/booking.ts";
import { parseForm } from "#app/lib/forms.ts";
import { clientAddress } from "../abuse.server.ts";
import { readBookingToken, sendBookingLinks } from "../orders/booking-links.server.ts";
import { changeStudent } from "../orders/student-changes.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, formIdOf, invalid } from "./form-post.server.ts";
import { answerPublicForm, publicFormSaved } from "./public-form.server.ts";

/**
 * The booker's page's two posts (decision 0037), in the public forms' frame (one result per
 * submission, the client's rate limit, the honeypot): 'find my booking', and a place's student
 * named or changed. Bad input gets its field messages and changes nothing.
 */

const FIND_FIELDS = ["email"] as const;

/** POST /bookings: e-mails the links of the bookings made with an address (never shows them). */
export function findBookingAction({ request, context }: ActionFunctionArgs) {
  const form = {
    name: FIND_BOOKING_FORM,
    names: FIND_FIELDS,
    failureMessage: BOOKING_MESSAGES.findFailed,
    failureLog: "could not send booking links",
  };
  return formAction(request, { form: FIND_BOOKING_FORM }, (formData) =>
    answerPublicForm(form, formData, context, async (suspected) => {
      const parsed = parseForm(formData, findBookingSchema);
      if (!parsed.ok) return invalid(FIND_BOOKING_FORM, formData, FIND_FIELDS, parsed.fieldErrors);
      if (suspected) {
        // Nothing is stored for this form, so a suspected bot is told plainly (decision 0012).
        return failure(400, {
          form: FIND_BOOKING_FORM,
          formData,
          names: FIND_FIELDS,
          message:
            "Your request looked automated, so no e-mail was sent. Please try again, or write to us.",
        });
      }
      // Over the address's hourly limit, its links went out already this hour: the answer is the
      // same either way, so the form says nothing about whose bookings exist.
      await sendBookingLinks(parsed.value.email);
      return publicFormSaved({
        ok: true,
        form: FIND_BOOKING_FORM,
        formId: formIdOf(formData),
        message: BOOKING_MESSAGES.linksSent,
      });
    }),
  );
}

/** POST /bookings/:token: a place's student named or changed by the booker. */
export function studentChangeAction({ request, params, context }: ActionFunctionArgs) {
  const form = {
    name: STUDENT_FORM,
    names: STUDENT_FIELDS,
    failureMessage: BOOKING_MESSAGES.saveFailed,
    failureLog: "could not change a booking's student",
  };
  return formAction(request, { form: STUDENT_FORM }, (formData) =>
    answerPublicForm(form, formData, context, async () => {
      const link = readBookingToken(params.token);
      if (!link.ok) {
        return failure(link.reason === "expired" ? 410 : 404, {
          form: STUDENT_FORM,
          formData,
          names: STUDENT_FIELDS,
          message:
            link.reason === "expired"
              ? "This link has expired. Ask for a new one on the 'Find my booking' page."
              : "This link is not valid.",
        });
      }
      const parsed = parseForm(formData, studentSchema);
      if (!parsed.ok) return invalid(STUDENT_FORM, formData, STUDENT_FIELDS, parsed.fieldErrors);
      const client = clientAddress(context);
      const outcome = await changeStudent(link.orderId, parsed.value, {
        // "unknown" is the rate limit's shared bucket, not an address to audit.
        ipAddress: client === "unknown" ? null : client,
      });
      if (!outcome.ok) {
        return failure(outcome.status, {
          form: STUDENT_FORM,
          formData,
          names: STUDENT_FIELDS,
          message: outcome.message,
        });
      }
      return publicFormSaved({
        ok: true,
        form: STUDENT_FORM,
        formId: formIdOf(formData),
        message: outcome.changed
          ? BOOKING_MESSAGES.changed(outcome.name)
          : BOOKING_MESSAGES.unchanged,
      });
    }),
  );
}
