import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Banknote, Undo2 } from "lucide-react";
import { useFetcher } from "react-router";
import { describe, Field } from "#app/components/forms/fields.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
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
import { ukDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { focusFirstInvalid, parseForm, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import type { AdminOrderPage } from "#app/lib/orders/orders.ts";
import {
  BANK_REFUND_INTENT,
  BANK_REFUND_METHODS,
  BANK_REFUND_NOTE_MAX_LENGTH,
  MONEY_METHOD_LABELS,
  PAYMENT_INTENT,
  PAYMENT_RECEIVED_METHODS,
  PAYMENT_REFERENCE_MAX_LENGTH,
  bankRefundFormSchema,
  paymentFormSchema,
  paymentLine,
} from "#app/lib/orders/payments.ts";
import { newRefundNonce, penceToPounds } from "#app/lib/orders/refunds.ts";
import { Section } from "./section.tsx";

/**
 * Payments as they arrive (docs/decisions/0042-payments-as-they-arrive.md): an invoice order's
 * payments and balance, "Record Payment", and "Record Bank Refund" on any paid order. Both
 * dialogs are uncontrolled forms checked with the server's schemas before posting; each opening
 * gets a nonce, so the same form sent twice is recorded once.
 */

interface MoneyDialogProps {
  intent: typeof PAYMENT_INTENT | typeof BANK_REFUND_INTENT;
  orderId: string;
  trigger: ReactNode;
  title: ReactNode;
  description: ReactNode;
  dateName: "receivedOn" | "refundedOn";
  dateLabel: string;
  today: string;
  defaultAmountCents: number;
  amountHint?: string;
  methods: readonly (keyof typeof MONEY_METHOD_LABELS)[];
  withNote?: boolean;
  check: (form: FormData) => ReturnType<typeof parseForm>;
  submitLabel: string;
  busyLabel: string;
  toastTitle: string;
  failedTitle: string;
}

function MoneyDialog(props: MoneyDialogProps) {
  const baseId = useId();
  const fetcher = useFetcher<FormAnswer>();
  const busy = fetcher.state !== "idle";
  const [open, setOpen] = useState(false);
  const [nonce, setNonce] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  useFormAnswer(fetcher, {
    successToast: (answer) => ({ title: props.toastTitle, description: answer.message }),
    failureToast: (answer) => ({ title: props.failedTitle, description: answer.message }),
    onSuccess: () => {
      setNonce("");
      setErrors({});
      setOpen(false);
    },
    onFailure: (answer) => setErrors(answer.fieldErrors),
  });

  function changeOpen(next: boolean) {
    if (busy) return;
    if (next) {
      if (!nonce) setNonce(newRefundNonce());
      setErrors({});
    }
    setOpen(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    const parsed = props.check(new FormData(event.currentTarget));
    if (!parsed.ok) {
      event.preventDefault();
      setErrors(parsed.fieldErrors);
      focusFirstInvalid(event.currentTarget, parsed.fieldErrors);
      return;
    }
    setErrors({});
  }

  const id = (name: string) => `${baseId}-${name}`;
  const formError = errors.form ?? errors.orderId ?? errors.nonce ?? errors.intent;
  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>{props.trigger}</DialogTrigger>
      <DialogPanel title={props.title} description={props.description}>
        <fetcher.Form
          method="post"
          noValidate
          className={DIALOG_FORM}
          onSubmit={submit}
          key={`${props.intent}-${props.defaultAmountCents}`}
        >
          <input type="hidden" name="intent" value={props.intent} />
          <input type="hidden" name="orderId" value={props.orderId} />
          <input type="hidden" name="nonce" value={nonce} />
          <DialogFormBody
            busy={busy}
            submit={
              <Button type="submit" disabled={busy || !nonce}>
                {busy ? props.busyLabel : props.submitLabel}
              </Button>
            }
          >
            <Field
              look="admin"
              id={id("amount")}
              label="Amount (£)"
              required
              error={errors.amountCents}
              hint={props.amountHint}
            >
              <Input
                {...describe(id("amount"), errors.amountCents, Boolean(props.amountHint))}
                name="amountCents"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={penceToPounds(props.defaultAmountCents)}
              />
            </Field>
            <Field
              look="admin"
              id={id("date")}
              label={props.dateLabel}
              required
              error={errors[props.dateName]}
              hint="As the bank statement says, e.g. 24/11/2026"
            >
              <Input
                {...describe(id("date"), errors[props.dateName], true)}
                name={props.dateName}
                autoComplete="off"
                defaultValue={ukDate(props.today)}
              />
            </Field>
            <Field look="admin" id={id("method")} label="Method" required error={errors.method}>
              <NativeSelect
                {...describe(id("method"), errors.method)}
                name="method"
                defaultValue={props.methods[0]}
              >
                <SelectOptions values={props.methods} labels={MONEY_METHOD_LABELS} />
              </NativeSelect>
            </Field>
            <Field
              look="admin"
              id={id("reference")}
              label="Reference"
              error={errors.reference}
              hint="The bank's reference or cheque number, to match the statement."
            >
              <Input
                {...describe(id("reference"), errors.reference, true)}
                name="reference"
                autoComplete="off"
                maxLength={PAYMENT_REFERENCE_MAX_LENGTH}
              />
            </Field>
            {props.withNote ? (
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
                  rows={2}
                  maxLength={BANK_REFUND_NOTE_MAX_LENGTH}
                />
              </Field>
            ) : null}
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

/** The order's state in money: what is owed, paid in full, or overpaid. */
function BalanceBadge({ balanceCents }: { balanceCents: number }) {
  if (balanceCents > 0) return <Badge variant="outline">{formatPence(balanceCents)} owed</Badge>;
  if (balanceCents < 0) {
    return <Badge variant="destructive">Overpaid by {formatPence(-balanceCents)}</Badge>;
  }
  return <Badge variant="secondary">Paid in full</Badge>;
}

/** "Record Payment" for an invoice order, with what is owed as the default amount. */
export function RecordPaymentDialog({ page }: { page: AdminOrderPage }) {
  const payments = page.payments!;
  const { order } = page;
  return (
    <MoneyDialog
      intent={PAYMENT_INTENT}
      orderId={order.id}
      trigger={
        <Button type="button" size="sm" variant="outline">
          <Banknote aria-hidden />
          Record Payment
        </Button>
      }
      title={<>Record a payment on order {order.reference}</>}
      description={
        payments.balanceCents > 0
          ? `${formatPence(payments.balanceCents)} is owed. A payment of the whole balance marks the order paid and sends the buyer their receipt; less is recorded as a part payment.`
          : "The order is paid: money received now is recorded as an overpayment."
      }
      dateName="receivedOn"
      dateLabel="Date received"
      today={page.today}
      defaultAmountCents={Math.max(0, payments.balanceCents)}
      methods={PAYMENT_RECEIVED_METHODS}
      check={(form) => parseForm(form, paymentFormSchema(page.today))}
      submitLabel="Record Payment"
      busyLabel="Recording..."
      toastTitle="Payment Recorded"
      failedTitle="Payment Not Recorded"
    />
  );
}

/** "Record Bank Refund": money paid back outside Stripe on a paid order. */
export function BankRefundDialog({ page }: { page: AdminOrderPage }) {
  const left = page.bankRefundableCents ?? 0;
  const today = page.today;
  return (
    <MoneyDialog
      intent={BANK_REFUND_INTENT}
      orderId={page.order.id}
      trigger={
        <Button type="button" size="sm" variant="outline">
          <Undo2 aria-hidden />
          Record Bank Refund
        </Button>
      }
      title={<>Record a bank refund on order {page.order.reference}</>}
      description="For money already paid back outside Stripe (a transfer or cheque). The buyer is e-mailed a credit note for the amount."
      dateName="refundedOn"
      dateLabel="Date refunded"
      today={today}
      defaultAmountCents={left}
      amountHint={`Up to ${formatPence(left)}`}
      methods={BANK_REFUND_METHODS}
      withNote
      check={(form) => parseForm(form, bankRefundFormSchema(today, left))}
      submitLabel="Record Refund"
      busyLabel="Recording..."
      toastTitle="Refund Recorded"
      failedTitle="Refund Not Recorded"
    />
  );
}

/** An invoice order's payments, oldest first, with the balance. */
export function PaymentsSection({ page }: { page: AdminOrderPage }) {
  const payments = page.payments;
  if (!payments) return null;
  return (
    <Section title="Payments received">
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <span>
          {formatPence(payments.receivedCents)} received of {formatPence(page.amounts.totalCents)}
        </span>
        {page.order.status === "canceled" ? (
          // Cancelled: nothing is owed; what was received is owed back until it is refunded.
          payments.receivedCents > 0 ? (
            page.bankRefundableCents ? (
              <Badge variant="destructive">
                {formatPence(page.bankRefundableCents)} to pay back
              </Badge>
            ) : (
              <Badge variant="outline">Paid back</Badge>
            )
          ) : null
        ) : payments.receivedCents > 0 || page.order.status === "invoiced" ? (
          <BalanceBadge balanceCents={payments.balanceCents} />
        ) : null}
      </div>
      {payments.received.length === 0 ? (
        <p className="text-sm text-muted-foreground">No payment recorded yet.</p>
      ) : (
        <ul className="grid gap-1 text-sm tabular-nums" aria-label="Payments">
          {payments.received.map((payment) => (
            <li key={payment.id}>{paymentLine(payment)}</li>
          ))}
        </ul>
      )}
      {payments.recordable ? (
        <div className="mt-3">
          <RecordPaymentDialog page={page} />
        </div>
      ) : null}
    </Section>
  );
}
