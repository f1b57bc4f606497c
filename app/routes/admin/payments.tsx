import {
  Ban,
  CheckCircle2,
  Clock,
  Download,
  FileText,
  PoundSterling,
  RefreshCw,
  Search,
  ShieldCheck,
  ShoppingCart,
} from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useFetcher, useLocation, useRevalidator, useSubmit } from "react-router";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";
import { requireAdmin } from "#server/auth.server.ts";
import { log } from "#server/log.server.ts";
import {
  changeOrderStatusByAdmin,
  listOrders,
  orderStats,
  releaseOrder,
} from "#server/orders/admin.server.ts";
import { AdminPageHeader, Pagination, StatCard } from "#app/components/admin/admin-ui.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { SuspectedSpamBadge } from "#app/components/admin/suspected-spam.tsx";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
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
import { adminMeta } from "#app/lib/admin-nav.ts";
import { formatDateTime } from "#app/lib/admin-time.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure, parseForm, type FormAnswer } from "#app/lib/forms.ts";
import {
  ADMIN_ACTION_LABELS,
  ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  ORDERS_PAGE_SIZE,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  orderFiltersQuery,
  orderReleaseFormSchema,
  orderStatusFormSchema,
  parseOrderFilters,
  type AdminOrder,
  type OrderStats,
  type OrderStatus,
} from "#app/lib/orders.ts";
import { toast } from "#app/lib/toast.ts";
import type { Route } from "./+types/payments";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const filters = parseOrderFilters(new URL(request.url).searchParams);
  try {
    const [list, stats] = await Promise.all([listOrders(filters), orderStats()]);
    return { filters, ...list, stats, loadError: false };
  } catch (error) {
    log.error({ err: error }, "admin payments: could not load orders");
    const stats: OrderStats = {
      total: 0,
      pending: 0,
      invoiced: 0,
      paid: 0,
      failed: 0,
      canceled: 0,
      revenueCents: 0,
    };
    return {
      filters,
      orders: [] as AdminOrder[],
      matching: 0,
      page: 1,
      pageCount: 1,
      pageSize: ORDERS_PAGE_SIZE,
      stats,
      loadError: true,
    };
  }
}

type StatusAnswer = FormAnswer<{ status: OrderStatus; released?: boolean }>;

const RELEASED_MESSAGE = "Order released: its e-mails are on their way";

/**
 * 'Mark Invoiced', 'Mark Paid', 'Cancel': only what the order state machine allows. 'Release'
 * on an order held as suspected spam: clears the mark and sends the invoice request's e-mails.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return adminFormAction(
    request,
    { name: "payments", failureMessage: "Failed to update order status" },
    {
      status: async (form, refuse) => {
        const parsed = parseForm(form, orderStatusFormSchema);
        if (!parsed.ok) return refuse(400);
        const result = await changeOrderStatusByAdmin(parsed.value.orderId, parsed.value.status);
        if (!result.ok) return refuse(result.reason === "not_found" ? 404 : 409);
        return success("status", undefined, { status: result.order.status, released: false });
      },
      release: async (form, refuse) => {
        const parsed = parseForm(form, orderReleaseFormSchema);
        if (!parsed.ok) return refuse(400, "Failed to release order");
        const released = await releaseOrder(parsed.value.orderId);
        if (!released) return refuse(404, "Failed to release order");
        return success("release", RELEASED_MESSAGE, { status: released.status, released: true });
      },
    },
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = () => adminMeta("Payments");

const STATUS_BADGE: Record<OrderStatus, BadgeVariant> = {
  pending: "warning",
  invoiced: "info",
  paid: "success",
  failed: "destructive",
  canceled: "muted",
};

function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge variant={STATUS_BADGE[status]}>{ORDER_STATUS_LABELS[status]}</Badge>;
}

function Students({ order }: { order: AdminOrder }) {
  if (order.isBuyerStudent) return <span className="text-muted-foreground">Buyer attends</span>;
  return (
    // <details> opens and closes without JavaScript.
    <details className="group">
      <summary className="cursor-pointer text-sm whitespace-nowrap text-primary underline-offset-4 hover:underline">
        {order.students.length} {order.students.length === 1 ? "student" : "students"}
      </summary>
      <ul className="mt-2 grid gap-1 text-xs">
        {order.students.map((s, i) => (
          <li key={i}>
            <span className="font-medium">
              {s.firstName} {s.lastName}
            </span>
            <span className="block text-muted-foreground">{s.email}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Cancelling is final (the state machine has no way back), so it asks first. */
function ConfirmCancel({
  label,
  disabled,
  onConfirm,
}: {
  label: string;
  disabled: boolean;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" size="sm" variant="outline" disabled={disabled} aria-label={label}>
          <Ban aria-hidden />
          {ADMIN_ACTION_LABELS.canceled ?? "Cancel"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure you want to cancel this order?</AlertDialogTitle>
          <AlertDialogDescription>
            A canceled order cannot be reopened. The buyer is not notified automatically.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Keep Order</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={onConfirm}>
            Cancel Order
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function StatusActions({ order }: { order: AdminOrder }) {
  const fetcher = useFetcher<StatusAnswer>();
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    successToast: (answer) =>
      answer.released
        ? { title: "Success", description: RELEASED_MESSAGE }
        : { title: "Status Updated", description: `Order status changed to ${answer.status}` },
  });

  if (order.actions.length === 0 && !order.spamReason) {
    return <span className="text-muted-foreground">—</span>;
  }
  const who = `${order.buyerFirstName} ${order.buyerLastName}`;
  return (
    <fetcher.Form method="post" className="flex flex-wrap justify-end gap-2">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={order.id} />
      {order.spamReason ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          aria-label={`Release ${who}'s order ${order.reference}`}
          title="Not spam: release it (sends the held e-mails)"
          onClick={() =>
            fetcher.submit({ intent: "release", orderId: order.id }, { method: "post" })
          }
        >
          <ShieldCheck aria-hidden />
          Release
        </Button>
      ) : null}
      {order.actions.map((to) =>
        to === "canceled" ? (
          <ConfirmCancel
            key={to}
            disabled={busy}
            label={`Cancel – ${who}'s order ${order.reference}`}
            onConfirm={() =>
              fetcher.submit(
                { intent: "status", orderId: order.id, status: "canceled" },
                { method: "post" },
              )
            }
          />
        ) : (
          <Button
            key={to}
            type="submit"
            name="status"
            value={to}
            size="sm"
            disabled={busy}
            aria-label={`${ADMIN_ACTION_LABELS[to] ?? to} – ${who}'s order ${order.reference}`}
          >
            <CheckCircle2 aria-hidden />
            {ADMIN_ACTION_LABELS[to] ?? to}
          </Button>
        ),
      )}
    </fetcher.Form>
  );
}

export default function Payments({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, orders, matching, page, pageCount, stats, loadError } = loaderData;
  const revalidator = useRevalidator();
  const submit = useSubmit();
  const location = useLocation();
  const refreshing = revalidator.state !== "idle";

  useEffect(() => {
    if (loadError) {
      toast({ title: "Error", description: "Failed to load orders", variant: "destructive" });
    }
  }, [loaderData, loadError]);

  const exportHref = `/admin/payments/export${orderFiltersQuery({ ...filters, page: 1 })}`;
  const filtered = Boolean(filters.search || filters.status || filters.method);

  return (
    <>
      <AdminPageHeader
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
      />

      {/* Without JavaScript the action's answer is shown here (with it, as a toast). */}
      {actionData ? (
        <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          {actionData.ok
            ? actionData.released
              ? RELEASED_MESSAGE
              : `Status Updated: Order status changed to ${actionData.status}`
            : actionData.message}{" "}
          <Link to={`${location.pathname}${location.search}`} className="text-primary underline">
            Dismiss
          </Link>
        </p>
      ) : null}

      <section aria-label="Order summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <StatCard
          label="Total Orders"
          value={stats.total.toLocaleString("en-GB")}
          icon={ShoppingCart}
        />
        <StatCard
          label="Pending"
          value={stats.pending.toLocaleString("en-GB")}
          icon={Clock}
          tone="warning"
        />
        <StatCard
          label="Invoiced"
          value={stats.invoiced.toLocaleString("en-GB")}
          icon={FileText}
          tone="info"
        />
        <StatCard
          label="Paid"
          value={stats.paid.toLocaleString("en-GB")}
          icon={CheckCircle2}
          tone="success"
        />
        <StatCard
          label="Revenue"
          value={formatPence(stats.revenueCents)}
          icon={PoundSterling}
          tone="success"
        />
      </section>

      <Card className="mt-6 p-4">
        <Form
          method="get"
          role="search"
          aria-label="Filter orders"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end"
          onChange={(event) => {
            // Selects apply at once; the search box waits for Enter or the button.
            if (event.target instanceof HTMLSelectElement) submit(event.currentTarget);
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="orders-q">Search</Label>
            <Input
              id="orders-q"
              name="q"
              type="search"
              defaultValue={filters.search}
              key={`q-${filters.search}`}
              placeholder="Search by name, email, course, or company..."
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="orders-status">Status</Label>
            <NativeSelect
              id="orders-status"
              name="status"
              defaultValue={filters.status ?? ""}
              key={`s-${filters.status}`}
            >
              <option value="">All</option>
              {ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {ORDER_STATUS_LABELS[status]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="orders-method">Method</Label>
            <NativeSelect
              id="orders-method"
              name="method"
              defaultValue={filters.method ?? ""}
              key={`m-${filters.method}`}
            >
              <option value="">All</option>
              {PAYMENT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {PAYMENT_METHOD_LABELS[method]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button type="submit" variant="secondary">
            <Search aria-hidden />
            Apply
          </Button>
        </Form>
      </Card>

      <Card className="mt-6">
        {orders.length === 0 ? (
          <p className="p-8 text-center text-muted-foreground">
            No orders found.
            {filtered ? (
              <>
                {" "}
                <Link to="/admin/payments" className="text-primary underline underline-offset-4">
                  Clear the filters
                </Link>
              </>
            ) : null}
          </p>
        ) : (
          <Table aria-label="Orders">
            <TableHeader>
              <TableRow>
                <TableHead>Customer</TableHead>
                <TableHead>Course</TableHead>
                <TableHead>Students</TableHead>
                <TableHead>Amount</TableHead>
                <TableHead>Method</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Date</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {orders.map((order) => (
                <TableRow key={order.id} data-order-id={order.id}>
                  <TableCell className="align-top">
                    <div className="font-medium">
                      {order.buyerFirstName} {order.buyerLastName}
                    </div>
                    <div className="text-xs text-muted-foreground">{order.buyerEmail}</div>
                    {order.buyerCompany ? (
                      <div className="text-xs text-muted-foreground">{order.buyerCompany}</div>
                    ) : null}
                    <div className="font-mono text-xs text-muted-foreground">{order.reference}</div>
                  </TableCell>
                  <TableCell className="align-top">{order.courseTitle}</TableCell>
                  <TableCell className="align-top">
                    <Students order={order} />
                  </TableCell>
                  <TableCell className="align-top whitespace-nowrap">
                    <div className="font-medium tabular-nums">
                      {formatPence(order.totalAmountCents)}
                    </div>
                    <div className="text-xs text-muted-foreground">
                      {order.quantity} × {formatPence(order.unitPriceCents)}
                    </div>
                  </TableCell>
                  <TableCell className="align-top">
                    <Badge variant="outline">{PAYMENT_METHOD_LABELS[order.paymentMethod]}</Badge>
                  </TableCell>
                  <TableCell className="align-top">
                    <div className="flex flex-wrap gap-1">
                      <OrderStatusBadge status={order.status} />
                      {order.spamReason ? <SuspectedSpamBadge reason={order.spamReason} /> : null}
                    </div>
                  </TableCell>
                  <TableCell className="align-top whitespace-nowrap text-muted-foreground">
                    {formatDateTime(order.createdAt)}
                  </TableCell>
                  <TableCell className="align-top text-right">
                    <StatusActions order={order} />
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
        total={matching}
        noun={["order", "orders"]}
        hrefFor={(p) => `/admin/payments${orderFiltersQuery({ ...filters, page: p })}`}
      />
    </>
  );
}
