import { parseForm } from "#app/lib/forms.ts";
import {
  BILLING_FAILED,
  BILLING_FIELDS,
  BILLING_INTENT,
  BILLING_SAVED,
  billingDetailsOf,
  billingFormSchema,
  REISSUE_CONFIRM_FIELD,
  REISSUE_FIELD,
  reissuedMessage,
} from "#app/lib/orders/billing-form.ts";
import {
  ORDER_RELEASED_MESSAGE,
  PAID_AT_STRIPE_MESSAGE,
  STRIPE_UNREACHABLE_MESSAGE,
  orderNoteFormSchema,
  orderReference,
  orderReleaseFormSchema,
  orderStatusFormSchema,
  statusConflictMessage,
} from "#app/lib/orders/orders.ts";
import {
  ACCESS_INTENT,
  ACCESS_MESSAGES,
  accessDetailsSchema,
} from "#app/lib/orders/access-details.ts";
import {
  BOOKING_LINK_INTENT,
  BOOKING_MESSAGES,
  STUDENT_FIELDS,
  STUDENT_INTENT,
  studentSchema,
} from "#app/lib/orders/booking.ts";
import {
  MOVE_DECISION_INTENT,
  MOVE_FIELDS,
  MOVE_INTENT,
  MOVE_MESSAGES,
  moveDecisionSchema,
  moveSchema,
  movedMessage,
} from "#app/lib/orders/moves.ts";
import {
  REMINDERS_NOT_OWED_MESSAGE,
  REMINDERS_PAUSED_MESSAGE,
  REMINDERS_RESUMED_MESSAGE,
  invoiceRemindersFormSchema,
} from "#app/lib/orders/debtors.ts";
import {
  BANK_REFUND_FORM_FIELDS,
  BANK_REFUND_INTENT,
  PAYMENT_FORM_FIELDS,
  PAYMENT_INTENT,
  PAYMENT_MESSAGES,
  bankRefundFormSchema,
  bankRefundRecordedMessage,
  paymentFormSchema,
  paymentRecordedMessage,
} from "#app/lib/orders/payments.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import type { AuditActor } from "../audit.server.ts";
import { setInvoiceRemindersPaused } from "../invoices/debtors.server.ts";
import { moveOrder, type MoveOutcome } from "../orders/moves.server.ts";
import { decideMoveRequest } from "../orders/move-requests.server.ts";
import { sendBookingLink } from "../orders/booking-links.server.ts";
import { changeStudent } from "../orders/student-changes.server.ts";
import { sendAccessDetails } from "../orders/access-details.server.ts";
import { changeOrderStatusByAdmin, releaseOrder } from "../orders/admin.server.ts";
import { correctBilling, paymentMethodOf } from "../orders/billing.server.ts";
import { addOrderNote } from "../orders/order-page.server.ts";
import { recordBankRefund, recordPayment } from "../orders/payments.server.ts";
import type { AdminIntent } from "./admin-form.server.ts";
import { failure, invalid, success } from "./form-post.server.ts";

/**
 * The order actions the Payments list and the order page share, as `adminFormAction` intents:
 * 'status' ('Mark Invoiced', 'Mark Paid', 'Cancel' — only what the state machine allows; a
 * change refused because the order moved on is a 409 naming its real status) and 'release' (an
 * order held as suspected spam). The order page adds 'note'.
 */

export function orderStatusIntents(admin: AuditActor) {
  return {
    status: async (form, refuse) => {
      const parsed = parseForm(form, orderStatusFormSchema);
      if (!parsed.ok) return refuse(400, parsed.fieldErrors.reason);
      const { orderId, status, notifyBuyer, reason } = parsed.value;
      const result = await changeOrderStatusByAdmin(
        orderId,
        status,
        admin,
        status === "canceled" ? { notifyBuyer, reason } : {},
      );
      if (!result.ok) {
        if (result.reason === "paid_at_stripe") return refuse(409, PAID_AT_STRIPE_MESSAGE);
        if (result.reason === "stripe_unreachable") return refuse(502, STRIPE_UNREACHABLE_MESSAGE);
        if (result.reason === "not_found" || !result.status) return refuse(404);
        return refuse(409, statusConflictMessage(orderReference(orderId), result.status));
      }
      return success("status", undefined, { status: result.order.status, released: false });
    },
    release: async (form, refuse) => {
      const parsed = parseForm(form, orderReleaseFormSchema);
      if (!parsed.ok) return refuse(400, "Failed to release order");
      const released = await releaseOrder(parsed.value.orderId, admin);
      if (!released) return refuse(404, "Failed to release order");
      return success("release", ORDER_RELEASED_MESSAGE, {
        status: released.status,
        released: true,
      });
    },
  } satisfies Record<string, AdminIntent>;
}

/** The order page's "Add note": the shared schema, then the server's own check. */
export function orderNoteIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, orderNoteFormSchema);
    if (!parsed.ok) {
      return invalid("note", form, ["text"], parsed.fieldErrors, "Failed to add note");
    }
    const added = await addOrderNote(orderId, parsed.value.text, admin);
    if (!added.ok) return refuse(added.reason === "not_found" ? 404 : 400, "Failed to add note");
    return success("note", "Note added");
  }) satisfies AdminIntent;
}

/**
 * The order page's "Edit billing details" (until the invoice is issued) or "Correct and re-issue"
 * (after, confirmed): the shared schema for the order's payment method, then the server's own
 * checks under a lock on the order.
 */
export function orderBillingIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    // The rules depend on how the order is paid: an invoice needs an address.
    const method = await paymentMethodOf(orderId);
    if (!method) return refuse(404, BILLING_FAILED);
    const parsed = parseForm(form, billingFormSchema(method));
    const names = [...Object.values(BILLING_FIELDS), REISSUE_CONFIRM_FIELD];
    if (!parsed.ok) {
      return invalid(BILLING_INTENT, form, names, parsed.fieldErrors, BILLING_FAILED);
    }
    const result = await correctBilling(admin, orderId, billingDetailsOf(parsed.value), {
      reissue: parsed.value[REISSUE_FIELD] === "1",
    });
    if (!result.ok) {
      return failure(result.status, {
        form: BILLING_INTENT,
        formData: form,
        names,
        message: result.message ?? BILLING_FAILED,
      });
    }
    return success(
      BILLING_INTENT,
      result.reissued
        ? reissuedMessage(result.reissued)
        : result.changed.length > 0
          ? BILLING_SAVED
          : "No billing details changed",
    );
  }) satisfies AdminIntent;
}

/**
 * The order page's "Send access details" (a paid on-demand order): e-mail a student the text
 * staff completed, or record that it went another way.
 */
export function orderAccessIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, accessDetailsSchema);
    if (!parsed.ok) {
      return invalid(
        ACCESS_INTENT,
        form,
        ["position", "text"],
        parsed.fieldErrors,
        ACCESS_MESSAGES.failed,
      );
    }
    const { position, mode, text } = parsed.value;
    const result = await sendAccessDetails(admin, orderId, {
      position: Number(position),
      mode,
      text,
    });
    if (!result.ok) return refuse(result.status, result.message);
    return success(
      ACCESS_INTENT,
      result.emailed ? ACCESS_MESSAGES.emailed : ACCESS_MESSAGES.recorded,
      { position },
    );
  }) satisfies AdminIntent;
}

/** The order page's 'E-mail the booking link to the buyer' (decision 0037). */
export function orderBookingLinkIntent(orderId: string, admin: AuditActor) {
  return (async (_form, refuse) => {
    const result = await sendBookingLink(admin, orderId);
    if (!result.ok) return refuse(409, result.message);
    return success(BOOKING_LINK_INTENT, `Booking link e-mailed to ${result.to}`);
  }) satisfies AdminIntent;
}

/**
 * The order page's 'Change student' (decision 0037): staff name or replace a place's student until
 * the date ends — a late substitution on the day, or one the booker asked for after the booking
 * page's cut-off.
 */
export function orderStudentIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, studentSchema);
    if (!parsed.ok) {
      return invalid(STUDENT_INTENT, form, STUDENT_FIELDS, parsed.fieldErrors);
    }
    const outcome = await changeStudent(orderId, parsed.value, { admin });
    if (!outcome.ok) return refuse(outcome.status, outcome.message);
    return success(
      STUDENT_INTENT,
      outcome.changed
        ? BOOKING_MESSAGES.staffChanged(outcome.name, parsed.value.place)
        : BOOKING_MESSAGES.unchanged,
      { place: String(parsed.value.place) },
    );
  }) satisfies AdminIntent;
}

/**
 * The order page's 'Move to another date' (decision 0038): some or all of the order's places, to
 * another date of its course with room; a price difference credited, re-invoiced or refunded.
 */
export function orderMoveIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, moveSchema);
    if (!parsed.ok) return invalid(MOVE_INTENT, form, MOVE_FIELDS, parsed.fieldErrors);
    const { to_date, places, price } = parsed.value;
    const outcome = await moveOrder(admin, orderId, {
      toDateId: to_date,
      places: places.map(Number),
      price,
    });
    if (!outcome.ok) return refuse(outcome.status, outcome.message);
    return moved(MOVE_INTENT, outcome);
  }) satisfies AdminIntent;
}

function moved(intent: string, outcome: Extract<MoveOutcome, { ok: true }>) {
  return success(
    intent,
    movedMessage({
      ...outcome,
      reference: orderReference(outcome.orderId),
      when: formatDateRange(outcome.to.startsAt, outcome.to.endsAt),
    }),
    { orderId: outcome.orderId },
  );
}

/** The order page's 'Approve move' or 'Decline' of the booker's request (decision 0038). */
export function orderMoveDecisionIntent(orderId: string, admin: AuditActor) {
  return (async (form, refuse) => {
    const parsed = parseForm(form, moveDecisionSchema);
    if (!parsed.ok) return refuse(400);
    const { request, decision, price } = parsed.value;
    const outcome = await decideMoveRequest(
      admin,
      orderId,
      request,
      decision === "approve" ? { approve: true, price } : { approve: false },
    );
    if (!outcome.ok) return refuse(outcome.status, outcome.message);
    if ("declined" in outcome) return success(MOVE_DECISION_INTENT, MOVE_MESSAGES.declined);
    return moved(MOVE_DECISION_INTENT, outcome);
  }) satisfies AdminIntent;
}

/** The Debtors screen's "Pause reminders" / "Resume reminders" on one invoiced order. */
export function invoiceReminderIntents(admin: AuditActor) {
  return {
    reminders: async (form, refuse) => {
      const parsed = parseForm(form, invoiceRemindersFormSchema);
      if (!parsed.ok) return refuse(400);
      const result = await setInvoiceRemindersPaused(
        parsed.value.orderId,
        parsed.value.paused,
        admin,
      );
      if (!result.ok) return refuse(409, REMINDERS_NOT_OWED_MESSAGE);
      return success(
        "reminders",
        result.paused ? REMINDERS_PAUSED_MESSAGE : REMINDERS_RESUMED_MESSAGE,
      );
    },
  } satisfies Record<string, AdminIntent>;
}

/** A refusal of the payment forms: the message, beside its field when it has one. */
function moneyRefusal(
  intent: string,
  form: FormData,
  names: readonly string[],
  outcome: { status: number; message: string; field?: string },
) {
  return failure(outcome.status, {
    form: intent,
    formData: form,
    names,
    fieldErrors: outcome.field ? { [outcome.field]: outcome.message } : {},
    message: outcome.message,
  });
}

/**
 * The order page's "Record Payment" (decision 0042): money received against the invoice, in part
 * or in full; the payment that clears the balance marks the order paid.
 */
export function orderPaymentIntent(orderId: string, admin: AuditActor) {
  return (async (form) => {
    const parsed = parseForm(form, paymentFormSchema());
    if (!parsed.ok || parsed.value.orderId !== orderId) {
      const errors = parsed.ok ? { form: PAYMENT_MESSAGES.formUnreadable } : parsed.fieldErrors;
      return invalid(PAYMENT_INTENT, form, PAYMENT_FORM_FIELDS, errors, PAYMENT_MESSAGES.failed);
    }
    const { amountCents, receivedOn, method, reference, nonce } = parsed.value;
    const outcome = await recordPayment(
      orderId,
      { amountCents, receivedOn, method, reference, nonce },
      { actor: admin.email, admin },
    );
    if (!outcome.ok) return moneyRefusal(PAYMENT_INTENT, form, PAYMENT_FORM_FIELDS, outcome);
    return success(PAYMENT_INTENT, paymentRecordedMessage(outcome), {
      balanceCents: outcome.balanceCents,
    });
  }) satisfies AdminIntent;
}

/** The order page's "Record Bank Refund" (decision 0042): money paid back outside Stripe. */
export function orderBankRefundIntent(orderId: string, admin: AuditActor) {
  return (async (form) => {
    const parsed = parseForm(form, bankRefundFormSchema());
    if (!parsed.ok || parsed.value.orderId !== orderId) {
      const errors = parsed.ok ? { form: PAYMENT_MESSAGES.formUnreadable } : parsed.fieldErrors;
      return invalid(
        BANK_REFUND_INTENT,
        form,
        BANK_REFUND_FORM_FIELDS,
        errors,
        PAYMENT_MESSAGES.refundFailed,
      );
    }
    const { intent: _intent, orderId: _orderId, ...input } = parsed.value;
    const outcome = await recordBankRefund(orderId, input, admin);
    if (!outcome.ok) {
      return moneyRefusal(BANK_REFUND_INTENT, form, BANK_REFUND_FORM_FIELDS, outcome);
    }
    return success(BANK_REFUND_INTENT, bankRefundRecordedMessage(outcome));
  }) satisfies AdminIntent;
}
