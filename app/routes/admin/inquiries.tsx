import { Clock, Download, Eye, FileText, Inbox, MessageSquare, Pencil } from "lucide-react";
import { useCallback, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";
import { suspectedSpamIntents } from "#server/forms/suspected-spam-action.server.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  findInquiryForAdmin,
  inquiriesScreen,
  updateInquiryForAdmin,
} from "#server/inquiries/admin.server.ts";
import { deleteSuspectedInquiry, releaseInquiry } from "#server/inquiries/admin.server.ts";
import {
  InquiryStatusBadge,
  InquiryTypeBadge,
  ReplyDue,
  StatCard,
} from "#app/components/admin/admin-ui.tsx";
import {
  InquiryDetailsDialog,
  InquiryUpdateDialog,
} from "#app/components/admin/inquiry-dialogs.tsx";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import { FilterSelect, SearchField } from "#app/components/admin/list/filter-fields.tsx";
import {
  SpamFilterSelect,
  SuspectedSpamActions,
  SuspectedSpamBadge,
} from "#app/components/admin/suspected-spam.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  INQUIRY_OWNER_FILTERS,
  INQUIRY_OWNER_FILTER_LABELS,
  INQUIRY_REPLY_FILTERS,
  INQUIRY_REPLY_FILTER_LABELS,
  INQUIRY_STATUSES,
  INQUIRY_STATUS_LABELS,
  INQUIRY_TYPES,
  INQUIRY_TYPE_LABELS,
  inquiryFiltersQuery,
  inquiryUpdateSchema,
  OPEN_INQUIRY_PARAM,
  parseInquiryFilters,
  type AdminInquiry,
} from "#app/lib/inquiries/admin.ts";
import { inquiryPageHref } from "#app/lib/inquiries/thread.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import type { Route } from "./+types/inquiries";
import { EmailAddress } from "#app/components/ui/email-address.tsx";

/** A list that cannot be read throws: the admin layout's error boundary shows the spec's toast. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const params = new URL(request.url).searchParams;
  const filters = parseInquiryFilters(params);
  // `?inquiry=<id>` opens that inquiry's details, wherever it is in the list (the Dashboard's
  // rows link here). The id is checked here: anything that names no inquiry opens nothing.
  const openId = params.get(OPEN_INQUIRY_PARAM);
  const [screen, opened] = await Promise.all([
    inquiriesScreen(filters, { adminId: admin.id }),
    openId ? findInquiryForAdmin(openId) : null,
  ]);
  return { filters, ...screen, opened, openNotFound: Boolean(openId) && !opened };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "inquiries", failureMessage: "Failed to update inquiry" },
    {
      ...suspectedSpamIntents({
        release: (id) => releaseInquiry(id, admin),
        remove: (id) => deleteSuspectedInquiry(id, admin),
        messages: {
          released: "Inquiry released: its e-mails are on their way",
          deleted: "Inquiry deleted",
          releaseFailed: "Failed to release inquiry",
          deleteFailed: "Failed to delete inquiry",
        },
      }),
      update: async (form, refuse) => {
        const parsed = parseForm(form, inquiryUpdateSchema);
        if (!parsed.ok) return refuse(400);
        if (!(await updateInquiryForAdmin(parsed.value, admin))) return refuse(404);
        return success("update", "Inquiry updated successfully");
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("Inquiries");

const PATH = "/admin/inquiries";

/** The table's columns; `actions` are the row's buttons, `ownerName` names an owner. */
function inquiryColumns(
  actions: (inquiry: AdminInquiry) => React.ReactNode,
  ownerName: (id: string) => string | null,
) {
  const columns: AdminListColumn<AdminInquiry>[] = [
    {
      header: "Received",
      from: "md",
      className: "whitespace-nowrap text-muted-foreground",
      cell: (inquiry) => formatDateTime(inquiry.createdAt),
    },
    {
      header: "Name",
      cell: (inquiry) => (
        <>
          <Link
            to={inquiryPageHref(inquiry.id)}
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            {inquiry.name}
          </Link>
          <div className="text-xs text-muted-foreground">
            <EmailAddress email={inquiry.email} />
          </div>
          <div className="text-xs text-muted-foreground md:hidden">
            {formatDateTime(inquiry.createdAt)}
          </div>
        </>
      ),
    },
    {
      header: "Message",
      from: "xl",
      className: "max-w-xs text-muted-foreground",
      cell: (inquiry) => <span className="line-clamp-2 text-xs">{inquiry.preview}</span>,
    },
    {
      header: "Type",
      from: "sm",
      cell: (inquiry) => <InquiryTypeBadge type={inquiry.inquiryType} />,
    },
    {
      header: "Status",
      cell: (inquiry) => (
        <div className="flex flex-wrap gap-1">
          <InquiryStatusBadge status={inquiry.status} />
          {inquiry.spamReason ? <SuspectedSpamBadge reason={inquiry.spamReason} /> : null}
          {inquiry.replyDue ? <ReplyDue due={inquiry.replyDue} /> : null}
          {inquiry.waiting ? (
            <span className="w-full text-xs text-muted-foreground">
              Awaiting reply for {inquiry.waiting}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      header: "Owner",
      from: "lg",
      className: "text-muted-foreground",
      cell: (inquiry) => (inquiry.ownerId ? (ownerName(inquiry.ownerId) ?? "—") : "—"),
    },
    { header: "Company", from: "lg", cell: (inquiry) => inquiry.company ?? "—" },
    { header: "Actions", alignEnd: true, cell: actions },
  ];
  return columns;
}

export default function Inquiries({ loaderData }: Route.ComponentProps) {
  const { filters, counts, opened, openNotFound } = loaderData;
  const [viewing, setViewing] = useState<AdminInquiry | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  // The inquiry the URL opens, until its dialog is closed (which takes the parameter away).
  const linked = opened && searchParams.get(OPEN_INQUIRY_PARAM) === opened.id ? opened : null;
  const closeDetails = () => {
    setViewing(null);
    if (searchParams.has(OPEN_INQUIRY_PARAM)) {
      setSearchParams(
        (params) => {
          params.delete(OPEN_INQUIRY_PARAM);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    }
  };
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = loaderData.items.find((i) => i.id === editingId) ?? null;
  // Stable, so the update dialog's effect does not re-run on every render.
  const closeEditor = useCallback(() => setEditingId(null), []);
  const ownerName = (id: string) => {
    const owner = loaderData.staff.find((s) => s.id === id);
    return owner ? owner.name || owner.email : null;
  };
  const exportHref = `${PATH}/export${inquiryFiltersQuery({ ...filters, page: 1 })}`;

  const rowActions = (inquiry: AdminInquiry) => (
    <>
      {inquiry.spamReason ? (
        <SuspectedSpamActions
          id={inquiry.id}
          what={`${inquiry.name}'s inquiry`}
          deleteQuestion="Are you sure you want to delete this inquiry?"
        />
      ) : null}
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`View details of ${inquiry.name}'s inquiry`}
        title="View details"
        onClick={() => setViewing(inquiry)}
      >
        <Eye aria-hidden />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Update ${inquiry.name}'s inquiry`}
        title="Update status and notes"
        onClick={() => setEditingId(inquiry.id)}
      >
        <Pencil aria-hidden />
      </Button>
    </>
  );

  return (
    <AdminListPage
      path={PATH}
      title="Inquiries"
      description="Track enquiries from the website and keep notes on each one."
      actions={
        <>
          <Button asChild variant="outline">
            <Link to="/admin/quotes">
              <FileText aria-hidden />
              Quotes
            </Link>
          </Button>
          <Button asChild variant="outline">
            <a href={exportHref} download>
              <Download aria-hidden />
              Export CSV
            </a>
          </Button>
        </>
      }
      notice={
        openNotFound ? (
          <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
            That inquiry was not found: it may have been deleted.
          </p>
        ) : null
      }
      summary={
        <>
          <section aria-label="Inquiry summary" className="grid grid-cols-3 gap-2 sm:gap-4">
            <StatCard label="New Inquiries" value={counts.new} icon={Inbox} tone="info" />
            <StatCard label="In Progress" value={counts.in_progress} icon={Clock} tone="warning" />
            <StatCard
              label="Total Inquiries"
              value={counts.total}
              icon={MessageSquare}
              tone="muted"
            />
          </section>
          {counts.suspected > 0 ? (
            <p className="mt-3 text-sm text-muted-foreground">
              {counts.suspected} held as suspected spam (not counted above; no e-mails sent).{" "}
              {filters.spam !== "only" ? (
                <Link
                  to={`${PATH}${inquiryFiltersQuery({ spam: "only" })}`}
                  className="text-primary underline underline-offset-4"
                >
                  Review them
                </Link>
              ) : null}
            </p>
          ) : null}
        </>
      }
      list={loaderData}
      filters={filters}
      parseFilters={parseInquiryFilters}
      filtersQuery={inquiryFiltersQuery}
      filterLabel="Filter inquiries"
      filterClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1.15fr_1fr_1fr_1.3fr_1.4fr_auto] lg:items-end"
      filterFields={
        <>
          <FilterSelect
            name="type"
            label="Type"
            value={filters.type}
            options={INQUIRY_TYPES}
            labels={INQUIRY_TYPE_LABELS}
            allLabel="All Types"
          />
          <FilterSelect
            name="status"
            label="Status"
            value={filters.status}
            options={INQUIRY_STATUSES}
            labels={INQUIRY_STATUS_LABELS}
            allLabel="All Statuses"
          />
          <FilterSelect
            name="owner"
            label="Owner"
            value={filters.owner}
            options={INQUIRY_OWNER_FILTERS}
            labels={INQUIRY_OWNER_FILTER_LABELS}
            allLabel="Anyone"
          />
          <FilterSelect
            name="reply"
            label="Reply"
            value={filters.reply}
            options={INQUIRY_REPLY_FILTERS}
            labels={INQUIRY_REPLY_FILTER_LABELS}
            allLabel="Any"
          />
          <SpamFilterSelect value={filters.spam} />
          <SearchField value={filters.q} placeholder="Search by name, email or company..." />
        </>
      }
      tableLabel="Inquiries"
      columns={inquiryColumns(rowActions, ownerName)}
      emptyText="No inquiries found."
      filteredEmptyText="No inquiries match these filters."
      noun={["inquiry", "inquiries"]}
    >
      <InquiryDetailsDialog inquiry={viewing ?? linked} onClose={closeDetails} />
      <InquiryUpdateDialog inquiry={editing} onClose={closeEditor} />
    </AdminListPage>
  );
}
