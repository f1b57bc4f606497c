import { eq } from "drizzle-orm";
import { redirect, type ActionFunctionArgs } from "react-router";
import {
  BOOKING_MESSAGES,
  FIND_BOOKING_FORM,
  PAY_BY_CARD_FORM,
  PAY_BY_CARD_MESSAGES,
  bookingPath,
  findBookingSchema,
  STUDENT_FIELDS,
  STUDENT_FORM,
  studentSchema,
} from "#app/lib/orders/booking.ts";
import { parseForm } from "#app/lib/forms.ts";
import { FORM_FIELD } from "#app/lib/inquiries/schemas.ts";
import {
  MOVE_MESSAGES,
  MOVE_REQUEST_FIELDS,
  MOVE_REQUEST_FORM,
  moveRequestSchema,
} from "#app/lib/orders/moves.ts";
import { clientAddress } from "../abuse.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { orders } from "../db/schema.ts";
import { startInvoiceCardPayment } from "../payments/invoice-card.server.ts";
import { readBookingToken, sendBookingLinks } from "../orders/booking-links.server.ts";
import { changeStudent } from "../orders/student-changes.server.ts";
import { requestMove } from "../orders/move-requests.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, formIdOf, invalid } from "./form-post.server.ts";
import { answerPublicForm, publicFormSaved } from "./public-form.server.ts";

/**
 * The booker's page's posts (decisions 0037, 0038), in the public forms' frame (one result per
 * submission, the client's rate limit, the honeypot): 'find my booking', a place's student named
 * or changed, and a request to move places. Bad input gets its field messages and changes nothing.
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

/** A signed link that no longer opens its page: the post is refused as the page would be. */
function linkRefusal(
  token: string | undefined,
  form: string,
  formData: FormData,
  names: readonly string[],
) {
  const link = readBookingToken(token);
  if (link.ok) return { orderId: link.orderId, refusal: null };
  return {
    orderId: null,
    refusal: failure(link.reason === "expired" ? 410 : 404, {
      form,
      formData,
      names,
      message:
        link.reason === "expired"
          ? "This link has expired. Ask for a new one on the 'Find my booking' page."
          : "This link is not valid.",
    }),
  };
}

/** The client's address for the audit ("unknown" is the rate limit's shared bucket, not one). */
function auditedAddress(context: ActionFunctionArgs["context"]): string | null {
  const client = clientAddress(context);
  return client === "unknown" ? null : client;
}

/**
 * POST /bookings/:token: a place's student named or changed by the booker, (by the form
 * 'move_request') a request to move places to another date, or (by 'pay_by_card') paying the
 * invoice by card.
 */
export function bookingPageAction({ request, params, context }: ActionFunctionArgs) {
  return formAction(request, { form: STUDENT_FORM }, async (formData): Promise<unknown> => {
    const form = formData.get(FORM_FIELD);
    if (form === PAY_BY_CARD_FORM) return payByCardPost(formData, params.token, context);
    return form === MOVE_REQUEST_FORM
      ? moveRequestPost(formData, params.token, context)
      : studentChangePost(formData, params.token, context);
  });
}

/**
 * "Pay by card" (decision 0042): to Stripe's payment page for what the invoice owes now, or an
 * answer saying why not. Nothing is stored here, so it is outside the public forms' frame; the
 * rate limit is the payment's own.
 */
async function payByCardPost(
  formData: FormData,
  token: string | undefined,
  context: ActionFunctionArgs["context"],
) {
  const link = linkRefusal(token, PAY_BY_CARD_FORM, formData, []);
  if (!link.orderId) return link.refusal!;
  const [order] = await db().select().from(orders).where(eq(orders.id, link.orderId));
  const started = order
    ? await startInvoiceCardPayment(
        order,
        `${config.publicUrl}${bookingPath(token!)}`,
        clientAddress(context),
      )
    : ({ ok: false, reason: "not_owed" } as const);
  if (started.ok) return redirect(started.url);
  const status = started.reason === "not_owed" ? 409 : started.reason === "limited" ? 429 : 503;
  return failure(status, {
    form: PAY_BY_CARD_FORM,
    formData,
    names: [],
    message:
      started.reason === "not_owed"
        ? PAY_BY_CARD_MESSAGES.notOwed
        : PAY_BY_CARD_MESSAGES.unavailable,
  });
}

function studentChangePost(
  formData: FormData,
  token: string | undefined,
  context: ActionFunctionArgs["context"],
) {
  const form = {
    name: STUDENT_FORM,
    names: STUDENT_FIELDS,
    failureMessage: BOOKING_MESSAGES.saveFailed,
    failureLog: "could not change a booking's student",
  };
  return answerPublicForm(form, formData, context, async () => {
    const link = linkRefusal(token, STUDENT_FORM, formData, STUDENT_FIELDS);
    if (!link.orderId) return link.refusal!;
    const parsed = parseForm(formData, studentSchema);
    if (!parsed.ok) return invalid(STUDENT_FORM, formData, STUDENT_FIELDS, parsed.fieldErrors);
    const outcome = await changeStudent(link.orderId, parsed.value, {
      ipAddress: auditedAddress(context),
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
  });
}

function moveRequestPost(
  formData: FormData,
  token: string | undefined,
  context: ActionFunctionArgs["context"],
) {
  const form = {
    name: MOVE_REQUEST_FORM,
    names: MOVE_REQUEST_FIELDS,
    failureMessage: MOVE_MESSAGES.requestFailed,
    failureLog: "could not keep a request to move places",
  };
  return answerPublicForm(form, formData, context, async () => {
    const link = linkRefusal(token, MOVE_REQUEST_FORM, formData, MOVE_REQUEST_FIELDS);
    if (!link.orderId) return link.refusal!;
    const parsed = parseForm(formData, moveRequestSchema);
    if (!parsed.ok) {
      return invalid(MOVE_REQUEST_FORM, formData, MOVE_REQUEST_FIELDS, parsed.fieldErrors);
    }
    const outcome = await requestMove(
      link.orderId,
      { toDateId: parsed.value.to_date, places: parsed.value.places.map(Number) },
      { ipAddress: auditedAddress(context) },
    );
    if (!outcome.ok) {
      return failure(outcome.status, {
        form: MOVE_REQUEST_FORM,
        formData,
        names: MOVE_REQUEST_FIELDS,
        message: outcome.message,
      });
    }
    return publicFormSaved({
      ok: true,
      form: MOVE_REQUEST_FORM,
      formId: formIdOf(formData),
      message: MOVE_MESSAGES.requested,
    });
  });
}
