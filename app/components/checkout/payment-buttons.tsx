import { CreditCard, ExternalLink, FileText, Info } from "lucide-react";
import { Link } from "react-router";
import { fieldIds } from "#app/components/forms/fields.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { FIELD, type CheckoutIntent } from "#app/lib/checkout.ts";
import type { FieldErrors } from "#app/lib/forms.ts";

/**
 * The payment page opens in a new tab (docs/rules.md, Checkout and orders); this notice links to it
 * in case a popup blocker stopped it.
 */
export function PaymentOpenedNotice({ url }: { url: string }) {
  return (
    <div
      role="status"
      className="grid gap-2 rounded-md border border-info/40 bg-info/10 p-4 text-sm"
    >
      <p className="font-semibold">Secure payment opened in a new tab</p>
      <p>
        Complete your payment on Stripe's page in the new tab. If no tab opened (a popup blocker may
        have stopped it), continue here:
      </p>
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonVariants({ size: "sm" })}
      >
        Continue to payment
        <ExternalLink aria-hidden />
      </a>
    </div>
  );
}

/**
 * Pay by card (when the site takes cards) or ask for an invoice. While a post is under way both
 * are disabled, and the one that was pressed (`pending`) says so. Without card payments the
 * invoice button comes first and is the primary one, so Enter in a field asks for the invoice
 * (a form's Enter presses its first submit button, and a disabled one does nothing).
 */
export function PaymentButtons({
  cardPaymentsEnabled,
  busy,
  pending,
}: {
  cardPaymentsEnabled: boolean;
  busy: boolean;
  pending: CheckoutIntent | null;
}) {
  const card = (
    <Button
      type="submit"
      name={FIELD.intent}
      value="card"
      size="lg"
      variant={cardPaymentsEnabled ? "default" : "outline"}
      disabled={!cardPaymentsEnabled || busy}
      aria-describedby={cardPaymentsEnabled ? "card-payments-note" : "card-unavailable"}
    >
      <CreditCard aria-hidden />
      {busy && pending === "card" ? "Processing..." : "Pay with Card"}
    </Button>
  );
  const invoice = (
    <Button
      type="submit"
      name={FIELD.intent}
      value="invoice"
      size="lg"
      variant={cardPaymentsEnabled ? "outline" : "default"}
      disabled={busy}
    >
      <FileText aria-hidden />
      {busy && pending === "invoice" ? "Processing..." : "Request Manual Invoice"}
    </Button>
  );
  if (!cardPaymentsEnabled) {
    return (
      <div className="grid gap-3">
        {invoice}
        {card}
        <p id="card-unavailable" className="flex gap-2 text-sm text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          Card payments are not available on this site at the moment. Request a manual invoice
          instead: we'll e-mail it within 24 hours.
        </p>
      </div>
    );
  }
  return (
    <div className="grid gap-3">
      {card}
      {invoice}
      <p id="card-payments-note" className="text-xs text-muted-foreground">
        Card payments are handled by Stripe; your card details never reach our servers.
      </p>
    </div>
  );
}

/**
 * The required 'I accept the terms' box, with a link to them (opened in a new tab, so nothing
 * typed here is lost). A native, uncontrolled checkbox: ticked before hydration, it stays so.
 */
export function TermsAcceptance({
  errors,
  defaults,
}: {
  errors: FieldErrors;
  defaults: Record<string, string>;
}) {
  const { id, errorId } = fieldIds("checkout", FIELD.acceptTerms);
  const error = errors[FIELD.acceptTerms];
  return (
    <div className="grid gap-2">
      <div className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          id={id}
          name={FIELD.acceptTerms}
          defaultChecked={defaults[FIELD.acceptTerms] === "on"}
          aria-required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 size-4 shrink-0 accent-primary"
        />
        <label htmlFor={id}>
          I accept the{" "}
          <Link
            to="/terms"
            target="_blank"
            className="text-primary underline underline-offset-4 hover:text-primary/80"
          >
            terms and conditions
          </Link>
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        </label>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
