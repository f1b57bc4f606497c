import { CalendarPlus, Download, Mail, Search, ShieldAlert, UserCheck } from "lucide-react";
import { useEffect, useState, type MouseEvent } from "react";
import { Form, useFetcher } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { log } from "#server/log.server.ts";
import {
  deleteSuspectedSubscription,
  releaseSubscription,
  setSubscriptionActive,
  subscriptionsScreen,
} from "#server/newsletter.server.ts";
import { suspectedSpamIntents } from "#server/forms/suspected-spam-action.server.ts";
import { AdminPageHeader, Pagination, StatCard } from "#app/components/admin/admin-ui.tsx";
import {
  SpamFilterSelect,
  SuspectedSpamActions,
  SuspectedSpamBadge,
} from "#app/components/admin/suspected-spam.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { success } from "#server/forms/form-post.server.ts";
import {
  parseSubscriptionFilters,
  subscriptionFiltersQuery,
  subscriptionToggleSchema,
  type AdminSubscription,
} from "#app/lib/admin-newsletter.ts";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { formatDate } from "#app/lib/admin-time.ts";
import { toast } from "#app/lib/toast.ts";
import type { Route } from "./+types/newsletter-subscriptions";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const filters = parseSubscriptionFilters(new URL(request.url).searchParams);
  try {
    return { filters, ...(await subscriptionsScreen(filters)), loadError: false };
  } catch (error) {
    log.error({ err: error }, "admin newsletter: could not load");
    return {
      filters,
      items: [],
      total: 0,
      page: 1,
      pageCount: 1,
      stats: { total: 0, active: 0, newToday: 0, suspected: 0 },
      loadError: true,
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return adminFormAction(
    request,
    { name: "newsletter", failureMessage: "Failed to update subscription status" },
    {
      ...suspectedSpamIntents({
        release: releaseSubscription,
        remove: deleteSuspectedSubscription,
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
        if (!(await setSubscriptionActive(id, active))) return refuse(404);
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

export default function NewsletterSubscriptions({ loaderData }: Route.ComponentProps) {
  const { filters, items: subscriptions, total, page, pageCount, stats, loadError } = loaderData;
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    if (loadError) {
      toast({
        title: "Error",
        description: "Failed to load newsletter subscriptions",
        variant: "destructive",
      });
    }
  }, [loaderData, loadError]);

  return (
    <>
      <AdminPageHeader
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
      />

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

      <Card className="mt-6 p-4">
        <Form
          method="get"
          role="search"
          aria-label="Search subscriptions"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          onChange={(event) => {
            // The select applies at once; the search box waits for Enter or the button.
            if (event.target instanceof HTMLSelectElement) event.currentTarget.requestSubmit();
          }}
        >
          <div className="sm:w-56">
            <SpamFilterSelect id="subscription-spam" value={filters.spam} />
          </div>
          <div className="grid flex-1 gap-2">
            <Label htmlFor="subscription-q">Search</Label>
            <Input
              id="subscription-q"
              name="q"
              type="search"
              defaultValue={filters.q}
              key={filters.q}
              placeholder="Search by email..."
            />
          </div>
          <Button type="submit" variant="secondary">
            <Search aria-hidden />
            Search
          </Button>
        </Form>
      </Card>

      <Card className="mt-6">
        {subscriptions.length === 0 ? (
          <p className="p-8 text-center text-muted-foreground">
            {filters.q || filters.spam !== "all"
              ? "No subscriptions match your search."
              : "No newsletter subscriptions yet."}
          </p>
        ) : (
          <Table aria-label="Newsletter subscriptions">
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Status</TableHead>
                <TableHead className="hidden sm:table-cell">Source</TableHead>
                <TableHead className="hidden md:table-cell">Subscribed</TableHead>
                <TableHead className="text-right">Action</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {subscriptions.map((subscription) => (
                <TableRow key={subscription.id}>
                  <TableCell className="break-all">
                    <div className="font-medium">{subscription.email}</div>
                    <div className="text-xs text-muted-foreground md:hidden">
                      Subscribed {formatDate(subscription.subscribedAt)}
                    </div>
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      <Badge variant={subscription.isActive ? "success" : "muted"}>
                        {subscription.isActive ? "Active" : "Inactive"}
                      </Badge>
                      {subscription.spamReason ? (
                        <SuspectedSpamBadge reason={subscription.spamReason} />
                      ) : null}
                    </div>
                  </TableCell>
                  <TableCell className="hidden sm:table-cell">
                    {subscription.source ? (
                      <Badge variant="outline">{subscription.source}</Badge>
                    ) : (
                      "—"
                    )}
                  </TableCell>
                  <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
                    <time dateTime={subscription.subscribedAt}>
                      {formatDate(subscription.subscribedAt)}
                    </time>
                  </TableCell>
                  <TableCell className="flex justify-end gap-1">
                    {subscription.spamReason ? (
                      <SuspectedSpamActions
                        id={subscription.id}
                        what={`the subscription of ${subscription.email}`}
                        deleteQuestion="Are you sure you want to delete this subscription?"
                      />
                    ) : (
                      <ToggleButton subscription={subscription} />
                    )}
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
        noun={["subscription", "subscriptions"]}
        hrefFor={(p) =>
          `/admin/newsletter-subscriptions${subscriptionFiltersQuery({ ...filters, page: p })}`
        }
      />
    </>
  );
}
