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
import { success } from "#server/forms/form-post.server.ts";
import { requireAdmin } from "#server/auth.server.ts";
import {
  changeOrderStatusByAdmin,
  listOrders,
  orderStats,
  releaseOrder,
} from "#server/orders/admin.server.ts";
import { StatCard } from "#app/components/admin/admin-ui.tsx";
import {
  AdminListPage,
  type AdminListColumn,
} from "#app/components/admin/list/admin-list-page.tsx";
import { FilterSelect, SearchField } from "#app/components/admin/list/filter-fields.tsx";
import {
  ORDER_RELEASED_MESSAGE,
  OrderStatusActions,
  OrderStatusBadge,
  OrderStudents,
} from "#app/components/admin/order-parts.tsx";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { formatDateTime } from "#app/lib/admin-time.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import {
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  orderFiltersQuery,
  orderReleaseFormSchema,
  orderStatusFormSchema,
  parseOrderFilters,
  type AdminOrder,
} from "#app/lib/orders.ts";
import type { Route } from "./+types/payments";

/** A list that cannot be read throws: the admin layout's error boundary shows the spec's toast. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  const [list, stats] = await Promise.all([listOrders(filters), orderStats()]);
  return { filters, ...list, stats };
}

/**
 * 'Mark Invoiced', 'Mark Paid', 'Cancel': only what the order state machine allows. 'Release'
 * on an order held as suspected spam: clears the mark and sends the invoice request's e-mails.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return adminFormAction(
    request,
    { name: "payments", failureMessage: "Failed to update order status" },
    {
      status: async (form, refuse) => {
        const parsed = parseForm(form, orderStatusFormSchema);
        if (!parsed.ok) return refuse(400);
        const result = await changeOrderStatusByAdmin(
          parsed.value.orderId,
          parsed.value.status,
          admin,
        );
        if (!result.ok) return refuse(result.reason === "not_found" ? 404 : 409);
        return success("status", undefined, { status: result.order.status, released: false });
      },
      release: async (form, refuse) => {
        const parsed = parseForm(form, orderReleaseFormSchema);
        if (!parsed.ok) return refuse(400, "Failed to release order");
        const released = await releaseOrder(parsed.value.orderId, admin);
        if (!released) return refuse(404, "Failed to release order");
        return success("release", ORDER_RELEASED_MESSAGE, {
          status: released.status,
          released: true,
        });
      },
    },
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = () => adminMeta("Payments");

const PATH = "/admin/payments";

/** Every cell of an order's row starts at the top (the students list can open). */
const alignTop = (column: AdminListColumn<AdminOrder>) => ({
  ...column,
  className: `align-top ${column.className ?? ""}`,
});

const ORDER_COLUMNS = (
  [
    {
      header: "Customer",
      cell: (order) => (
        <>
          <div className="font-medium">
            {order.buyerFirstName} {order.buyerLastName}
          </div>
          <div className="text-xs text-muted-foreground">{order.buyerEmail}</div>
          {order.buyerCompany ? (
            <div className="text-xs text-muted-foreground">{order.buyerCompany}</div>
          ) : null}
          <div className="font-mono text-xs text-muted-foreground">{order.reference}</div>
        </>
      ),
    },
    { header: "Course", cell: (order) => order.courseTitle },
    { header: "Students", cell: (order) => <OrderStudents order={order} /> },
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
      header: "Method",
      cell: (order) => (
        <Badge variant="outline">{PAYMENT_METHOD_LABELS[order.paymentMethod]}</Badge>
      ),
    },
    {
      header: "Status",
      cell: (order) => (
        <div className="flex flex-wrap gap-1">
          <OrderStatusBadge status={order.status} />
          {order.spamReason ? <SuspectedSpamBadge reason={order.spamReason} /> : null}
        </div>
      ),
    },
    {
      header: "Date",
      className: "whitespace-nowrap text-muted-foreground",
      cell: (order) => formatDateTime(order.createdAt),
    },
    { header: "Actions", alignEnd: true, cell: (order) => <OrderStatusActions order={order} /> },
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
            value={formatPence(stats.revenueCents)}
            icon={PoundSterling}
            tone="success"
          />
        </section>
      }
      list={loaderData}
      filters={filters}
      parseFilters={parseOrderFilters}
      filtersQuery={orderFiltersQuery}
      filterLabel="Filter orders"
      filterClassName="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
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
            options={ORDER_STATUSES}
            labels={ORDER_STATUS_LABELS}
          />
          <FilterSelect
            name="method"
            label="Method"
            value={filters.method ?? ""}
            allValue=""
            options={PAYMENT_METHODS}
            labels={PAYMENT_METHOD_LABELS}
          />
        </>
      }
      tableLabel="Orders"
      columns={ORDER_COLUMNS}
      rowAttributes={(order) => ({ "data-order-id": order.id })}
      emptyText="No orders found."
      noun={["order", "orders"]}
    />
  );
}
