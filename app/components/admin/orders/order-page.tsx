import { useRef, useState } from "react";
import { BillingForm } from "./billing-form.tsx";
import { Detail, Section } from "./section.tsx";
import { StudentsSection } from "./students-section.tsx";
import { DateSection } from "./date-section.tsx";
import { RefundDialog } from "./refund-dialog.tsx";
import { BankRefundDialog, PaymentsSection } from "./payments-section.tsx";
import { ArrowLeft, Download, MessageSquarePlus } from "lucide-react";
import { Link, useFetcher } from "react-router";
import {
  attendeesSummary,
  buyerName,
  OrderStatusActions,
  OrderStatusBadge,
} from "#app/components/admin/order-parts.tsx";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { formatDateTime } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { parseForm, type FieldErrors, type FormAnswer } from "#app/lib/forms.ts";
import { BOOKING_LINK_INTENT } from "#app/lib/orders/booking.ts";
import {
  ORDER_DOCUMENT_LABELS,
  ORDER_NOTE_MAX_LENGTH,
  PAYMENT_METHOD_LABELS,
  orderNoteFormSchema,
  type AdminOrderPage,
  type OrderTimelineEntry,
} from "#app/lib/orders/orders.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";

/** The admin order page's view: what the loader read, laid out; the actions post to its route. */

function BuyerAndBilling({ page, answer }: { page: AdminOrderPage; answer?: FormAnswer }) {
  const { order, billing } = page;
  const address = [...billing.addressLines, billing.town, billing.postcode, billing.country].filter(
    Boolean,
  );
  return (
    <Section title="Buyer and billing">
      <dl>
        <Detail term="Name">{buyerName(order)}</Detail>
        <Detail term="E-mail">
          <a
            href={`mailto:${order.buyerEmail}`}
            className="text-primary underline-offset-4 hover:underline"
          >
            {order.buyerEmail}
          </a>
        </Detail>
        <Detail term="Phone">
          {order.buyerPhone ? (
            <a
              href={`tel:${order.buyerPhone}`}
              className="text-primary underline-offset-4 hover:underline"
            >
              {order.buyerPhone}
            </a>
          ) : null}
        </Detail>
        <Detail term="Company">{order.buyerCompany}</Detail>
        <Detail term="Organisation">{billing.organisation}</Detail>
        <Detail term="Billing address">
          {address.length ? (
            <address className="not-italic">
              {address.map((line, i) => (
                <span key={i} className="block">
                  {line}
                </span>
              ))}
            </address>
          ) : null}
        </Detail>
        <Detail term="PO number">{billing.poNumber}</Detail>
        <Detail term="Buyer VAT number">{billing.vatNumber}</Detail>
      </dl>
      {order.spamReason ? null : <BookingLinkButton />}
      {page.billingForm ? (
        <BillingForm
          stored={page.billingForm.stored}
          reissues={page.billingForm.reissues}
          paymentMethod={order.paymentMethod}
          pageAnswer={answer}
        />
      ) : null}
    </Section>
  );
}

/**
 * E-mails the buyer a fresh link to their booking's page (decision 0037), e.g. when they lost the
 * confirmation. Not offered while the order is held as suspected spam.
 */
function BookingLinkButton() {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher);
  return (
    <fetcher.Form method="post" className="mt-3">
      <input type="hidden" name="intent" value={BOOKING_LINK_INTENT} />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        E-mail the booking link to the buyer
      </Button>
    </fetcher.Form>
  );
}

function Amounts({ page }: { page: AdminOrderPage }) {
  const { amounts, order } = page;
  const vatRate = amounts.vatRateBasisPoints > 0 ? formatVatRate(amounts.vatRateBasisPoints) : null;
  return (
    <Section title="Amounts">
      <p className="mb-2 text-sm">{order.courseTitle}</p>
      <dl className="tabular-nums">
        <Detail term="Unit price">
          {formatPence(amounts.unitPriceCents)}
          {vatRate ? (
            <span className="text-muted-foreground">
              {" "}
              {amounts.pricesIncludeVat ? "incl. VAT" : "excl. VAT"}
            </span>
          ) : null}
        </Detail>
        <Detail term="Quantity">{amounts.quantity}</Detail>
        <Detail term="Net">{formatPence(amounts.netCents)}</Detail>
        <Detail term={vatRate ? `VAT (${vatRate})` : "VAT"}>{formatPence(amounts.vatCents)}</Detail>
        <Detail term="Total">
          <span className="font-semibold">{formatPence(amounts.totalCents)}</span>
        </Detail>
        <Detail term="Refunded">{formatPence(amounts.refundedCents)}</Detail>
      </dl>
    </Section>
  );
}

function Documents({ page }: { page: AdminOrderPage }) {
  return (
    <Section title="Documents">
      {page.documents.length === 0 ? (
        <p className="text-sm text-muted-foreground">No invoice, receipt or credit note yet.</p>
      ) : (
        <ul className="grid gap-2 text-sm">
          {page.documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <span className="font-medium">{ORDER_DOCUMENT_LABELS[d.kind]}</span>{" "}
                <span className="font-mono">{d.number}</span>
                <span className="block text-xs text-muted-foreground">
                  {formatDateTime(d.issuedAt)} · {formatPence(d.totalCents)} · by {d.issuedBy}
                </span>
              </span>
              <Button asChild size="sm" variant="outline">
                <a
                  href={d.href}
                  download
                  aria-label={`Download ${ORDER_DOCUMENT_LABELS[d.kind]} ${d.number} (PDF)`}
                >
                  <Download aria-hidden />
                  PDF
                </a>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** Who did it, in words: an admin's e-mail, the buyer, Stripe, or the system. */
function actorText(actor: string | null): string | null {
  if (actor === null) return null;
  if (actor === "buyer") return "by the buyer";
  if (actor === "stripe") return "by Stripe";
  if (actor === "system") return "automatically";
  return `by ${actor}`;
}

function TimelineItem({ entry }: { entry: OrderTimelineEntry }) {
  const who = actorText(entry.actor);
  const note = entry.kind === "note";
  return (
    <li className="relative border-l border-border pb-4 pl-4 last:pb-0" data-kind={entry.kind}>
      <span
        aria-hidden
        className={`absolute top-1.5 -left-1 size-2 rounded-full ${
          entry.kind === "email_failed" ? "bg-destructive" : note ? "bg-info" : "bg-primary"
        }`}
      />
      <p className="text-sm">
        <span className="font-medium">{entry.title}</span>
        {who ? <span className="text-muted-foreground"> {who}</span> : null}
      </p>
      <p className="text-xs text-muted-foreground">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </p>
      {entry.detail ? (
        <p
          className={`mt-1 text-sm [overflow-wrap:anywhere] ${
            note ? "rounded-md bg-muted/50 p-2 whitespace-pre-wrap" : "text-muted-foreground"
          }`}
        >
          {entry.detail}
        </p>
      ) : null}
    </li>
  );
}

type NoteAnswer = FormAnswer;

/** "Add note": checked in the browser with the form's schema, then by the server. */
function AddNoteForm() {
  const fetcher = useFetcher<NoteAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    onSuccess: () => {
      formRef.current?.reset();
      setErrors({});
    },
    onFailure: (answer) => setErrors(answer.fieldErrors),
  });
  const error = errors.text;
  return (
    <fetcher.Form
      method="post"
      ref={formRef}
      className="grid gap-2"
      aria-label="Add a note"
      noValidate
      onSubmit={(event) => {
        const parsed = parseForm(new FormData(event.currentTarget), orderNoteFormSchema);
        if (!parsed.ok) {
          event.preventDefault();
          setErrors(parsed.fieldErrors);
          event.currentTarget.querySelector("textarea")?.focus();
          return;
        }
        setErrors({});
      }}
    >
      <input type="hidden" name="intent" value="note" />
      <Label htmlFor="order-note">Internal note</Label>
      <Textarea
        id="order-note"
        name="text"
        rows={3}
        className="min-h-[80px]"
        maxLength={ORDER_NOTE_MAX_LENGTH}
        placeholder="Only staff see notes: a call with the buyer, a PO that is coming…"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "order-note-error" : "order-note-hint"}
      />
      {error ? (
        <p id="order-note-error" role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : (
        <p id="order-note-hint" className="text-xs text-muted-foreground">
          Up to {ORDER_NOTE_MAX_LENGTH.toLocaleString("en-GB")} characters; kept with your name.
        </p>
      )}
      <div>
        <Button type="submit" size="sm" disabled={busy}>
          <MessageSquarePlus aria-hidden />
          {busy ? "Adding..." : "Add Note"}
        </Button>
      </div>
    </fetcher.Form>
  );
}

function Timeline({ page }: { page: AdminOrderPage }) {
  return (
    <Section title="Timeline and notes">
      <AddNoteForm />
      <ol aria-label="Timeline" className="mt-6 ml-1">
        {[...page.timeline].reverse().map((entry) => (
          <TimelineItem key={entry.key} entry={entry} />
        ))}
      </ol>
    </Section>
  );
}

function StatusAndActions({ page }: { page: AdminOrderPage }) {
  const { order } = page;
  return (
    <Section title="Status and actions">
      <dl>
        <Detail term="Status">
          <span className="flex flex-wrap gap-1">
            <OrderStatusBadge status={order.listStatus} />
            {order.spamReason ? <SuspectedSpamBadge reason={order.spamReason} /> : null}
          </span>
        </Detail>
        <Detail term="Method">
          <Badge variant="outline">{PAYMENT_METHOD_LABELS[order.paymentMethod]}</Badge>
        </Detail>
        <Detail term="Placed">{formatDateTime(order.createdAt)}</Detail>
        <Detail term="Places">{attendeesSummary(order)}</Detail>
      </dl>
      <div className="mt-4 border-t border-border pt-4">
        <OrderStatusActions order={order} className="flex flex-wrap gap-2" />
        {page.bankRefundableCents !== null ? (
          <div className="mt-2">
            <BankRefundDialog page={page} />
          </div>
        ) : null}
        {page.refundable ? (
          <div className="mt-2">
            <RefundDialog
              order={{
                id: order.id,
                reference: order.reference,
                buyerName: `${order.buyerFirstName} ${order.buyerLastName}`,
                totalAmountCents: page.amounts.totalCents,
                refundedAmountCents: page.amounts.refundedCents,
              }}
            />
          </div>
        ) : null}
      </div>
    </Section>
  );
}

/** The buyer paid at Stripe after the order was cancelled: what is owed back, and where to act. */
function PaidAfterCancellation({ page }: { page: AdminOrderPage }) {
  const refunded = page.amounts.refundedCents >= page.amounts.totalCents;
  return (
    <section
      aria-labelledby="paid-after-cancellation-heading"
      className="mb-6 rounded-lg border border-destructive bg-destructive/5 p-4"
    >
      <h2 id="paid-after-cancellation-heading" className="font-semibold">
        Paid after cancellation
      </h2>
      <p className="mt-1 text-sm">
        The buyer paid {formatPence(page.amounts.totalCents)} at Stripe on{" "}
        {formatDateTime(page.paidAfterCancellationAt!)}, after this order was cancelled. The order
        stays cancelled.{" "}
        {refunded
          ? "The payment has been refunded."
          : "Refund the payment under Status and actions; the buyer gets a credit note by e-mail."}
      </p>
    </section>
  );
}

export function OrderPageView({
  page,
  answer,
}: {
  page: AdminOrderPage;
  /** The answer to a post without JavaScript (a refused one is shown on its form). */
  answer?: FormAnswer;
}) {
  const { order } = page;
  return (
    <>
      <Link
        to="/admin/payments"
        className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Payments
      </Link>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-bold tracking-tight md:text-3xl">
          Order {order.reference}
        </h1>
        <OrderStatusBadge status={order.listStatus} />
        {page.paidAfterCancellationAt ? (
          <Badge variant="destructive">Paid after cancellation</Badge>
        ) : null}
      </div>
      {page.paidAfterCancellationAt ? <PaidAfterCancellation page={page} /> : null}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {/* First on a phone (status, actions and money), the right-hand column from lg. */}
        <div className="grid content-start gap-6 lg:order-last">
          <StatusAndActions page={page} />
          <Amounts page={page} />
          <PaymentsSection page={page} />
          <Documents page={page} />
        </div>
        <div className="grid content-start gap-6">
          <BuyerAndBilling page={page} answer={answer} />
          <DateSection page={page} answer={answer} />
          <StudentsSection page={page} answer={answer} />
          <Timeline page={page} />
        </div>
      </div>
    </>
  );
}
