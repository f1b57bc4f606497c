import { CalendarPlus, Download, Mail, ShieldAlert, UserCheck } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { useFetcher } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";
import { suspectedSpamIntents } from "#server/forms/suspected-spam-action.server.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  deleteSuspectedSubscription,
  releaseSubscription,
  ConsentWithdrawn,
  setSubscriptionActive,
  subscriptionsScreen,
} from "#server/newsletter/admin.server.ts";
import { StatCard } from "#app/components/admin/admin-ui.tsx";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import { SearchField } from "#app/components/admin/list/filter-fields.tsx";
import {
  SpamFilterSelect,
  SuspectedSpamActions,
  SuspectedSpamBadge,
} from "#app/components/admin/suspected-spam.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  parseSubscriptionFilters,
  subscriptionFiltersQuery,
  subscriptionToggleSchema,
  type AdminSubscription,
} from "#app/lib/newsletter/admin.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDate } from "#app/lib/admin/time.ts";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { toast } from "#app/lib/ui/toast.ts";
import type { Route } from "./+types/newsletter-subscriptions";
import { EmailAddress } from "#app/components/ui/email-address.tsx";

/** A list that cannot be read throws: the admin layout's error boundary shows the spec's toast. */
export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseSubscriptionFilters(new URL(request.url).searchParams);
  return { filters, ...(await subscriptionsScreen(filters)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "newsletter", failureMessage: "Failed to update subscription status" },
    {
      ...suspectedSpamIntents({
        release: (id) => releaseSubscription(id, admin),
        remove: (id) => deleteSuspectedSubscription(id, admin),
        messages: {
          released: "Subscription released",
          deleted: "Subscription deleted",
          releaseFailed: "Failed to release subscription",
          deleteFailed: "Failed to delete subscription",
        },
      }),
      toggle: async (form, refuse) => {
        const parsed = parseForm(form, subscriptionToggleSchema);
        if (!parsed.ok) return refuse(400);
        const { id, active } = parsed.value;
        try {
          if (!(await setSubscriptionActive(id, active, admin))) return refuse(404);
        } catch (error) {
          if (!(error instanceof ConsentWithdrawn)) throw error;
          return refuse(
            409,
            `This person unsubscribed themselves on ${formatDate(error.unsubscribedAt)}: only they can subscribe again`,
          );
        }
        return success("toggle", active ? "Subscription activated" : "Subscription deactivated");
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("Newsletter Subscriptions");

const EXPORT_HREF = "/admin/newsletter-subscriptions/export";

function fileNameFrom(disposition: string | null): string | null {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? "");
  return match?.[1] ?? null;
}

/**
 * 'Export Active Emails': with JavaScript, fetch the file, save it under the server's name and
 * say how many addresses it holds; without, the link downloads it all the same.
 */
async function exportActiveEmails(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  try {
    const response = await fetch(EXPORT_HREF, { headers: { Accept: "text/plain" } });
    if (!response.ok || response.redirected) throw new Error(`export answered ${response.status}`);
    const text = await response.text();
    const count = Number(
      response.headers.get("X-Export-Count") ?? text.split("\n").filter(Boolean).length,
    );
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download =
      fileNameFrom(response.headers.get("Content-Disposition")) ?? "newsletter-subscribers.txt";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    toast({ title: "Success", description: `Exported ${count} active email addresses` });
  } catch {
    toast({
      title: "Error",
      description: "Failed to export email addresses",
      variant: "destructive",
    });
  }
}

function ToggleButton({ subscription }: { subscription: AdminSubscription }) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher, {
    failureToast: () => ({ title: "Error", description: "Failed to update subscription status" }),
  });
  const busy = fetcher.state !== "idle";
  if (!subscription.isActive && subscription.unsubscribedAt) {
    // Their own unsubscribe withdrew consent: only a new subscription of theirs restores it.
    return (
      <p className="text-xs text-muted-foreground">
        Unsubscribed themselves on {formatDate(subscription.unsubscribedAt)}: only they can
        subscribe again
      </p>
    );
  }
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="id" value={subscription.id} />
      <input type="hidden" name="active" value={subscription.isActive ? "false" : "true"} />
      <Button
        type="submit"
        size="sm"
        variant={subscription.isActive ? "outline" : "default"}
        disabled={busy}
        aria-label={`${subscription.isActive ? "Deactivate" : "Activate"} ${subscription.email}`}
      >
        {subscription.isActive ? "Deactivate" : "Activate"}
      </Button>
    </fetcher.Form>
  );
}

const SUBSCRIPTION_COLUMNS: AdminListColumn<AdminSubscription>[] = [
  {
    header: "Email",
    cell: (subscription) => (
      <>
        <div className="font-medium">
          <EmailAddress email={subscription.email} />
        </div>
        <div className="text-xs text-muted-foreground md:hidden">
          Subscribed {formatDate(subscription.subscribedAt)}
        </div>
      </>
    ),
  },
  {
    header: "Status",
    cell: (subscription) => (
      <div className="flex flex-wrap gap-1">
        <Badge variant={subscription.isActive ? "success" : "muted"}>
          {subscription.isActive ? "Active" : "Inactive"}
        </Badge>
        {subscription.spamReason ? <SuspectedSpamBadge reason={subscription.spamReason} /> : null}
      </div>
    ),
  },
  {
    header: "Source",
    from: "sm",
    cell: (subscription) =>
      subscription.source ? <Badge variant="outline">{subscription.source}</Badge> : "—",
  },
  {
    header: "Subscribed",
    from: "md",
    className: "whitespace-nowrap text-muted-foreground",
    cell: (subscription) => (
      <time dateTime={subscription.subscribedAt}>{formatDate(subscription.subscribedAt)}</time>
    ),
  },
  {
    header: "Action",
    alignEnd: true,
    cell: (subscription) => (
      <div className="flex justify-end gap-1">
        {subscription.spamReason ? (
          <SuspectedSpamActions
            id={subscription.id}
            what={`the subscription of ${subscription.email}`}
            deleteQuestion="Are you sure you want to delete this subscription?"
          />
        ) : (
          <ToggleButton subscription={subscription} />
        )}
      </div>
    ),
  },
];

export default function NewsletterSubscriptions({ loaderData }: Route.ComponentProps) {
  const { filters, stats } = loaderData;
  const [exporting, setExporting] = useState(false);

  return (
    <AdminListPage
      path="/admin/newsletter-subscriptions"
      title="Newsletter Subscriptions"
      description="Everyone who signed up for the newsletter."
      actions={
        <Button asChild aria-disabled={exporting || undefined}>
          <a
            href={EXPORT_HREF}
            download
            onClick={(event) => {
              setExporting(true);
              void exportActiveEmails(event).finally(() => setExporting(false));
            }}
          >
            <Download aria-hidden />
            Export Active Emails
          </a>
        </Button>
      }
      summary={
        <section
          aria-label="Subscription summary"
          className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-4"
        >
          <StatCard label="Total" value={stats.total} icon={Mail} tone="muted" />
          <StatCard label="Active" value={stats.active} icon={UserCheck} tone="success" />
          <StatCard label="New Today" value={stats.newToday} icon={CalendarPlus} tone="info" />
          <StatCard
            label="Suspected Spam"
            value={stats.suspected}
            icon={ShieldAlert}
            tone="warning"
          />
        </section>
      }
      list={loaderData}
      filters={filters}
      parseFilters={parseSubscriptionFilters}
      filtersQuery={subscriptionFiltersQuery}
      filterLabel="Search subscriptions"
      filterClassName="grid gap-3 sm:grid-cols-[14rem_1fr_auto] sm:items-end"
      filterFields={
        <>
          <SpamFilterSelect value={filters.spam} />
          <SearchField value={filters.q} placeholder="Search by email..." />
        </>
      }
      applyLabel="Search"
      tableLabel="Newsletter subscriptions"
      columns={SUBSCRIPTION_COLUMNS}
      emptyText="No newsletter subscriptions yet."
      filteredEmptyText="No subscriptions match your search."
      noun={["subscription", "subscriptions"]}
    />
  );
}
