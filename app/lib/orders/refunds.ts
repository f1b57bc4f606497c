import { z } from "zod/mini";
import { formatPence } from "../format.ts";
import { dropControlChars } from "../text.ts";

/**
 * Refunds of card payments (decision 0016): the admin order page's refund form, checked by the same
 * schema in the browser (before posting) and on the server (the check that counts). Amounts are
 * typed in pounds ("12.50") and turned into whole pence by reading the digits, never through a
 * floating-point number. Safe on both sides: no server imports here.
 */

/** Why a refund is made: Stripe's own reasons (sent to Stripe as they are). */
export const REFUND_REASONS = ["requested_by_customer", "duplicate", "fraudulent"] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  requested_by_customer: "Requested by the customer",
  duplicate: "Duplicate payment",
  fraudulent: "Fraudulent payment",
};

/** The free-text note kept with a refund (Stripe's metadata values hold 500 characters). */
export const REFUND_NOTE_MAX_LENGTH = 500;

/** The largest amount the form reads: £9,999,999.99 (orders are far below it). */
const MAX_POUNDS_DIGITS = 7;

export const REFUND_MESSAGES = {
  amountMissing: "Please enter the amount to refund",
  amountInvalid: "Please enter an amount in pounds, e.g. 12.50",
  amountZero: "Please enter an amount greater than £0.00",
  amountTooLarge: (remainingCents: number) =>
    remainingCents > 0
      ? `You can refund at most ${formatPence(remainingCents)} on this order`
      : "Nothing is left to refund on this order",
  reasonMissing: "Please choose a reason",
  noteTooLong: `Please keep the note to ${REFUND_NOTE_MAX_LENGTH} characters or fewer`,
  /** The nonce is the form's own: a post without a readable one did not come from the dialog. */
  formUnreadable: "The form could not be read. Please reload the page and try again.",
} as const;

/**
 * Pounds as typed ("12.50", "£1,450", " 7.5 ") → whole pence (1250, 145000, 750); null when it
 * is not an amount of money (letters, three decimals, a minus sign, an exponent). Digits only:
 * "0.1 + 0.2" problems cannot arise.
 */
export function poundsToPence(typed: string): number | null {
  let text = typed.trim().replace(/^£\s*/, "");
  // Thousands separators, only where they belong ("1,450.00", not "1,45").
  if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) text = text.replace(/,/g, "");
  const match = new RegExp(`^(\\d{1,${MAX_POUNDS_DIGITS}})?(?:\\.(\\d{0,2}))?$`).exec(text);
  if (!match || (!match[1] && !match[2])) return null;
  const pounds = Number(match[1] ?? "0");
  const pence = Number((match[2] ?? "").padEnd(2, "0"));
  return pounds * 100 + pence;
}

/** Pence as the amount field shows it: 1250 → "12.50" (no sign, no grouping). */
export function penceToPounds(pence: number): string {
  const whole = Math.trunc(pence / 100);
  return `${whole}.${String(pence % 100).padStart(2, "0")}`;
}

/** A per-dialog token: a double-click posts it twice, and Stripe refunds once (idempotency key). */
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * A fresh nonce for one refund form. `crypto.getRandomValues` is there in every browser and in
 * Node, also on a plain-http admin address (where `crypto.randomUUID` is not).
 */
export function newRefundNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The amount in pounds as typed → pence; with `maxCents`, also at most that. */
function amountField(maxCents?: number) {
  return z.pipe(
    z.string({ error: REFUND_MESSAGES.amountMissing }),
    z.transform((value: string, ctx) => {
      if (value.trim() === "") {
        ctx.issues.push({ code: "custom", message: REFUND_MESSAGES.amountMissing, input: value });
        return z.NEVER;
      }
      const pence = poundsToPence(value);
      if (pence === null) {
        ctx.issues.push({ code: "custom", message: REFUND_MESSAGES.amountInvalid, input: value });
        return z.NEVER;
      }
      if (pence <= 0) {
        ctx.issues.push({ code: "custom", message: REFUND_MESSAGES.amountZero, input: value });
        return z.NEVER;
      }
      if (maxCents !== undefined && pence > maxCents) {
        ctx.issues.push({
          code: "custom",
          message: REFUND_MESSAGES.amountTooLarge(maxCents),
          input: value,
        });
        return z.NEVER;
      }
      return pence;
    }),
  );
}

function refundSchema(maxCents?: number) {
  const fields = z.object({
    intent: z.literal("refund"),
    orderId: z.uuid({ error: REFUND_MESSAGES.formUnreadable }),
    amount: amountField(maxCents),
    reason: z.enum(REFUND_REASONS, { error: REFUND_MESSAGES.reasonMissing }),
    note: z.pipe(
      z.pipe(
        z.pipe(
          z.optional(z.string()),
          z.transform((v: string | undefined) => dropControlChars(v ?? "").trim()),
        ),
        z.string().check(z.maxLength(REFUND_NOTE_MAX_LENGTH, REFUND_MESSAGES.noteTooLong)),
      ),
      z.transform((v: string) => (v === "" ? null : v)),
    ),
    nonce: z
      .string({ error: REFUND_MESSAGES.formUnreadable })
      .check(z.regex(NONCE, { error: REFUND_MESSAGES.formUnreadable })),
  });
  return z.pipe(
    fields,
    z.transform(({ amount, ...rest }: z.output<typeof fields>) => ({
      ...rest,
      amountCents: amount,
    })),
  );
}

/**
 * The refund form as posted: `intent=refund`, the order, the amount in pounds (→ `amountCents`),
 * Stripe's reason, an optional note and the dialog's nonce. The server checks the amount against
 * the order as it is then (refunds.server.ts).
 */
export const refundFormSchema = refundSchema();

export type RefundFormValue = z.output<typeof refundFormSchema>;

/** The field names the refund form posts (what a failed post echoes back). */
export const REFUND_FORM_FIELDS = [
  "intent",
  "orderId",
  "amount",
  "reason",
  "note",
  "nonce",
] as const;

/**
 * The schema the dialog checks before posting: the same, and the amount at most the remaining
 * amount it was shown (a message next to the field at once, with any others).
 */
export function refundFormSchemaFor(remainingCents: number) {
  return refundSchema(remainingCents);
}

/** A refund's reason as the order's timeline, its credit note and the buyer's e-mail say it. */
export function refundReasonText(reason: string | null, note: string | null): string {
  const label =
    reason && (REFUND_REASONS as readonly string[]).includes(reason)
      ? REFUND_REASON_LABELS[reason as RefundReason]
      : reason
        ? reason.replace(/_/g, " ")
        : "Refunded in Stripe";
  return note ? `${label}: ${note}` : label;
}

/** What the refund action answers on success (besides the toast's message). */
export interface RefundAnswerExtra {
  refundId: string;
  amountCents: number;
  refundedAmountCents: number;
  creditNoteNumber: string | null;
}

/** The success toast's text. */
export function refundSuccessMessage(extra: {
  amountCents: number;
  creditNoteNumber: string | null;
}): string {
  return extra.creditNoteNumber
    ? `Refunded ${formatPence(extra.amountCents)}; credit note ${extra.creditNoteNumber} e-mailed to the buyer`
    : `Refunded ${formatPence(extra.amountCents)}; the buyer has been e-mailed`;
}
