import { RefreshCw } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { renewLicenceIntent } from "#server/forms/quote-admin-actions.server.ts";
import { listLicences } from "#server/licences/licences.server.ts";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { ListTable, type AdminListColumn } from "#app/components/admin/list/list-table.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { oneOf } from "#app/lib/admin/list.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import {
  LICENCE_STATES,
  LICENCE_STATE_BADGE,
  LICENCE_STATE_LABELS,
  type LicenceRow,
} from "#app/lib/licences/licences.ts";
import { quoteHref } from "#app/lib/quotes/quotes.ts";
import type { Route } from "./+types/licences";

/** The File Interrogator licence register (decision 0050): soonest ending first; "Renew". */
export async function loader({ request }: Route.LoaderArgs) {
  const state = oneOf(LICENCE_STATES, new URL(request.url).searchParams.get("state"));
  return { state, licences: await listLicences(state) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "licences", failureMessage: "Failed to renew licence" },
    { renew: renewLicenceIntent(admin) },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("Licences");

function RenewButton({ licence }: { licence: LicenceRow }) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher);
  if (licence.state === "renewed") return null;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="renew" />
      <input type="hidden" name="id" value={licence.id} />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        <RefreshCw aria-hidden />
        Renew
      </Button>
    </fetcher.Form>
  );
}

/** The register's columns; below md each licence is a card with every line. */
const COLUMNS: AdminListColumn<LicenceRow>[] = [
  {
    header: "Licence",
    cell: (l) => (
      <>
        <div className="font-mono font-medium">{l.reference}</div>
        {l.quote ? (
          <Link
            to={quoteHref(l.quote.id)}
            className="text-xs text-primary underline-offset-4 hover:underline"
          >
            from {l.quote.number}
          </Link>
        ) : null}
      </>
    ),
  },
  {
    header: "Organisation",
    cell: (l) => (
      <>
        <div className="font-medium">{l.organisation}</div>
        <div className="text-xs break-all text-muted-foreground">{l.contactEmail}</div>
      </>
    ),
  },
  { header: "Seats", alignEnd: true, cell: (l) => l.seats },
  {
    header: "Runs",
    className: "md:whitespace-nowrap",
    cell: (l) => `${formatDate(l.startsOn)} – ${formatDate(l.endsOn)}`,
  },
  {
    header: "State",
    cell: (l) => (
      <Badge variant={LICENCE_STATE_BADGE[l.state]}>{LICENCE_STATE_LABELS[l.state]}</Badge>
    ),
  },
  { header: "A year", alignEnd: true, cell: (l) => formatPence(l.annualNetCents) },
  { header: "Actions", alignEnd: true, cell: (l) => <RenewButton licence={l} /> },
];

export default function Licences({ loaderData }: Route.ComponentProps) {
  const { state, licences } = loaderData;
  return (
    <>
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Licences</h1>
        <p className="text-muted-foreground">
          File Interrogator licences sold by accepted quotes: a year each, reminded before they end.{" "}
          <Link to="/admin/quotes" className="text-primary underline underline-offset-4">
            Quotes
          </Link>
        </p>
      </div>
      <nav aria-label="Filter by state" className="mb-4 flex flex-wrap gap-2 text-sm">
        {(["all", ...LICENCE_STATES] as const).map((s) => (
          <Link
            key={s}
            to={s === "all" ? "/admin/licences" : `/admin/licences?state=${s}`}
            aria-current={s === state ? "page" : undefined}
            className="rounded-md border border-border px-3 py-1 aria-[current=page]:bg-muted aria-[current=page]:font-medium"
          >
            {s === "all" ? "All" : LICENCE_STATE_LABELS[s]}
          </Link>
        ))}
      </nav>
      {licences.length === 0 ? (
        <p className="rounded-md border border-border p-6 text-center text-muted-foreground">
          {state === "all"
            ? "No licences yet: they are added when a quote that sells them is accepted."
            : "No licences in this state."}
        </p>
      ) : (
        <div className="rounded-md border border-border">
          <ListTable label="Licence register" columns={COLUMNS} items={licences} stacked />
        </div>
      )}
    </>
  );
}
