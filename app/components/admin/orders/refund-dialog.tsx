import { useId, useState, type FormEvent } from "react";
import { RotateCcw } from "lucide-react";
import { useFetcher } from "react-router";
import { describe, Field } from "#app/components/forms/fields.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DIALOG_FORM,
  DialogFormBody,
  DialogPanel,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect, SelectOptions } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { formatPence } from "#app/lib/format.ts";
import { focusFirstInvalid, parseForm, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import {
  newRefundNonce,
  penceToPounds,
  poundsToPence,
  REFUND_NOTE_MAX_LENGTH,
  REFUND_REASON_LABELS,
  REFUND_REASONS,
  refundFormSchemaFor,
  refundSuccessMessage,
  type RefundAnswerExtra,
} from "#app/lib/orders/refunds.ts";

/**
 * The order page's "Refund" (decision 0016): a dialog with the amount (the whole remaining amount
 * by default), Stripe's reason and a note, and a sentence naming the order and the amount before
 * the admin confirms. It posts `intent=refund` to the page's own action through a fetcher and shows
 * the answer as a toast. Inputs are uncontrolled; the amount is also read as it is typed, only to
 * say it in the confirmation. Each opening after a refund gets a new nonce: the same form sent
 * twice refunds once, two refunds of the same amount are two forms.
 */

/** What the dialog needs of an order (the order page's loader has all of it). */
export interface RefundDialogOrder {
  id: string;
  /** 'NW-1A2B3C4D' */
  reference: string;
  buyerName: string;
  totalAmountCents: number;
  refundedAmountCents: number;
}

export type RefundAnswer = FormAnswer<RefundAnswerExtra>;

export function RefundDialog({
  order,
  disabled = false,
  onRefunded,
}: {
  order: RefundDialogOrder;
  /** The page may disable it (e.g. while another action on the order runs). */
  disabled?: boolean;
  onRefunded?: (answer: Extract<RefundAnswer, { ok: true }>) => void;
}) {
  const baseId = useId();
  const remaining = Math.max(0, order.totalAmountCents - order.refundedAmountCents);
  const fetcher = useFetcher<RefundAnswer>();
  const busy = fetcher.state !== "idle";
  const [open, setOpen] = useState(false);
  const [nonce, setNonce] = useState("");
  const [typed, setTyped] = useState(() => penceToPounds(remaining));
  const [errors, setErrors] = useState<FieldErrors>({});

  useFormAnswer(fetcher, {
    successToast: (answer) => ({
      title: "Refund Issued",
      description: answer.message ?? refundSuccessMessage(answer),
    }),
    failureToast: (answer) => ({ title: "Refund Failed", description: answer.message }),
    onSuccess: (answer) => {
      // The next refund is another request: a new nonce.
      setNonce("");
      setErrors({});
      setOpen(false);
      onRefunded?.(answer);
    },
    // The nonce stays: sending the same form again (Stripe did not answer) never refunds twice.
    onFailure: (answer) => setErrors(answer.fieldErrors),
  });

  function changeOpen(next: boolean) {
    if (busy) return;
    if (next) {
      if (!nonce) setNonce(newRefundNonce());
      setTyped(penceToPounds(remaining));
      setErrors({});
    }
    setOpen(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    const parsed = parseForm(new FormData(event.currentTarget), refundFormSchemaFor(remaining));
    if (!parsed.ok) {
      event.preventDefault();
      setErrors(parsed.fieldErrors);
      focusFirstInvalid(event.currentTarget, parsed.fieldErrors);
      return;
    }
    setErrors({});
  }

  /** A field's message goes once the admin changes that field. */
  const clearError = (name: string) =>
    setErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _gone, ...rest } = current;
      return rest;
    });
  const id = (name: string) => `${baseId}-refund-${name}`;
  const amountCents = poundsToPence(typed);
  const amountText = amountCents && amountCents > 0 ? formatPence(amountCents) : null;
  const formError = errors.form ?? errors.orderId ?? errors.nonce ?? errors.intent;

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={disabled || remaining <= 0}
          aria-label={`Refund order ${order.reference}`}
          title={remaining <= 0 ? "Refunded in full" : undefined}
        >
          <RotateCcw aria-hidden />
          Refund
        </Button>
      </DialogTrigger>
      <DialogPanel
        title={<>Refund order {order.reference}</>}
        description={
          <>
            Paid {formatPence(order.totalAmountCents)} by card
            {order.refundedAmountCents > 0
              ? `; ${formatPence(order.refundedAmountCents)} refunded so far`
              : ""}
            . The refund goes back to the card through Stripe, and the buyer is e-mailed a credit
            note.
          </>
        }
      >
        <fetcher.Form
          method="post"
          noValidate
          className={DIALOG_FORM}
          onSubmit={submit}
          // A new remaining amount (after a refund) is a new default.
          key={`${order.id}-${remaining}`}
        >
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="orderId" value={order.id} />
          <input type="hidden" name="nonce" value={nonce} />
          <DialogFormBody
            busy={busy}
            cancelLabel="Keep Payment"
            submit={
              <Button type="submit" variant="destructive" disabled={busy || !nonce}>
                {busy ? "Refunding..." : amountText ? `Refund ${amountText}` : "Refund"}
              </Button>
            }
          >
            <Field
              look="admin"
              id={id("amount")}
              label="Amount (£)"
              required
              error={errors.amount}
              hint={`Up to ${formatPence(remaining)}`}
            >
              <Input
                {...describe(id("amount"), errors.amount, true)}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={penceToPounds(remaining)}
                onChange={(event) => {
                  setTyped(event.currentTarget.value);
                  clearError("amount");
                }}
              />
            </Field>
            <Field id={id("reason")} label="Reason" required error={errors.reason} look="admin">
              <NativeSelect
                {...describe(id("reason"), errors.reason)}
                name="reason"
                defaultValue=""
                onChange={() => clearError("reason")}
              >
                <option value="">Choose a reason…</option>
                <SelectOptions values={REFUND_REASONS} labels={REFUND_REASON_LABELS} />
              </NativeSelect>
            </Field>
            <Field
              look="admin"
              id={id("note")}
              label="Note"
              error={errors.note}
              hint="Kept with the order's history; not sent to the buyer."
            >
              <Textarea
                {...describe(id("note"), errors.note, true)}
                name="note"
                rows={3}
                onChange={() => clearError("note")}
                maxLength={REFUND_NOTE_MAX_LENGTH}
              />
            </Field>
            <p
              className="rounded-md border border-border bg-muted/40 p-3 text-sm"
              aria-live="polite"
            >
              {amountText
                ? `${amountText} will be refunded to the card that paid for order ${order.reference} (${order.buyerName}). This cannot be undone.`
                : `Enter the amount to refund on order ${order.reference}.`}
            </p>
            {formError ? (
              <p className="text-sm text-destructive" role="alert">
                {formError}
              </p>
            ) : null}
          </DialogFormBody>
        </fetcher.Form>
      </DialogPanel>
    </Dialog>
  );
}
