import { Download, Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { EraseButton, EraseConfirmation } from "#app/components/admin/privacy/erase-request.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { formatDateTime } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  describeErasure,
  isNothing,
  plannedErasure,
  privacyExportHref,
  type PersonalDataSummary,
  type PrivacyQuery,
} from "#app/lib/admin/privacy.ts";

const PATH = "/admin/privacy";

/**
 * The Data Requests screen (decision 0020): a plain GET search by e-mail address (works without
 * JavaScript), then what is held, by kind, with the export downloads and the erase button, which
 * asks first and names exactly what will happen.
 */
export function PrivacyPage({
  query,
  data,
  answer,
}: {
  query: PrivacyQuery;
  data: PersonalDataSummary | null;
  /** The erase post's answer when it came as a page (no JavaScript); else the toast shows it. */
  answer?: FormAnswer;
}) {
  const typed = query.state === "ok" ? query.email : query.state === "invalid" ? query.typed : "";
  const error = query.state === "invalid" ? query.error : null;
  return (
    <div>
      <AdminPageHeader
        title="Data Requests"
        description="Find, export or erase what is held about one person (UK GDPR access and erasure requests)."
      />
      <Card className="mb-6 p-4">
        <Form method="get" action={PATH} role="search" aria-label="Find personal data">
          <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
            <div className="grid gap-2">
              <Label htmlFor="privacy-email">E-mail address</Label>
              <Input
                id="privacy-email"
                name="email"
                type="email"
                autoComplete="off"
                // The key resets the field when another address is searched from elsewhere.
                key={typed}
                defaultValue={typed}
                required
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "privacy-email-error" : undefined}
              />
            </div>
            <Button type="submit">
              <Search aria-hidden />
              Find
            </Button>
          </div>
          {error ? (
            <p id="privacy-email-error" role="alert" className="mt-2 text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </Form>
      </Card>
      {answer ? (
        <p
          role={answer.ok ? "status" : "alert"}
          className={`mb-6 text-sm font-medium ${answer.ok ? "" : "text-destructive"}`}
        >
          {answer.message}
        </p>
      ) : null}
      {data ? (
        <PersonalDataView
          data={data}
          confirmErase={query.state === "ok" && query.confirmErase && !answer}
        />
      ) : null}
    </div>
  );
}

function PersonalDataView({
  data,
  confirmErase,
}: {
  data: PersonalDataSummary;
  confirmErase: boolean;
}) {
  const planned = plannedErasure(data);
  const kinds: [string, number][] = [
    ["Inquiries", data.inquiries.length],
    ["Orders as buyer", data.orders.length],
    ["Student places on other orders", data.studentRecords.length],
    ["Newsletter subscriptions", data.subscriptions.length],
    ["Waiting list entries", data.waitingList.length],
    ["Certificates of attendance", data.certificates.length],
    ["Quotes", data.quotes.length],
    ["File Interrogator licences", data.licences.length],
    ["Stored e-mails", data.emails.length],
    ["History records (audit log, order notes)", data.records.length],
  ];
  if (isNothing(planned)) {
    return (
      <section aria-labelledby="privacy-results">
        <h2 id="privacy-results" className="text-lg font-semibold">
          Nothing is held about {data.email}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          No inquiry, order, student place, newsletter subscription or stored e-mail has this
          address.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="privacy-results" className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="privacy-results" className="text-lg font-semibold break-all">
            Held about {data.email}
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
            {kinds.map(([label, count]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-medium">{count}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={privacyExportHref(data.email, "json")} download>
              <Download aria-hidden />
              Export JSON
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={privacyExportHref(data.email, "csv")} download>
              <Download aria-hidden />
              Export CSV
            </a>
          </Button>
          <EraseButton email={data.email} detail={describeErasure(planned)} />
        </div>
      </div>
      {confirmErase ? (
        <EraseConfirmation email={data.email} detail={describeErasure(planned)} />
      ) : null}
      <p className="text-sm text-muted-foreground">
        Issued invoices, receipts and credit notes are never changed or deleted: UK tax law requires
        them to be kept for 6 years, so erasure does not apply to them (UK GDPR Art. 17(3)(b)).
        Erasing anonymises the orders instead, keeping amounts, dates and references.
      </p>

      {data.inquiries.length ? (
        <ResultTable
          caption="Inquiries"
          head={["Received", "Name", "Type", "Status", "Message"]}
          rows={data.inquiries.map((i) => [
            formatDateTime(i.createdAt),
            i.name,
            i.inquiryType,
            i.status,
            <span key="m" className="line-clamp-2">
              {i.message}
            </span>,
          ])}
        />
      ) : null}
      {data.orders.length ? (
        <ResultTable
          caption="Orders as buyer"
          head={["Placed", "Reference", "Buyer", "Status", "Total", "Students", "Documents"]}
          rows={data.orders.map((o) => [
            formatDateTime(o.createdAt),
            <a
              key="r"
              href={`/admin/payments/${o.id}`}
              className="text-primary underline underline-offset-4"
            >
              {o.reference}
            </a>,
            `${o.buyerFirstName} ${o.buyerLastName}`.trim(),
            o.status,
            formatPence(o.totalAmountCents),
            o.students.map((s) => `${s.firstName} ${s.lastName}`.trim()).join(", ") || "—",
            o.documents.map((d) => d.number).join(", ") || "—",
          ])}
        />
      ) : null}
      {data.studentRecords.length ? (
        <ResultTable
          caption="Student places on other orders"
          head={["Placed", "Order", "Name", "Course", "Status"]}
          rows={data.studentRecords.map((s) => [
            formatDateTime(s.orderCreatedAt),
            <a
              key="r"
              href={`/admin/payments/${s.orderId}`}
              className="text-primary underline underline-offset-4"
            >
              {s.orderReference}
            </a>,
            `${s.firstName} ${s.lastName}`.trim(),
            s.courseTitle,
            s.orderStatus,
          ])}
        />
      ) : null}
      {data.subscriptions.length ? (
        <ResultTable
          caption="Newsletter subscriptions"
          head={["Subscribed", "Source", "Status", "Consent"]}
          rows={data.subscriptions.map((s) => [
            formatDateTime(s.subscribedAt),
            s.source ?? "—",
            s.isActive ? "Active" : "Inactive",
            s.consentAt ? formatDateTime(s.consentAt) : "—",
          ])}
        />
      ) : null}
      {data.waitingList.length ? (
        <ResultTable
          caption="Waiting list entries"
          head={["Joined", "Course", "Date", "Places", "State"]}
          rows={data.waitingList.map((w) => [
            formatDateTime(w.createdAt),
            w.courseTitle ?? "—",
            w.dateStartsAt ? formatDateTime(w.dateStartsAt) : "Next date",
            String(w.places),
            w.state,
          ])}
        />
      ) : null}
      {data.certificates.length ? (
        <ResultTable
          caption="Certificates of attendance"
          head={["Issued", "Number", "Holder", "Course", "Status"]}
          rows={data.certificates.map((c) => [
            formatDateTime(c.issuedAt),
            c.number,
            c.holderName ?? "—",
            c.courseTitle,
            c.revokedAt ? `Revoked ${formatDateTime(c.revokedAt)}` : "Valid",
          ])}
        />
      ) : null}
      {data.quotes.length ? (
        <ResultTable
          caption="Quotes"
          head={["Made", "Number", "Contact", "Organisation", "Status"]}
          rows={data.quotes.map((q) => [
            formatDateTime(q.createdAt),
            q.number ?? "Draft",
            q.contactName,
            q.organisation,
            q.status,
          ])}
        />
      ) : null}
      {data.licences.length ? (
        <ResultTable
          caption="File Interrogator licences"
          head={["Reference", "Contact", "Organisation", "Seats", "Runs"]}
          rows={data.licences.map((l) => [
            l.reference,
            l.contactName,
            l.organisation,
            String(l.seats),
            `${l.startsOn} to ${l.endsOn}`,
          ])}
        />
      ) : null}
      {data.emails.length ? (
        <ResultTable
          caption="Stored e-mails"
          head={["Queued", "Kind", "To", "Subject", "Status"]}
          rows={data.emails.map((e) => [
            formatDateTime(e.createdAt),
            e.kind,
            <span key="t" className="break-all">
              {e.toAddress}
            </span>,
            e.subject,
            e.status,
          ])}
        />
      ) : null}
      {data.records.length ? (
        <ResultTable
          caption="History records (audit log, order notes and timeline)"
          head={["When", "Where", "What", "Says"]}
          rows={data.records.map((r) => [
            formatDateTime(r.at),
            r.kind === "audit" ? "Audit log" : "Order timeline",
            r.what,
            <span key="t" className="break-all">
              {r.text.length > 200 ? `${r.text.slice(0, 199)}…` : r.text}
            </span>,
          ])}
        />
      ) : null}
    </section>
  );
}

function ResultTable({
  caption,
  head,
  rows,
}: {
  caption: string;
  head: string[];
  rows: ReactNode[][];
}) {
  return (
    <Card className="p-2">
      <Table>
        <TableCaption className="caption-top px-2 pb-2 text-left font-semibold text-foreground">
          {caption} ({rows.length})
        </TableCaption>
        <TableHeader>
          <TableRow>
            {head.map((h) => (
              <TableHead key={h}>{h}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((cells, r) => (
            <TableRow key={r}>
              {cells.map((cell, c) => (
                <TableCell key={c}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
