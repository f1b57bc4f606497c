import {
  CheckCircle2,
  Clock,
  Download,
  FileText,
  PoundSterling,
  RefreshCw,
  ShoppingCart,
} from "lucide-react";
import { Link, useLocation, useRevalidator } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { orderStatusIntents } from "#server/forms/order-actions.server.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { listOrders, orderStats } from "#server/orders/admin.server.ts";
import { StatCard } from "#app/components/admin/admin-ui.tsx";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import {
  DateRangeFields,
  FilterChoice,
  FilterSelect,
  SearchField,
} from "#app/components/admin/list/filter-fields.tsx";
import {
  attendeesSummary,
  buyerName,
  OrderStatusActions,
  OrderStatusBadge,
} from "#app/components/admin/order-parts.tsx";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { formatDate, formatDateTime } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import {
  ORDER_RELEASED_MESSAGE,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  orderPageHref,
  revenueHint,
  type AdminOrder,
} from "#app/lib/orders/orders.ts";
import {
  ORDER_DATE_FIELDS,
  ORDER_DATE_FIELD_LABELS,
  ORDER_STATUS_FILTERS,
  ORDER_STATUS_FILTER_LABELS,
  orderFiltersQuery,
  parseOrderFilters,
} from "#app/lib/orders/order-filters.ts";
import type { Route } from "./+types/payments";

/** A list that cannot be read throws: the admin layout's error boundary shows the spec's toast. */
export async function loader({ request }: Route.LoaderArgs) {
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const [list, stats] = await Promise.all([listOrders(filters), orderStats()]);
  return { filters, ...list, stats };
}

/**
 * 'Mark Invoiced', 'Mark Paid', 'Cancel': only what the order state machine allows (a change
 * refused because the order moved on answers 409 with its real status). 'Release' on an order
 * held as suspected spam: clears the mark and sends the invoice request's e-mails.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "payments", failureMessage: "Failed to update order status" },
    orderStatusIntents(admin),
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = () => adminMeta("Payments");

const PATH = "/admin/payments";

/** Every cell of an order's row starts at the top. */
const alignTop = (column: AdminListColumn<AdminOrder>) => ({
  ...column,
  className: `align-top ${column.className ?? ""}`,
});

/*
 * Compact enough for a 1366 px laptop with the sidebar open (the actions stay in view); the
 * students, phone, billing details and history are on the order page the reference opens.
 */
const ORDER_COLUMNS = (
  [
    {
      header: "Order",
      className: "whitespace-nowrap",
      cell: (order) => (
        <>
          <Link
            to={orderPageHref(order.id)}
            className="font-mono text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            {order.reference}
          </Link>
          <div className="text-xs text-muted-foreground">{formatDateTime(order.createdAt)}</div>
        </>
      ),
    },
    {
      header: "Customer",
      className: "md:max-w-[16rem] md:min-w-[10rem]",
      cell: (order) => (
        <>
          <div className="font-medium">{buyerName(order)}</div>
          {order.buyerCompany ? (
            <div className="text-xs text-muted-foreground">{order.buyerCompany}</div>
          ) : null}
          {/* Long addresses wrap where they must, not one letter per line. */}
          <div className="text-xs [overflow-wrap:anywhere] text-muted-foreground">
            {order.buyerEmail}
          </div>
        </>
      ),
    },
    {
      header: "Course",
      className: "md:min-w-[9rem]",
      cell: (order) => (
        <>
          <div>{order.courseTitle}</div>
          <div className="text-xs text-muted-foreground">{attendeesSummary(order)}</div>
        </>
      ),
    },
    {
      header: "Amount",
      className: "whitespace-nowrap",
      cell: (order) => (
        <>
          <div className="font-medium tabular-nums">{formatPence(order.totalAmountCents)}</div>
          <div className="text-xs text-muted-foreground">
            {order.quantity} × {formatPence(order.unitPriceCents)}
          </div>
        </>
      ),
    },
    {
      header: "Status",
      cell: (order) => (
        <>
          <div className="flex flex-wrap gap-1">
            <OrderStatusBadge status={order.listStatus} />
            {order.spamReason ? <SuspectedSpamBadge reason={order.spamReason} /> : null}
          </div>
          <div className="mt-1 text-xs whitespace-nowrap text-muted-foreground">
            {PAYMENT_METHOD_LABELS[order.paymentMethod]}
          </div>
          {order.paidAt ? (
            <div className="text-xs whitespace-nowrap text-muted-foreground">
              Paid <time dateTime={order.paidAt}>{formatDate(order.paidAt)}</time>
            </div>
          ) : null}
        </>
      ),
    },
    {
      header: "Actions",
      alignEnd: true,
      cell: (order) => <OrderStatusActions order={order} />,
    },
  ] satisfies AdminListColumn<AdminOrder>[]
).map(alignTop);

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, stats } = loaderData;
  const revalidator = useRevalidator();
  const location = useLocation();
  const refreshing = revalidator.state !== "idle";
  const exportHref = `${PATH}/export${orderFiltersQuery({ ...filters, page: 1 })}`;
  const answer = actionData;

  return (
    <AdminListPage
      path={PATH}
      title="Manage Payments"
      description="Course orders paid by card or awaiting an invoice."
      actions={
        <>
          <Button
            type="button"
            variant="outline"
            onClick={() => revalidator.revalidate()}
            disabled={refreshing}
          >
            <RefreshCw aria-hidden className={refreshing ? "animate-spin" : undefined} />
            Refresh
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
        // Without JavaScript the action's answer is shown here (with it, as a toast).
        answer ? (
          <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
            {answer.ok
              ? answer.released
                ? ORDER_RELEASED_MESSAGE
                : `Status Updated: Order status changed to ${answer.status}`
              : answer.message}{" "}
            <Link to={`${location.pathname}${location.search}`} className="text-primary underline">
              Dismiss
            </Link>
          </p>
        ) : null
      }
      summary={
        <section aria-label="Order summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <StatCard label="Total Orders" value={stats.total} icon={ShoppingCart} />
          <StatCard label="Pending" value={stats.pending} icon={Clock} tone="warning" />
          <StatCard label="Invoiced" value={stats.invoiced} icon={FileText} tone="info" />
          <StatCard label="Paid" value={stats.paid} icon={CheckCircle2} tone="success" />
          <StatCard
            label="Revenue"
            value={formatPence(stats.revenue.revenueCents)}
            icon={PoundSterling}
            tone="success"
            hint={revenueHint(stats.revenue)}
          />
        </section>
      }
      list={loaderData}
      filters={filters}
      parseFilters={parseOrderFilters}
      filtersQuery={orderFiltersQuery}
      filterLabel="Filter orders"
      filterClassName="grid gap-3 sm:grid-cols-3 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_1fr_auto] lg:items-end"
      filterFields={
        <>
          <SearchField
            value={filters.search}
            placeholder="Search by name, email, course, or company..."
          />
          <FilterSelect
            name="status"
            label="Status"
            value={filters.status ?? ""}
            allValue=""
            options={ORDER_STATUS_FILTERS}
            labels={ORDER_STATUS_FILTER_LABELS}
          />
          <FilterSelect
            name="method"
            label="Method"
            value={filters.method ?? ""}
            allValue=""
            options={PAYMENT_METHODS}
            labels={PAYMENT_METHOD_LABELS}
          />
          <FilterChoice
            name="dates"
            label="Dates"
            value={filters.dates}
            options={ORDER_DATE_FIELDS}
            labels={ORDER_DATE_FIELD_LABELS}
          />
          <DateRangeFields from={filters.from} to={filters.to} />
        </>
      }
      tableLabel="Orders"
      columns={ORDER_COLUMNS}
      stackBelowMd
      rowAttributes={(order) => ({ "data-order-id": order.id })}
      emptyText="No orders found."
      noun={["order", "orders"]}
    />
  );
}
