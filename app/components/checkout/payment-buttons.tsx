import { CreditCard, ExternalLink, FileText, Info } from "lucide-react";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { FIELD, type CheckoutIntent } from "#app/lib/checkout.ts";

/**
 * Spec §4: the payment page opens in a new tab; this notice links to it in case a popup blocker
 * stopped it.
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
 * are disabled, and the one that was pressed (`pending`) says so.
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
  return (
    <div className="grid gap-3">
      <Button
        type="submit"
        name={FIELD.intent}
        value="card"
        size="lg"
        disabled={!cardPaymentsEnabled || busy}
        aria-describedby={cardPaymentsEnabled ? undefined : "card-unavailable"}
      >
        <CreditCard aria-hidden />
        {busy && pending === "card" ? "Processing..." : "Pay with Card"}
      </Button>
      {cardPaymentsEnabled ? null : (
        <p id="card-unavailable" className="flex gap-2 text-sm text-muted-foreground">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          Card payments are not available on this site at the moment. Request a manual invoice
          instead: we'll e-mail it within 24 hours.
        </p>
      )}
      <Button
        type="submit"
        name={FIELD.intent}
        value="invoice"
        size="lg"
        variant="outline"
        disabled={busy}
      >
        <FileText aria-hidden />
        {busy && pending === "invoice" ? "Processing..." : "Request Manual Invoice"}
      </Button>
      <p className="text-xs text-muted-foreground">
        Card payments are handled by Stripe; your card details never reach our servers.
      </p>
    </div>
  );
}
