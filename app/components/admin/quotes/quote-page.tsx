import { FileText, Send, Trash2, Copy } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { Detail, Section } from "#app/components/admin/orders/section.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { formatDate, formatDateTime } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import { inquiryPageHref } from "#app/lib/inquiries/thread.ts";
import type { AdminQuotePage } from "#app/lib/quotes/quotes.ts";
import { QuoteEditor } from "./quote-editor.tsx";
import { BackToQuotes, QuoteStatusBadge } from "./quote-parts.tsx";

/**
 * One quote's admin page (decision 0049): a draft is edited, sent or deleted; a sent one shows
 * what it printed, its PDF, what became of it, and "Revise".
 */

function Actions({ page }: { page: AdminQuotePage }) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher);
  const busy = fetcher.state !== "idle";
  const post = (intent: string) => fetcher.submit({ intent }, { method: "post" });
  const { quote } = page;
  return (
    <div className="flex flex-wrap gap-2">
      {quote.status === "draft" ? (
        <>
          <ConfirmAction
            trigger={
              <Button type="button" disabled={busy}>
                <Send aria-hidden />
                Send to {quote.contactEmail}
              </Button>
            }
            question="Send this quote?"
            detail={`It is numbered and e-mailed to ${quote.contactEmail} with its PDF and the link to accept it. A sent quote cannot be changed, only revised.`}
            confirmLabel="Send quote"
            onConfirm={() => post("send")}
          />
          <ConfirmAction
            trigger={
              <Button type="button" variant="outline" disabled={busy}>
                <Trash2 aria-hidden />
                Delete draft
              </Button>
            }
            question="Delete this draft?"
            detail="The draft is removed. Nothing has been sent."
            confirmLabel="Delete"
            destructive
            onConfirm={() => post("delete")}
          />
        </>
      ) : null}
      {quote.number ? (
        <Button asChild variant="outline">
          <a href={`${page.href}/pdf`} download>
            <FileText aria-hidden />
            PDF
          </a>
        </Button>
      ) : null}
      {["sent", "expired", "declined"].includes(quote.status) ? (
        <Button type="button" variant="outline" disabled={busy} onClick={() => post("revise")}>
          <Copy aria-hidden />
          Revise
        </Button>
      ) : null}
    </div>
  );
}

export function QuotePageView({ page, answer }: { page: AdminQuotePage; answer?: FormAnswer }) {
  const { quote } = page;
  return (
    <>
      <BackToQuotes />
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h1 className="font-mono text-2xl font-bold tracking-tight md:text-3xl">
          {quote.number ?? "Draft quote"}
        </h1>
        <QuoteStatusBadge status={quote.status} />
      </div>
      <p className="mb-6 text-sm text-muted-foreground">
        {quote.organisation} · {formatPence(quote.totalCents)} · valid until{" "}
        {formatDate(quote.validUntil)}
        {page.inquiryId ? (
          <>
            {" · "}
            <Link
              to={inquiryPageHref(page.inquiryId)}
              className="text-primary underline underline-offset-4"
            >
              its enquiry
            </Link>
          </>
        ) : null}
      </p>
      <div className="mb-6">
        <Actions page={page} />
      </div>
      {page.editor ? (
        <QuoteEditor values={page.editor} answer={answer} submitLabel="Save draft" />
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <Section title="Sent">
            <dl>
              <Detail term="To">
                {quote.contactName}, {quote.contactEmail}
              </Detail>
              <Detail term="Sent">{page.sentAt ? formatDateTime(page.sentAt) : null}</Detail>
              <Detail term="Replaces">{page.supersedes}</Detail>
              <Detail term="Customer's page">
                <a
                  href={page.customerUrl}
                  className="text-primary underline-offset-4 hover:underline"
                >
                  Open as the customer sees it
                </a>
              </Detail>
            </dl>
          </Section>
          <Section title="Outcome">
            <dl>
              <Detail term="Accepted">
                {page.accepted
                  ? `${formatDateTime(page.accepted.at)} by ${page.accepted.name}, ${page.accepted.role}`
                  : null}
              </Detail>
              <Detail term="PO number">{page.accepted?.poNumber}</Detail>
              <Detail term="Order">
                {page.order ? (
                  <Link
                    to={`/admin/payments/${page.order.id}`}
                    className="font-mono text-primary underline-offset-4 hover:underline"
                  >
                    {page.order.reference}
                  </Link>
                ) : null}
              </Detail>
              <Detail term="Declined">
                {page.declined
                  ? `${formatDateTime(page.declined.at)}${page.declined.reason ? `: ${page.declined.reason}` : ""}`
                  : null}
              </Detail>
            </dl>
          </Section>
          <Section title="Lines" className="lg:col-span-2">
            <ul className="grid gap-2 text-sm">
              {page.lines.map((l, i) => (
                <li key={i} className="flex justify-between gap-4">
                  <span className="[overflow-wrap:anywhere]">
                    {l.quantity} × {l.description}
                  </span>
                  <span className="whitespace-nowrap">
                    {formatPence(l.quantity * l.unitNetCents)}
                  </span>
                </li>
              ))}
            </ul>
          </Section>
        </div>
      )}
    </>
  );
}
