import { Ban, CheckCircle2, ShieldCheck } from "lucide-react";
import { useFetcher } from "react-router";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  ADMIN_ACTION_LABELS,
  ORDER_STATUS_LABELS,
  type AdminOrder,
  type OrderStatus,
} from "#app/lib/orders.ts";

/** The Payments screen's parts: an order's status badge, its students, and its actions. */

/** The status actions' answer: the order's new status, and whether it was a release. */
export type StatusAnswer = FormAnswer<{ status: OrderStatus; released?: boolean }>;

export const ORDER_RELEASED_MESSAGE = "Order released: its e-mails are on their way";

const STATUS_BADGE: Record<OrderStatus, BadgeVariant> = {
  pending: "warning",
  invoiced: "info",
  paid: "success",
  failed: "destructive",
  canceled: "muted",
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <Badge variant={STATUS_BADGE[status]}>{ORDER_STATUS_LABELS[status]}</Badge>;
}

export function OrderStudents({ order }: { order: AdminOrder }) {
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
    <ConfirmAction
      trigger={
        <Button type="button" size="sm" variant="outline" disabled={disabled} aria-label={label}>
          <Ban aria-hidden />
          {ADMIN_ACTION_LABELS.canceled ?? "Cancel"}
        </Button>
      }
      question="Are you sure you want to cancel this order?"
      detail="A canceled order cannot be reopened. The buyer is not notified automatically."
      cancelLabel="Keep Order"
      confirmLabel="Cancel Order"
      destructive
      onConfirm={onConfirm}
    />
  );
}

export function OrderStatusActions({ order }: { order: AdminOrder }) {
  const fetcher = useFetcher<StatusAnswer>();
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    successToast: (answer) =>
      answer.released
        ? { title: "Success", description: ORDER_RELEASED_MESSAGE }
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
