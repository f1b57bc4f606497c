import { z } from "zod/mini";
import { parseCalendarDate, ukDate } from "../admin/time.ts";
import { formatPence } from "../format.ts";
import { dropControlChars } from "../text.ts";
import { poundsToPence, REFUND_MESSAGES } from "./refunds.ts";

/**
 * Payments as they arrive and refunds paid by bank (docs/decisions/0042-payments-as-they-arrive.md):
 * the order page's "Record Payment" and "Record Bank Refund" forms, checked by the same schemas in
 * the browser and on the server. The server checks amounts and dates again against the order as
 * it is then. Safe on both sides: no server imports here.
 */

/** How a payment against an invoice arrived. */
export const PAYMENT_RECEIVED_METHODS = ["bank_transfer", "card", "cheque", "other"] as const;
export type PaymentReceivedMethod = (typeof PAYMENT_RECEIVED_METHODS)[number];

/** How money was paid back outside Stripe. */
export const BANK_REFUND_METHODS = ["bank_transfer", "cheque", "other"] as const;
export type BankRefundMethod = (typeof BANK_REFUND_METHODS)[number];

/**
 * A payment's method as stored: one staff can record, or 'transfer' — money that moved with
 * places split off into another order (decision 0046), out of one order and into the other.
 */
export type StoredPaymentMethod = PaymentReceivedMethod | "transfer";

export const MONEY_METHOD_LABELS: Record<StoredPaymentMethod | "stripe", string> = {
  bank_transfer: "Bank transfer",
  card: "Card",
  cheque: "Cheque",
  other: "Other",
  transfer: "Moved with places",
  stripe: "Card (Stripe)",
};

export const PAYMENT_REFERENCE_MAX_LENGTH = 100;
export const BANK_REFUND_NOTE_MAX_LENGTH = 500;

export const PAYMENT_MESSAGES = {
  amountMissing: "Please enter the amount",
  dateMissing: "Please enter the date, e.g. 24/11/2026",
  dateInvalid: "Please enter a real date, e.g. 24/11/2026",
  dateFuture: "The date cannot be in the future",
  dateBeforeOrder: (placed: string) => `The date cannot be before the order was placed (${placed})`,
  methodMissing: "Please choose how it was paid",
  referenceTooLong: `Please keep the reference to ${PAYMENT_REFERENCE_MAX_LENGTH} characters or fewer`,
  noteTooLong: `Please keep the note to ${BANK_REFUND_NOTE_MAX_LENGTH} characters or fewer`,
  formUnreadable: REFUND_MESSAGES.formUnreadable,
  notFound: "Order not found",
  notInvoice: "Payments are recorded on orders paid by invoice; a card order is paid at checkout",
  notOwed: "Payments can be recorded once the order is invoiced, and not once it is cancelled",
  notRefundable: "Only a paid order, or a cancelled one that had received money, can be refunded",
  fullyRefunded: "This order has already been refunded in full",
  refundTooLarge: (left: number) =>
    left > 0
      ? `You can refund at most ${formatPence(left)} on this order`
      : "Nothing is left to refund on this order",
  failed: "The payment could not be recorded. Please try again.",
  refundFailed: "The refund could not be recorded. Please try again.",
} as const;

/** The message after a payment is recorded: what is left, or that it is paid, or overpaid. */
export function paymentRecordedMessage(extra: {
  amountCents: number;
  balanceCents: number;
  alreadyRecorded?: boolean;
}): string {
  const recorded = `${extra.alreadyRecorded ? "Already recorded" : "Recorded"}: ${formatPence(extra.amountCents)} received.`;
  if (extra.balanceCents > 0) return `${recorded} ${formatPence(extra.balanceCents)} still owed.`;
  if (extra.balanceCents < 0) {
    return `${recorded} The order is paid and overpaid by ${formatPence(-extra.balanceCents)}: refund the difference or agree what to do with it.`;
  }
  return `${recorded} The order is paid in full.`;
}

export function bankRefundRecordedMessage(extra: {
  amountCents: number;
  creditNoteNumber: string | null;
  alreadyRecorded?: boolean;
}): string {
  const head = `${extra.alreadyRecorded ? "Already recorded" : "Recorded"}: ${formatPence(extra.amountCents)} refunded`;
  return extra.creditNoteNumber
    ? `${head}; credit note ${extra.creditNoteNumber} e-mailed to the buyer`
    : `${head}; the buyer has been e-mailed`;
}

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** A UK date as typed (24/11/2026 or 2026-11-24) → 'yyyy-MM-dd', not after `today`. */
function dateField(today?: string) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) => {
      const text = (value ?? "").trim();
      if (text === "") {
        ctx.issues.push({ code: "custom", message: PAYMENT_MESSAGES.dateMissing, input: value });
        return z.NEVER;
      }
      const date = parseCalendarDate(text);
      if (!date) {
        ctx.issues.push({ code: "custom", message: PAYMENT_MESSAGES.dateInvalid, input: value });
        return z.NEVER;
      }
      if (today && date > today) {
        ctx.issues.push({ code: "custom", message: PAYMENT_MESSAGES.dateFuture, input: value });
        return z.NEVER;
      }
      return date;
    }),
  );
}

function amountField(maxCents?: number) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) => {
      const text = (value ?? "").trim();
      const pence = text === "" ? null : poundsToPence(text);
      const message =
        text === ""
          ? PAYMENT_MESSAGES.amountMissing
          : pence === null
            ? REFUND_MESSAGES.amountInvalid
            : pence <= 0
              ? REFUND_MESSAGES.amountZero
              : maxCents !== undefined && pence > maxCents
                ? PAYMENT_MESSAGES.refundTooLarge(maxCents)
                : null;
      if (message) {
        ctx.issues.push({ code: "custom", message, input: value });
        return z.NEVER;
      }
      return pence!;
    }),
  );
}

function freeText(max: number, message: string) {
  return z.pipe(
    z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) => dropControlChars(v ?? "").trim()),
    ),
    z.pipe(
      z.string().check(z.maxLength(max, message)),
      z.transform((v: string) => (v === "" ? null : v)),
    ),
  );
}

const nonceField = z
  .string({ error: PAYMENT_MESSAGES.formUnreadable })
  .check(z.regex(NONCE, { error: PAYMENT_MESSAGES.formUnreadable }));

/**
 * What both forms post beside their own date, method and note: the order, the amount (at most
 * `maxCents`), the bank's reference and the dialog's nonce.
 */
function moneyEntryFields(maxCents?: number) {
  return {
    orderId: z.uuid({ error: PAYMENT_MESSAGES.formUnreadable }),
    amountCents: amountField(maxCents),
    reference: freeText(PAYMENT_REFERENCE_MAX_LENGTH, PAYMENT_MESSAGES.referenceTooLong),
    nonce: nonceField,
  };
}

export const PAYMENT_INTENT = "payment";
export const BANK_REFUND_INTENT = "bankRefund";

/**
 * "Record Payment" as posted: the amount in pounds (→ pence), the UK date it arrived, how, the
 * bank's reference and the dialog's nonce. `today` (the UK date the browser shows) refuses a
 * future date at once; the server checks it against its own clock.
 */
export function paymentFormSchema(today?: string) {
  return z.object({
    ...moneyEntryFields(),
    intent: z.literal(PAYMENT_INTENT),
    receivedOn: dateField(today),
    method: z.enum(PAYMENT_RECEIVED_METHODS, { error: PAYMENT_MESSAGES.methodMissing }),
  });
}

export type PaymentFormValue = z.output<ReturnType<typeof paymentFormSchema>>;

export const PAYMENT_FORM_FIELDS = [
  "intent",
  "orderId",
  "amountCents",
  "receivedOn",
  "method",
  "reference",
  "nonce",
] as const;

/** "Record Bank Refund" as posted: as a payment, with a note kept on the order. */
export function bankRefundFormSchema(today?: string, maxCents?: number) {
  return z.object({
    ...moneyEntryFields(maxCents),
    intent: z.literal(BANK_REFUND_INTENT),
    refundedOn: dateField(today),
    method: z.enum(BANK_REFUND_METHODS, { error: PAYMENT_MESSAGES.methodMissing }),
    note: freeText(BANK_REFUND_NOTE_MAX_LENGTH, PAYMENT_MESSAGES.noteTooLong),
  });
}

export type BankRefundFormValue = z.output<ReturnType<typeof bankRefundFormSchema>>;

export const BANK_REFUND_FORM_FIELDS = [
  "intent",
  "orderId",
  "amountCents",
  "refundedOn",
  "method",
  "reference",
  "note",
  "nonce",
] as const;

/** A payment as the order page lists it. */
export interface ReceivedPayment {
  id: string;
  amountCents: number;
  /** 'yyyy-MM-dd' (UK date). */
  receivedOn: string;
  method: StoredPaymentMethod;
  reference: string | null;
  actor: string;
}

/** A received payment in one line: "£500.00 by bank transfer on 24/11/2026 (ref ACME 123)". */
export function paymentLine(
  payment: Pick<ReceivedPayment, "amountCents" | "receivedOn" | "method" | "reference">,
) {
  if (payment.method === "transfer") {
    // Its reference names the other order: "To NW-…" or "From NW-…".
    const amount = formatPence(Math.abs(payment.amountCents));
    const way = payment.amountCents < 0 ? "moved out" : "moved in";
    return `${amount} ${way} with places on ${ukDate(payment.receivedOn)}${payment.reference ? ` (${payment.reference})` : ""}`;
  }
  const how = MONEY_METHOD_LABELS[payment.method].toLowerCase();
  const ref = payment.reference ? ` (ref ${payment.reference})` : "";
  return `${formatPence(payment.amountCents)} by ${how} on ${ukDate(payment.receivedOn)}${ref}`;
}
