import {
  Archive,
  BookOpen,
  CircleCheck,
  Clock,
  CreditCard,
  FolderTree,
  Handshake,
  Inbox,
  Mail,
  MessageSquare,
  PoundSterling,
} from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import {
  countInquiriesByStatus,
  latestInquiries,
  repliesDue,
} from "#server/inquiries/admin.server.ts";
import { logFailure } from "#server/db/errors.server.ts";
import {
  latestOrders,
  monthRevenue,
  owedBackOnCancelledOrders,
} from "#server/orders/dashboard.server.ts";
import {
  AdminPageHeader,
  InquiryStatusBadge,
  InquiryTypeBadge,
  ReplyDue,
  StatCard,
} from "#app/components/admin/admin-ui.tsx";
import { OrderStatusBadge } from "#app/components/admin/order-parts.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import {
  emptyMonthRevenue,
  formatLondonMonth,
  type DashboardOwedBack,
  type DashboardOrder,
  type MonthRevenue,
} from "#app/lib/orders/dashboard.ts";
import {
  emptyInquiryCounts,
  inquiryHref,
  type AdminInquiry,
  type InquiryCounts,
  type RepliesDue,
} from "#app/lib/inquiries/admin.ts";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDateTime, londonMonth, relativeTime } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { orderPageHref, revenueHint } from "#app/lib/orders/orders.ts";
import { licencesEnding } from "#server/licences/licences.server.ts";
import { LicencesEndingAlert } from "#app/components/admin/licences-ending.tsx";
import type { LicencesEnding } from "#app/lib/licences/licences.ts";
import type { Route } from "./+types/dashboard";

/** Dashboard load errors are only logged; the page shows what it has. */
async function orLogged<T>(what: string, read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    logFailure(error, {}, `dashboard: could not load ${what}`);
    return fallback;
  }
}

export async function loader({ context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const now = new Date();
  // Each part on its own: orders that cannot be read do not hide the inquiries, nor the reverse.
  const [inquiries, orders, revenue, owedBack, due, ending] = await Promise.all([
    orLogged(
      "inquiries",
      async () => {
        const [counts, latest] = await Promise.all([countInquiriesByStatus(), latestInquiries(10)]);
        return { counts, latest };
      },
      { counts: emptyInquiryCounts() as InquiryCounts, latest: [] as AdminInquiry[] },
    ),
    orLogged("orders", () => latestOrders(), [] as DashboardOrder[]),
    orLogged<MonthRevenue>(
      "revenue",
      () => monthRevenue(now),
      emptyMonthRevenue(londonMonth(now).start),
    ),
    orLogged("money owed back", () => owedBackOnCancelledOrders(), [] as DashboardOwedBack[]),
    orLogged<RepliesDue | null>("replies due", () => repliesDue(now), null),
    orLogged<LicencesEnding | null>("licences ending", () => licencesEnding(now), null),
  ]);
  // One clock for the server render and the browser's hydration.
  return {
    email: admin.email,
    counts: inquiries.counts,
    latest: inquiries.latest,
    orders,
    revenue,
    owedBack,
    due,
    ending,
    now: now.getTime(),
  };
}

export const meta: Route.MetaFunction = () => adminMeta("Dashboard");

const AREAS = [
  {
    to: "/admin/courses",
    label: "Courses",
    description: "Create and edit training courses",
    icon: BookOpen,
  },
  {
    to: "/admin/categories",
    label: "Categories",
    description: "Group courses by subject",
    icon: FolderTree,
  },
  {
    to: "/admin/inquiries",
    label: "Inquiries",
    description: "Track and answer enquiries",
    icon: MessageSquare,
  },
  {
    to: "/admin/payments",
    label: "Payments",
    description: "Orders, invoices and payments",
    icon: CreditCard,
  },
  {
    to: "/admin/newsletter-subscriptions",
    label: "Newsletter",
    description: "Subscribers and exports",
    icon: Mail,
  },
  {
    to: "/admin/partners",
    label: "Partners",
    description: "Training partners and links",
    icon: Handshake,
  },
] as const;

/**
 * A list row that is one link: the link's box is stretched over the row (so a click anywhere
 * opens it) while the row's other content stays plain text — one tab stop per row, and a focus
 * ring around the whole row.
 */
const ROW =
  "relative -mx-2 flex flex-col gap-2 rounded-md px-2 py-3 transition-colors hover:bg-accent/60 has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-ring sm:flex-row sm:items-center sm:justify-between";
const ROW_LINK =
  "after:absolute after:inset-0 after:rounded-md after:content-[''] focus-visible:outline-none";

/** A dashboard card listing the latest few of something, with a link to all of them. */
function LatestList({
  title,
  allHref,
  allLabel,
  empty,
  isEmpty,
  children,
}: {
  title: string;
  allHref: string;
  /** Read after 'View all' by screen readers: 'View all inquiries'. */
  allLabel: string;
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle as="h2" className="text-lg">
          {title}
        </CardTitle>
        <Link to={allHref} className="text-sm text-primary underline-offset-4 hover:underline">
          View all<span className="sr-only"> {allLabel}</span>
        </Link>
      </CardHeader>
      <CardContent>
        {isEmpty ? <p className="py-6 text-center text-muted-foreground">{empty}</p> : children}
      </CardContent>
    </Card>
  );
}

/** Cancelled orders with money to pay back (paid after cancelling, or before): first on the page. */
function OwedBack({ payments }: { payments: DashboardOwedBack[] }) {
  return (
    <section
      aria-labelledby="owed-back-heading"
      className="mb-6 rounded-lg border border-destructive bg-destructive/5 p-4"
    >
      <h2 id="owed-back-heading" className="font-semibold">
        Money to pay back: {payments.length} cancelled {payments.length === 1 ? "order" : "orders"}{" "}
        to refund
      </h2>
      <ul className="mt-2 grid gap-1 text-sm">
        {payments.map((payment) => (
          <li key={payment.id}>
            <Link
              to={orderPageHref(payment.id)}
              className="font-mono text-primary underline-offset-4 hover:underline"
            >
              {payment.reference}
            </Link>{" "}
            — {payment.buyerName}, {formatPence(payment.owedCents)} paid{" "}
            {formatDateTime(payment.paidAt)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "1000+" once a count reached its cap. */
const counted = (n: number, cap: number) => (n >= cap ? `${cap}+` : String(n));

/**
 * Enquiries whose reply is overdue or due within four hours (decision 0047), most urgent first:
 * the site promises a reply within 24 hours (a licence quote within 2 business days).
 */
function RepliesDueAlert({ due }: { due: RepliesDue }) {
  const shown = due.overdue + due.dueSoon;
  return (
    <section
      aria-labelledby="replies-due-heading"
      className="mb-6 rounded-lg border border-warning bg-warning/5 p-4"
    >
      <h2 id="replies-due-heading" className="font-semibold">
        Replies due: {counted(due.overdue, due.cap)} overdue, {counted(due.dueSoon, due.cap)} due
        within 4 hours
      </h2>
      <ul className="mt-2 grid gap-2 text-sm" aria-label="Enquiries awaiting a reply">
        {due.items.map((inquiry) => (
          <li key={inquiry.id} className="flex flex-wrap items-center gap-2">
            <Link
              to={inquiryHref(inquiry.id)}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              {inquiry.name}
            </Link>
            <InquiryTypeBadge type={inquiry.inquiryType} />
            {inquiry.replyDue ? <ReplyDue due={inquiry.replyDue} /> : null}
          </li>
        ))}
      </ul>
      {shown > due.items.length ? (
        <p className="mt-2 text-sm">
          <Link
            to="/admin/inquiries?reply=overdue"
            className="text-primary underline-offset-4 hover:underline"
          >
            See every overdue enquiry
          </Link>
        </p>
      ) : null}
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { email, counts, latest, orders, revenue, owedBack, due, ending, now } = loaderData;
  const month = formatLondonMonth(revenue.monthStart);
  return (
    <>
      <AdminPageHeader title="Admin Dashboard" description={`Welcome back, ${email}`} />

      {owedBack.length > 0 ? <OwedBack payments={owedBack} /> : null}
      {due && due.items.length > 0 ? <RepliesDueAlert due={due} /> : null}
      {ending && ending.count > 0 ? <LicencesEndingAlert ending={ending} /> : null}

      <section aria-label="Inquiry counts" className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        <StatCard label="New" value={counts.new} icon={Inbox} tone="info" />
        <StatCard label="In Progress" value={counts.in_progress} icon={Clock} tone="warning" />
        <StatCard label="Resolved" value={counts.replied} icon={CircleCheck} tone="success" />
        <StatCard label="Closed" value={counts.closed} icon={Archive} tone="muted" />
        <StatCard label="Total" value={counts.total} icon={MessageSquare} tone="muted" />
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <div className="grid min-w-0 content-start gap-6 lg:col-span-2">
          <LatestList
            title="Recent Inquiries"
            allHref="/admin/inquiries"
            allLabel="inquiries"
            empty="No inquiries found."
            isEmpty={latest.length === 0}
          >
            <ul className="divide-y divide-border" aria-label="Latest inquiries">
              {latest.map((inquiry) => (
                <li key={inquiry.id} className={ROW}>
                  <div className="min-w-0">
                    <Link
                      to={inquiryHref(inquiry.id)}
                      aria-label={`${inquiry.name}’s inquiry`}
                      className={`block truncate font-medium ${ROW_LINK}`}
                    >
                      {inquiry.name}
                    </Link>
                    <p className="truncate text-sm text-muted-foreground">{inquiry.email}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <InquiryTypeBadge type={inquiry.inquiryType} />
                    <InquiryStatusBadge status={inquiry.status} />
                    <time
                      dateTime={inquiry.createdAt}
                      className="text-xs whitespace-nowrap text-muted-foreground"
                    >
                      {relativeTime(inquiry.createdAt, now)}
                    </time>
                  </div>
                </li>
              ))}
            </ul>
          </LatestList>

          <LatestList
            title="Latest Orders"
            allHref="/admin/payments"
            allLabel="orders"
            empty="No orders found."
            isEmpty={orders.length === 0}
          >
            <ul className="divide-y divide-border" aria-label="Latest orders">
              {orders.map((order) => (
                <li key={order.id} className={ROW} data-order-id={order.id}>
                  <div className="min-w-0">
                    <Link
                      to={orderPageHref(order.id)}
                      aria-label={`Order ${order.reference}`}
                      className={`font-mono text-sm font-medium ${ROW_LINK}`}
                    >
                      {order.reference}
                    </Link>
                    <p className="truncate font-medium">
                      {order.buyerName}
                      {order.organisation ? (
                        <span className="font-normal text-muted-foreground">
                          {" "}
                          · {order.organisation}
                        </span>
                      ) : null}
                    </p>
                    <p className="truncate text-sm text-muted-foreground">{order.courseTitle}</p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2 sm:flex-col sm:items-end sm:gap-1">
                    <span className="font-medium tabular-nums">
                      {formatPence(order.totalAmountCents)}
                    </span>
                    <OrderStatusBadge status={order.listStatus} />
                    <time
                      dateTime={order.createdAt}
                      className="text-xs whitespace-nowrap text-muted-foreground"
                    >
                      {formatDateTime(order.createdAt)}
                    </time>
                  </div>
                </li>
              ))}
            </ul>
          </LatestList>
        </div>

        <div className="grid min-w-0 content-start gap-6">
          <section aria-label="Revenue">
            <StatCard
              label="Revenue this month"
              value={formatPence(revenue.revenueCents)}
              icon={PoundSterling}
              tone="success"
              hint={
                <>
                  {revenue.orderCount} {revenue.orderCount === 1 ? "order" : "orders"} paid in{" "}
                  {month} (UK time). {revenueHint(revenue)}
                </>
              }
            />
          </section>

          <Card className="min-w-0">
            <CardHeader>
              <CardTitle as="h2" className="text-lg">
                Manage
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-2">
                {AREAS.map(({ to, label, description, icon: Icon }) => (
                  <li key={to}>
                    <Link
                      to={to}
                      className="flex items-center gap-3 rounded-md border border-border p-3 transition-colors hover:bg-accent"
                    >
                      <Icon aria-hidden className="size-5 shrink-0 text-primary" />
                      <span>
                        <span className="block font-medium">{label}</span>
                        <span className="block text-sm text-muted-foreground">{description}</span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}
