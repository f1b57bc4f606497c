import { FilePlus } from "lucide-react";
import { Link } from "react-router";
import { listQuotes } from "#server/quotes/admin.server.ts";
import { QuoteStatusBadge } from "#app/components/admin/quotes/quote-parts.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { oneOf } from "#app/lib/admin/list.ts";
import { QUOTE_STATUSES, QUOTE_STATUS_LABELS, quoteHref } from "#app/lib/quotes/quotes.ts";
import type { Route } from "./+types/quotes";

/** The quotes (decision 0049): newest first, by status; each opens on its page. */
export async function loader({ request }: Route.LoaderArgs) {
  const status = oneOf(QUOTE_STATUSES, new URL(request.url).searchParams.get("status"));
  return { status, quotes: await listQuotes(status) };
}

export const meta: Route.MetaFunction = () => adminMeta("Quotes");

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const { status, quotes } = loaderData;
  return (
    <>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Quotes</h1>
          <p className="text-muted-foreground">
            Quotations sent to customers, accepted online with their PO.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <Link to="/admin/licences">Licences</Link>
          </Button>
          <Button asChild>
            <Link to="/admin/quotes/new">
              <FilePlus aria-hidden />
              New quote
            </Link>
          </Button>
        </div>
      </div>
      <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2 text-sm">
        {(["all", ...QUOTE_STATUSES] as const).map((s) => (
          <Link
            key={s}
            to={s === "all" ? "/admin/quotes" : `/admin/quotes?status=${s}`}
            aria-current={s === status ? "page" : undefined}
            className="rounded-md border border-border px-3 py-1 aria-[current=page]:bg-muted aria-[current=page]:font-medium"
          >
            {s === "all" ? "All" : QUOTE_STATUS_LABELS[s]}
          </Link>
        ))}
      </nav>
      {quotes.length === 0 ? (
        <p className="rounded-md border border-border p-6 text-center text-muted-foreground">
          {status === "all" ? "No quotes yet." : "No quotes with this status."}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">Quotes</caption>
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th className="p-3 font-medium">Quote</th>
                <th className="p-3 font-medium">Customer</th>
                <th className="p-3 font-medium">Status</th>
                <th className="hidden p-3 text-right font-medium sm:table-cell">Total</th>
                <th className="hidden p-3 font-medium md:table-cell">Valid until</th>
              </tr>
            </thead>
            <tbody>
              {quotes.map((q) => (
                <tr key={q.id} className="border-b border-border last:border-0">
                  <td className="p-3">
                    <Link
                      to={quoteHref(q.id)}
                      className="font-mono font-medium underline-offset-4 hover:underline"
                    >
                      {q.number ?? "Draft"}
                    </Link>
                    <div className="text-xs text-muted-foreground">
                      {q.sentAt
                        ? `Sent ${formatDate(q.sentAt)}`
                        : `Made ${formatDate(q.createdAt)}`}
                    </div>
                  </td>
                  <td className="p-3">
                    <div className="font-medium">{q.organisation}</div>
                    <div className="text-xs text-muted-foreground">{q.contactEmail}</div>
                  </td>
                  <td className="p-3">
                    <QuoteStatusBadge status={q.status} />
                  </td>
                  <td className="hidden p-3 text-right sm:table-cell">
                    {formatPence(q.totalCents)}
                  </td>
                  <td className="hidden p-3 md:table-cell">{formatDate(q.validUntil)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
