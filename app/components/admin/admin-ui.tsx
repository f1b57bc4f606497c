import { ArrowLeft, ChevronLeft, ChevronRight, Plus, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import {
  INQUIRY_STATUS_BADGE,
  INQUIRY_STATUS_LABELS,
  INQUIRY_TYPE_LABELS,
  type InquiryStatus,
  type InquiryType,
} from "#app/lib/inquiries/admin.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";

/** Pieces the admin screens share: page heading, stat cards, badges, paging. */

/** The link above a screen's heading back to the Dashboard. */
export function BackToDashboard() {
  return (
    <Button asChild variant="ghost" size="sm" className="mb-2 -ml-2">
      <Link to="/admin/dashboard">
        <ArrowLeft aria-hidden /> Back to Dashboard
      </Link>
    </Button>
  );
}

/**
 * A screen's 'New …' button: with JavaScript it opens the screen's dialog (`onAdd`); before the
 * page's scripts run, and without them, it is a link to the form on a page of its own (`href`).
 */
export function AddButton({
  label,
  hydrated,
  onAdd,
  href,
}: {
  label: string;
  hydrated: boolean;
  onAdd: () => void;
  href: string;
}) {
  return hydrated ? (
    <Button type="button" onClick={onAdd}>
      <Plus aria-hidden /> {label}
    </Button>
  ) : (
    <Button asChild>
      <Link to={href}>
        <Plus aria-hidden /> {label}
      </Link>
    </Button>
  );
}

export function AdminPageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
        {description ? <p className="mt-1 text-muted-foreground">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function StatCard({
  label,
  value,
  icon: Icon,
  tone,
  hint,
}: {
  label: string;
  value: ReactNode;
  icon?: LucideIcon;
  tone?: "info" | "warning" | "success" | "muted";
  /** A line under the figure saying what it counts. */
  hint?: ReactNode;
}) {
  const toneClass = {
    info: "text-info",
    warning: "text-warning",
    success: "text-success",
    muted: "text-muted-foreground",
  }[tone ?? "muted"];
  return (
    <Card className="p-3 sm:p-4">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</h2>
        {Icon ? (
          <Icon aria-hidden className={`hidden size-4 shrink-0 sm:block ${toneClass}`} />
        ) : null}
      </div>
      <p className="mt-1 text-xl font-bold tabular-nums sm:mt-2 sm:text-2xl">
        {typeof value === "number" ? value.toLocaleString("en-GB") : value}
      </p>
      {hint ? <p className="mt-1 text-xs text-muted-foreground">{hint}</p> : null}
    </Card>
  );
}

export function InquiryStatusBadge({ status }: { status: InquiryStatus }) {
  return <Badge variant={INQUIRY_STATUS_BADGE[status]}>{INQUIRY_STATUS_LABELS[status]}</Badge>;
}

export function InquiryTypeBadge({ type }: { type: InquiryType }) {
  return <Badge variant="outline">{INQUIRY_TYPE_LABELS[type]}</Badge>;
}

/**
 * When an enquiry's reply is due (decision 0047), in UK time, with "Overdue" once it has passed
 * (as the server read it: the same on the server's page and after hydration).
 */
export function ReplyDue({ due }: { due: { at: string; overdue: boolean } }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
      {due.overdue ? <Badge variant="destructive">Overdue</Badge> : null}
      <span>
        Reply by{" "}
        <time dateTime={due.at} className="whitespace-nowrap">
          {formatDateTime(due.at)}
        </time>
      </span>
    </span>
  );
}

/** 'Page 2 of 40' with previous/next links that keep the other query parameters. */
export function Pagination({
  page,
  pageCount,
  total,
  noun,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  total: number;
  noun: [singular: string, plural: string];
  hrefFor: (page: number) => string;
}) {
  const count = `${total.toLocaleString("en-GB")} ${total === 1 ? noun[0] : noun[1]}`;
  return (
    <nav
      aria-label="Pagination"
      className="mt-4 flex flex-col items-center justify-between gap-3 text-sm text-muted-foreground sm:flex-row"
    >
      <p>
        {count}
        {pageCount > 1 ? ` · Page ${page} of ${pageCount.toLocaleString("en-GB")}` : null}
      </p>
      {pageCount > 1 ? (
        <div className="flex gap-2">
          {page > 1 ? (
            <Button asChild variant="outline" size="sm">
              <Link to={hrefFor(page - 1)} preventScrollReset>
                <ChevronLeft aria-hidden />
                Previous
              </Link>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>
              <ChevronLeft aria-hidden />
              Previous
            </Button>
          )}
          {page < pageCount ? (
            <Button asChild variant="outline" size="sm">
              <Link to={hrefFor(page + 1)} preventScrollReset>
                Next
                <ChevronRight aria-hidden />
              </Link>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>
              Next
              <ChevronRight aria-hidden />
            </Button>
          )}
        </div>
      ) : null}
    </nav>
  );
}
