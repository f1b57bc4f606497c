import { FileText } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Notice } from "#app/components/ui/notice.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { formatDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";
import { QUOTE_STATUS_LABELS, type QuoteStatus } from "#app/lib/quotes/quotes.ts";

/**
 * The customer's quotation page (decision 0049): what was quoted, as sent, and the two answers.
 * Plain forms: they post and show their answer without JavaScript too.
 */

/** The page's view of a quote (the server's CustomerQuote, as the loader sends it). */
interface QuoteView {
  status: QuoteStatus;
  snapshot: {
    number: string;
    issuedAt: string;
    validUntil: string;
    customer: { organisation: string; name: string; addressLines: string[] };
    seller: { legalName: string };
    lines: { description: string; quantity: number; unitNetCents: number; netCents: number }[];
    vatRegistered: boolean;
    vatRateBasisPoints: number;
    netCents: number;
    vatCents: number;
    totalCents: number;
    vatNote: string | null;
    terms: string;
    supersedes: { number: string } | null;
  };
  accepted: { at: string; name: string; role: string; poNumber: string | null } | null;
  declined: { at: string; reason: string | null } | null;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} role="alert" className="text-sm text-destructive">
      {message}
    </p>
  ) : null;
}

function StatusNotice({ quote }: { quote: QuoteView }) {
  if (quote.accepted) {
    return (
      <Notice tone="success">
        Accepted by {quote.accepted.name} ({quote.accepted.role}) on {formatDate(quote.accepted.at)}
        {quote.accepted.poNumber ? `, purchase order ${quote.accepted.poNumber}` : ""}. The invoice
        has been sent by e-mail.
      </Notice>
    );
  }
  if (quote.declined) {
    return <Notice tone="success">Declined on {formatDate(quote.declined.at)}. Thank you.</Notice>;
  }
  if (quote.status === "expired") {
    return (
      <Notice tone="error">
        This quotation was valid until {formatDate(quote.snapshot.validUntil)} and can no longer be
        accepted. Reply to our e-mail and we will send you a new one.
      </Notice>
    );
  }
  if (quote.status === "superseded") {
    return (
      <Notice tone="error">
        This quotation has been replaced by a revised one, sent to you by e-mail.
      </Notice>
    );
  }
  return null;
}

function AnswerForms({ answer }: { answer?: FormAnswer }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = answer && !answer.ok ? answer : null;
  const errors = failed?.fieldErrors ?? {};
  const values = failed?.values ?? {};
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <Form method="post" className="grid content-start gap-3" aria-label="Accept the quotation">
        <h2 className="text-xl font-semibold">Accept</h2>
        <input type="hidden" name="intent" value="accept" />
        {failed?.form === "accept" && failed.message && !Object.keys(errors).length ? (
          <Notice tone="error">{failed.message}</Notice>
        ) : null}
        <div className="grid gap-1">
          <Label htmlFor="accept-name">Your name</Label>
          <Input
            id="accept-name"
            name="name"
            autoComplete="name"
            maxLength={120}
            defaultValue={values.name}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "accept-name-error" : undefined}
          />
          <FieldError id="accept-name-error" message={errors.name} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="accept-role">Your role</Label>
          <Input
            id="accept-role"
            name="role"
            autoComplete="organization-title"
            maxLength={120}
            defaultValue={values.role}
            aria-invalid={errors.role ? true : undefined}
            aria-describedby={errors.role ? "accept-role-error" : undefined}
          />
          <FieldError id="accept-role-error" message={errors.role} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="accept-po">Purchase order number (optional)</Label>
          <Input id="accept-po" name="poNumber" maxLength={60} defaultValue={values.poNumber} />
        </div>
        <div className="flex items-start gap-2">
          <input
            id="accept-confirm"
            type="checkbox"
            name="confirm"
            className="mt-1 size-4"
            defaultChecked={values.confirm === "on"}
            aria-invalid={errors.confirm ? true : undefined}
            aria-describedby={errors.confirm ? "accept-confirm-error" : undefined}
          />
          <Label htmlFor="accept-confirm" className="leading-snug font-normal">
            I accept this quotation and its terms on behalf of the organisation named on it.
          </Label>
        </div>
        <FieldError id="accept-confirm-error" message={errors.confirm} />
        <div>
          <Button type="submit" disabled={busy}>
            Accept quotation
          </Button>
        </div>
      </Form>
      <Form method="post" className="grid content-start gap-3" aria-label="Decline the quotation">
        <h2 className="text-xl font-semibold">Decline</h2>
        <input type="hidden" name="intent" value="decline" />
        {failed?.form === "decline" && failed.message ? (
          <Notice tone="error">{failed.message}</Notice>
        ) : null}
        <div className="grid gap-1">
          <Label htmlFor="decline-reason">Reason (optional)</Label>
          <Textarea
            id="decline-reason"
            name="reason"
            rows={4}
            maxLength={2000}
            defaultValue={values.reason}
            placeholder="It helps us to know: price, timing, another supplier…"
          />
        </div>
        <div>
          <Button type="submit" variant="outline" disabled={busy}>
            Decline quotation
          </Button>
        </div>
      </Form>
    </div>
  );
}

export function QuotationView({
  quote,
  pdfHref,
  answer,
}: {
  quote: QuoteView;
  pdfHref: string;
  answer?: FormAnswer;
}) {
  const s = quote.snapshot;
  const open = quote.status === "sent";
  return (
    <section className="mx-auto grid max-w-3xl gap-8 px-4 py-12">
      <div className="grid gap-1">
        <p className="text-sm text-muted-foreground">
          Quotation {s.number} · {QUOTE_STATUS_LABELS[quote.status]}
        </p>
        <h1 className="text-3xl font-bold tracking-tight break-words">
          For {s.customer.organisation}
        </h1>
        <p className="text-muted-foreground">
          Issued {formatDate(s.issuedAt)} by {s.seller.legalName} · valid until{" "}
          {formatDate(s.validUntil)}
          {s.supersedes ? ` · replaces quotation ${s.supersedes.number}` : ""}
        </p>
      </div>
      {answer?.ok ? <Notice tone="success">{answer.message}</Notice> : null}
      <StatusNotice quote={quote} />
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">What is quoted</caption>
          <thead>
            <tr className="border-b border-border text-left text-muted-foreground">
              <th className="py-2 pr-4 font-medium">Description</th>
              <th className="py-2 pr-4 text-right font-medium">Quantity</th>
              <th className="py-2 pr-4 text-right font-medium">Unit price</th>
              <th className="py-2 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody>
            {s.lines.map((line, i) => (
              <tr key={i} className="border-b border-border align-top">
                <td className="py-2 pr-4 [overflow-wrap:anywhere]">{line.description}</td>
                <td className="py-2 pr-4 text-right">{line.quantity}</td>
                <td className="py-2 pr-4 text-right">{formatPence(line.unitNetCents)}</td>
                <td className="py-2 text-right">{formatPence(line.netCents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {s.vatRegistered ? (
              <>
                <tr>
                  <th scope="row" colSpan={3} className="py-1 pr-4 text-right font-normal">
                    Net
                  </th>
                  <td className="py-1 text-right">{formatPence(s.netCents)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={3} className="py-1 pr-4 text-right font-normal">
                    {s.vatNote ? "VAT" : `VAT at ${formatVatRate(s.vatRateBasisPoints)}`}
                  </th>
                  <td className="py-1 text-right">{formatPence(s.vatCents)}</td>
                </tr>
              </>
            ) : null}
            <tr>
              <th scope="row" colSpan={3} className="py-1 pr-4 text-right">
                Total
              </th>
              <td className="py-1 text-right font-semibold">{formatPence(s.totalCents)}</td>
            </tr>
          </tfoot>
        </table>
        {s.vatNote ? <p className="mt-2 text-xs text-muted-foreground">{s.vatNote}</p> : null}
      </div>
      <div>
        <h2 className="text-lg font-semibold">Terms</h2>
        <p className="mt-1 text-sm whitespace-pre-wrap text-muted-foreground">{s.terms}</p>
      </div>
      <div>
        <Button asChild variant="outline">
          <a href={pdfHref} download>
            <FileText aria-hidden />
            Download the quotation (PDF)
          </a>
        </Button>
      </div>
      {open ? <AnswerForms answer={answer} /> : null}
    </section>
  );
}
