import { Clock, Download, Eye, Inbox, MessageSquare, Pencil, Search } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Form, Link, useFetcher, useNavigate } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { inquiriesScreen, updateInquiryForAdmin } from "#server/inquiry-admin.server.ts";
import { deleteSuspectedInquiry, releaseInquiry } from "#server/inquiries.server.ts";
import { suspectedSpamIntents } from "#server/forms/suspected-spam-action.server.ts";
import { log } from "#server/log.server.ts";
import {
  AdminPageHeader,
  InquiryStatusBadge,
  InquiryTypeBadge,
  Pagination,
  StatCard,
} from "#app/components/admin/admin-ui.tsx";
import {
  SpamFilterSelect,
  SuspectedSpamActions,
  SuspectedSpamBadge,
} from "#app/components/admin/suspected-spam.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { success } from "#server/forms/form-post.server.ts";
import {
  INQUIRY_STATUSES,
  INQUIRY_STATUS_LABELS,
  INQUIRY_TYPES,
  INQUIRY_TYPE_LABELS,
  NOTES_MAX_LENGTH,
  emptyInquiryCounts,
  inquiryFiltersQuery,
  inquiryUpdateSchema,
  modalityLabel,
  parseInquiryFilters,
  type AdminInquiry,
  type InquiryCounts,
} from "#app/lib/admin-inquiries.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { formatDateTime } from "#app/lib/admin-time.ts";
import { toast } from "#app/lib/toast.ts";
import type { Route } from "./+types/inquiries";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const filters = parseInquiryFilters(new URL(request.url).searchParams);
  try {
    return { filters, ...(await inquiriesScreen(filters)), loadError: false };
  } catch (error) {
    log.error({ err: error }, "admin inquiries: could not load");
    const counts: InquiryCounts = emptyInquiryCounts();
    return { filters, items: [], total: 0, page: 1, pageCount: 1, counts, loadError: true };
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return adminFormAction(
    request,
    { name: "inquiries", failureMessage: "Failed to update inquiry" },
    {
      ...suspectedSpamIntents({
        release: releaseInquiry,
        remove: deleteSuspectedInquiry,
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
        if (!(await updateInquiryForAdmin(parsed.value))) return refuse(404);
        return success("update", "Inquiry updated successfully");
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("Inquiries");

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[9rem_1fr] sm:gap-3">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children ?? "—"}</dd>
    </div>
  );
}

function DetailsDialog({
  inquiry,
  onClose,
}: {
  inquiry: AdminInquiry | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={inquiry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Inquiry Details</DialogTitle>
          <DialogDescription>
            {inquiry ? `Received ${formatDateTime(inquiry.createdAt)}` : null}
          </DialogDescription>
        </DialogHeader>
        {inquiry ? (
          <dl className="grid gap-3">
            <Field label="Name">{inquiry.name}</Field>
            <Field label="Email">
              <a
                href={`mailto:${inquiry.email}`}
                className="text-primary underline-offset-4 hover:underline"
              >
                {inquiry.email}
              </a>
            </Field>
            <Field label="Phone">{inquiry.phone}</Field>
            <Field label="Company">{inquiry.company}</Field>
            <Field label="Type">
              <InquiryTypeBadge type={inquiry.inquiryType} />
            </Field>
            <Field label="Status">
              <span className="inline-flex flex-wrap gap-2">
                <InquiryStatusBadge status={inquiry.status} />
                {inquiry.spamReason ? <SuspectedSpamBadge reason={inquiry.spamReason} /> : null}
              </span>
            </Field>
            {inquiry.courseTitle || inquiry.modality || inquiry.attendees || inquiry.budget ? (
              <>
                <Field label="Course">{inquiry.courseTitle}</Field>
                <Field label="Modality">{modalityLabel(inquiry.modality)}</Field>
                <Field label="Attendees">{inquiry.attendees}</Field>
                <Field label="Budget">{inquiry.budget}</Field>
              </>
            ) : null}
            <Field label="Message">
              <p className="whitespace-pre-wrap">{inquiry.message}</p>
            </Field>
            <Field label="Notes">
              {inquiry.notes ? <p className="whitespace-pre-wrap">{inquiry.notes}</p> : null}
            </Field>
          </dl>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function UpdateDialog({ inquiry, onClose }: { inquiry: AdminInquiry | null; onClose: () => void }) {
  const fetcher = useFetcher<FormAnswer>();
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    failureToast: () => ({ title: "Error", description: "Failed to update inquiry" }),
    onSuccess: onClose,
  });

  return (
    <Dialog open={inquiry !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Update Inquiry</DialogTitle>
          <DialogDescription>
            {inquiry ? `Change the status or add notes for ${inquiry.name}'s inquiry.` : null}
          </DialogDescription>
        </DialogHeader>
        {inquiry ? (
          <fetcher.Form method="post" className="grid gap-4" key={inquiry.id}>
            <input type="hidden" name="intent" value="update" />
            <input type="hidden" name="id" value={inquiry.id} />
            <div className="grid gap-2">
              <Label htmlFor="inquiry-status">Status</Label>
              <NativeSelect id="inquiry-status" name="status" defaultValue={inquiry.status}>
                {INQUIRY_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {INQUIRY_STATUS_LABELS[status]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="inquiry-notes">Notes</Label>
              <Textarea
                id="inquiry-notes"
                name="notes"
                maxLength={NOTES_MAX_LENGTH}
                defaultValue={inquiry.notes ?? ""}
                placeholder="Add internal notes about this inquiry..."
              />
            </div>
            <DialogFooter>
              <DialogClose asChild>
                <Button type="button" variant="outline" disabled={busy}>
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" disabled={busy}>
                {busy ? "Updating..." : "Update Inquiry"}
              </Button>
            </DialogFooter>
          </fetcher.Form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

export default function Inquiries({ loaderData }: Route.ComponentProps) {
  const { filters, items: inquiries, total, page, pageCount, counts, loadError } = loaderData;
  const [viewing, setViewing] = useState<AdminInquiry | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = inquiries.find((i) => i.id === editingId) ?? null;
  const navigate = useNavigate();
  // Stable, so the update dialog's effect does not re-run on every render.
  const closeEditor = useCallback(() => setEditingId(null), []);

  useEffect(() => {
    if (loadError)
      toast({ title: "Error", description: "Failed to fetch inquiries", variant: "destructive" });
  }, [loaderData, loadError]);

  const exportHref = `/admin/inquiries/export${inquiryFiltersQuery({ ...filters, page: 1 })}`;
  const filtered =
    filters.type !== "all" ||
    filters.status !== "all" ||
    filters.q !== "" ||
    filters.spam !== "all";

  return (
    <>
      <AdminPageHeader
        title="Inquiries"
        description="Track enquiries from the website and keep notes on each one."
        actions={
          <Button asChild variant="outline">
            <a href={exportHref} download>
              <Download aria-hidden />
              Export CSV
            </a>
          </Button>
        }
      />

      <section aria-label="Inquiry summary" className="grid grid-cols-3 gap-2 sm:gap-4">
        <StatCard label="New Inquiries" value={counts.new} icon={Inbox} tone="info" />
        <StatCard label="In Progress" value={counts.in_progress} icon={Clock} tone="warning" />
        <StatCard label="Total Inquiries" value={counts.total} icon={MessageSquare} tone="muted" />
      </section>
      {counts.suspected > 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">
          {counts.suspected} held as suspected spam (not counted above; no e-mails sent).{" "}
          {filters.spam !== "only" ? (
            <Link
              to={`/admin/inquiries${inquiryFiltersQuery({ spam: "only" })}`}
              className="text-primary underline underline-offset-4"
            >
              Review them
            </Link>
          ) : null}
        </p>
      ) : null}

      <Card className="mt-6 p-4">
        <Form
          method="get"
          role="search"
          aria-label="Filter inquiries"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_2fr_auto] lg:items-end"
          onChange={(event) => {
            // Selects apply at once; the search box waits for Enter or the button.
            if (event.target instanceof HTMLSelectElement) event.currentTarget.requestSubmit();
          }}
          onSubmit={(event) => {
            // Without JavaScript the form sends every field; with it, the URL keeps only what is set.
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            const next = parseInquiryFilters(
              new URLSearchParams([...form].map(([k, v]) => [k, String(v)])),
            );
            navigate(`/admin/inquiries${inquiryFiltersQuery({ ...next, page: 1 })}`);
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="filter-type">Type</Label>
            <NativeSelect
              id="filter-type"
              name="type"
              defaultValue={filters.type}
              key={`t-${filters.type}`}
            >
              <option value="all">All Types</option>
              {INQUIRY_TYPES.map((type) => (
                <option key={type} value={type}>
                  {INQUIRY_TYPE_LABELS[type]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="filter-status">Status</Label>
            <NativeSelect
              id="filter-status"
              name="status"
              defaultValue={filters.status}
              key={`s-${filters.status}`}
            >
              <option value="all">All Statuses</option>
              {INQUIRY_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {INQUIRY_STATUS_LABELS[status]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <SpamFilterSelect id="filter-spam" value={filters.spam} />
          <div className="grid gap-2">
            <Label htmlFor="filter-q">Search</Label>
            <Input
              id="filter-q"
              name="q"
              type="search"
              defaultValue={filters.q}
              key={`q-${filters.q}`}
              placeholder="Search by name, email or company..."
            />
          </div>
          <Button type="submit" variant="secondary">
            <Search aria-hidden />
            Apply
          </Button>
        </Form>
      </Card>

      <Card className="mt-6">
        {inquiries.length === 0 ? (
          <p className="p-8 text-center text-muted-foreground">
            {filtered ? "No inquiries match these filters." : "No inquiries found."}
          </p>
        ) : (
          <Table aria-label="Inquiries">
            <TableHeader>
              <TableRow>
                <TableHead className="hidden md:table-cell">Received</TableHead>
                <TableHead>Name</TableHead>
                <TableHead className="hidden sm:table-cell">Type</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden lg:table-cell">Company</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {inquiries.map((inquiry) => (
                <TableRow key={inquiry.id}>
                  <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
                    {formatDateTime(inquiry.createdAt)}
                  </TableCell>
                  <TableCell>
                    <div className="font-medium">{inquiry.name}</div>
                    <div className="text-xs break-all text-muted-foreground">{inquiry.email}</div>
                    <div className="text-xs text-muted-foreground md:hidden">
                      {formatDateTime(inquiry.createdAt)}
                    </div>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    <InquiryTypeBadge type={inquiry.inquiryType} />
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      <InquiryStatusBadge status={inquiry.status} />
                      {inquiry.spamReason ? (
                        <SuspectedSpamBadge reason={inquiry.spamReason} />
                      ) : null}
                    </div>
                  </TableCell>
                  <TableCell className="hidden lg:table-cell">{inquiry.company ?? "—"}</TableCell>
                  <TableCell className="text-right whitespace-nowrap">
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
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>

      <Pagination
        page={page}
        pageCount={pageCount}
        total={total}
        noun={["inquiry", "inquiries"]}
        hrefFor={(p) => `/admin/inquiries${inquiryFiltersQuery({ ...filters, page: p })}`}
      />

      <DetailsDialog inquiry={viewing} onClose={() => setViewing(null)} />
      <UpdateDialog inquiry={editing} onClose={closeEditor} />
    </>
  );
}
