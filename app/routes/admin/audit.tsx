import { Link } from "react-router";
import { AuditChanges } from "#app/components/admin/audit/audit-changes.tsx";
import { AuditFilterFields } from "#app/components/admin/audit/audit-filter-fields.tsx";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";
import {
  auditActionLabel,
  auditFiltersQuery,
  parseAuditFilters,
  type AuditEntryView,
} from "#app/lib/admin/audit.ts";
import { auditLogScreen } from "#server/audit.server.ts";
import type { Route } from "./+types/audit";

/**
 * The audit log (decision 0019): who changed what, when, newest first, filtered by person, kind and
 * London dates in the URL. Read-only: the screen has no action, and the table refuses UPDATE and
 * DELETE. A log that cannot be read throws: the admin layout's error boundary shows it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseAuditFilters(new URL(request.url).searchParams);
  return { filters, ...(await auditLogScreen(filters)) };
}

export const meta: Route.MetaFunction = () => adminMeta("Audit Log");

const PATH = "/admin/audit";

const COLUMNS: AdminListColumn<AuditEntryView>[] = [
  {
    header: "When",
    className: "whitespace-nowrap align-top text-muted-foreground",
    cell: (entry) => <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>,
  },
  {
    header: "Who",
    className: "align-top break-all",
    cell: (entry) => entry.actorEmail ?? <span className="text-muted-foreground">System</span>,
  },
  {
    header: "Action",
    className: "align-top",
    cell: (entry) => auditActionLabel(entry.action),
  },
  {
    header: "Subject",
    className: "align-top break-words",
    cell: (entry) =>
      entry.href ? (
        <Link
          to={entry.href}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          {entry.summary}
        </Link>
      ) : (
        <span className="font-medium">{entry.summary || "—"}</span>
      ),
  },
  {
    header: "Changes",
    className: "align-top",
    cell: (entry) => <AuditChanges before={entry.before} after={entry.after} />,
  },
];

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filters, people } = loaderData;
  return (
    <AdminListPage
      path={PATH}
      title="Audit Log"
      description="Every change made in the admin, by whom and when. Entries cannot be edited or deleted."
      summary={null}
      list={loaderData}
      filters={filters}
      parseFilters={parseAuditFilters}
      filtersQuery={auditFiltersQuery}
      filterLabel="Filter the audit log"
      filterClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1.5fr_1fr_1fr_auto] lg:items-end"
      filterFields={<AuditFilterFields filters={filters} people={people} />}
      tableLabel="Audit log"
      columns={COLUMNS}
      stackBelowMd
      emptyText="No entries match these filters."
      noun={["entry", "entries"]}
    />
  );
}
