import { Download } from "lucide-react";
import { Link } from "react-router";
import { documentRegisterScreen } from "#server/invoices/register.server.ts";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import { DateRangeFields } from "#app/components/admin/list/filter-fields.tsx";
import { RegisterSummary } from "#app/components/admin/documents/register-summary.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDate, ukDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { orderPageHref } from "#app/lib/orders/orders.ts";
import {
  REGISTER_EXPORTS,
  REGISTER_PAYMENT_LABELS,
  parseRegisterFilters,
  registerExportHref,
  registerFiltersQuery,
  type RegisterDocument,
} from "#app/lib/orders/register.ts";
import type { Route } from "./+types/documents";

/**
 * The document register (docs/decisions/0039-document-register.md): every invoice, receipt and
 * credit note issued in a range of London dates (this month so far unless chosen), what they come
 * to by month, and the exports finance imports. Read-only: documents are never edited.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseRegisterFilters(new URL(request.url).searchParams);
  return { filters, ...(await documentRegisterScreen(filters)) };
}

export const meta: Route.MetaFunction = () => adminMeta("Documents");

const PATH = "/admin/documents";

/** A credit note's amounts are taken off: shown with a minus, as the exports sign them. */
function signed(document: RegisterDocument, cents: number) {
  return document.kind === "credit_note" ? `−${formatPence(cents)}` : formatPence(cents);
}

const COLUMNS: AdminListColumn<RegisterDocument>[] = [
  {
    header: "Number",
    className: "whitespace-nowrap font-medium",
    cell: (d) => (
      <a href={d.href} download className="text-primary underline-offset-4 hover:underline">
        {d.number}
      </a>
    ),
  },
  {
    header: "Type",
    cell: (d) => (
      <>
        {d.title}
        {d.credits ? (
          <span className="block text-xs text-muted-foreground">credits {d.credits}</span>
        ) : null}
        {d.replaces ? (
          <span className="block text-xs text-muted-foreground">replaces {d.replaces}</span>
        ) : null}
      </>
    ),
  },
  {
    header: "Issued",
    className: "whitespace-nowrap",
    cell: (d) => <time dateTime={d.issuedAt}>{formatDate(d.issuedAt)}</time>,
  },
  {
    header: "Customer",
    className: "break-words",
    cell: (d) => (
      <>
        {d.organisation ?? d.customer}
        {d.organisation ? (
          <span className="block text-xs text-muted-foreground">{d.customer}</span>
        ) : null}
        {d.vatNumber ? (
          <span className="block text-xs text-muted-foreground">VAT {d.vatNumber}</span>
        ) : null}
      </>
    ),
  },
  {
    header: "Order",
    from: "lg",
    className: "whitespace-nowrap",
    cell: (d) => (
      <Link
        to={orderPageHref(d.orderId)}
        className="text-primary underline-offset-4 hover:underline"
      >
        {d.orderReference}
      </Link>
    ),
  },
  { header: "Net", alignEnd: true, from: "md", cell: (d) => signed(d, d.netCents) },
  { header: "VAT", alignEnd: true, from: "md", cell: (d) => signed(d, d.vatCents) },
  { header: "Total", alignEnd: true, cell: (d) => signed(d, d.totalCents) },
  { header: "Payment", cell: (d) => REGISTER_PAYMENT_LABELS[d.payment] },
];

export default function Documents({ loaderData }: Route.ComponentProps) {
  const { filters, totals, months } = loaderData;
  return (
    <AdminListPage
      path={PATH}
      title="Documents"
      description={`Invoices, receipts and credit notes issued from ${ukDate(filters.from)} to ${ukDate(filters.to)} (UK dates, both included).`}
      actions={
        <>
          {(["csv", "xero", "zip"] as const).map((kind) => (
            <Button key={kind} asChild variant="outline">
              <a href={registerExportHref(kind, filters)} download>
                <Download aria-hidden />
                {REGISTER_EXPORTS[kind].label}
              </a>
            </Button>
          ))}
        </>
      }
      summary={<RegisterSummary totals={totals} months={months} />}
      list={loaderData}
      filters={filters}
      parseFilters={parseRegisterFilters}
      filtersQuery={registerFiltersQuery}
      filterLabel="Choose the dates"
      filterClassName="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end lg:max-w-xl"
      filterFields={<DateRangeFields from={filters.from} to={filters.to} />}
      tableLabel="Documents"
      columns={COLUMNS}
      stackBelowMd
      emptyText="No documents were issued in these dates."
      noun={["document", "documents"]}
    />
  );
}
