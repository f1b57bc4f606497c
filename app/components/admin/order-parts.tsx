import { useId, useState, type ComponentProps } from "react";
import { Ban, CheckCircle2, FileText, ShieldCheck, type LucideIcon } from "lucide-react";
import { useFetcher, useRevalidator } from "react-router";
import { ConfirmAction } from "#app/components/admin/confirm-action.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge, type BadgeVariant } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  ADMIN_ACTION_LABELS,
  CANCEL_REASON_MAX,
  ORDER_LIST_STATUS_LABELS,
  ORDER_RELEASED_MESSAGE,
  type AdminOrder,
  type OrderListStatus,
  type OrderStatus,
} from "#app/lib/orders/orders.ts";

/** The parts the Payments list and the order page share: status badge, students, actions. */

/** The status actions' answer: the order's new status, and whether it was a release. */
export type StatusAnswer = FormAnswer<{ status: OrderStatus; released?: boolean }>;

export { ORDER_RELEASED_MESSAGE };

const STATUS_BADGE: Record<OrderListStatus, BadgeVariant> = {
  pending: "warning",
  invoiced: "info",
  paid: "success",
  partly_refunded: "info",
  refunded: "muted",
  failed: "destructive",
  canceled: "muted",
};

/** The order's status as shown (a paid order with refunds: 'Partly refunded' or 'Refunded'). */
export function OrderStatusBadge({ status }: { status: OrderListStatus }) {
  return <Badge variant={STATUS_BADGE[status]}>{ORDER_LIST_STATUS_LABELS[status]}</Badge>;
}

export function buyerName(order: Pick<AdminOrder, "buyerFirstName" | "buyerLastName">): string {
  return `${order.buyerFirstName} ${order.buyerLastName}`;
}

/** '3 students' or 'Buyer attends': how many places, for a compact cell. */
export function attendeesSummary(order: AdminOrder): string {
  if (order.isBuyerStudent) return "Buyer attends";
  const n = order.students.length;
  return `${n} ${n === 1 ? "student" : "students"}`;
}

/** Who gets joining details when the order is paid: each student, or the buyer who attends. */
function joiningRecipients(order: AdminOrder) {
  return order.isBuyerStudent
    ? [{ name: buyerName(order), email: order.buyerEmail }]
    : order.students.map((s) => ({ name: `${s.firstName} ${s.lastName}`, email: s.email }));
}

/** "order NW-1A2B3C4D (Ada Lovelace, Analytical Engines Ltd)". */
function orderNamed(order: AdminOrder): string {
  const who = [buyerName(order), order.buyerCompany].filter(Boolean).join(", ");
  return `order ${order.reference} (${who})`;
}

/**
 * A small button that opens the question for one order's status change; its accessible name
 * names the order ('Mark Paid – Ada Lovelace's order NW-…').
 */
function OrderActionButton({
  order,
  action,
  icon: Icon,
  children,
  ...props
}: ComponentProps<typeof Button> & { order: AdminOrder; action: string; icon: LucideIcon }) {
  return (
    <Button
      type="button"
      size="sm"
      aria-label={`${action} – ${buyerName(order)}'s order ${order.reference}`}
      {...props}
    >
      <Icon aria-hidden />
      {children}
    </Button>
  );
}

function ConfirmMarkInvoiced({
  order,
  disabled,
  onConfirm,
}: {
  order: AdminOrder;
  disabled: boolean;
  onConfirm: () => void;
}) {
  const label = ADMIN_ACTION_LABELS.invoiced ?? "Mark Invoiced";
  return (
    <ConfirmAction
      trigger={
        <OrderActionButton order={order} action={label} icon={FileText} disabled={disabled}>
          {label}
        </OrderActionButton>
      }
      question={`Mark ${order.reference} as invoiced?`}
      detail={`The invoice PDF for ${orderNamed(order)}, ${formatPence(order.totalAmountCents)}, will be issued and e-mailed to the buyer at ${order.buyerEmail}. An issued invoice is final: its number cannot be reused.`}
      cancelLabel="Not Yet"
      confirmLabel="Issue and Send Invoice"
      onConfirm={onConfirm}
    />
  );
}

function ConfirmMarkPaid({
  order,
  disabled,
  onConfirm,
}: {
  order: AdminOrder;
  disabled: boolean;
  onConfirm: () => void;
}) {
  const label = ADMIN_ACTION_LABELS.paid ?? "Mark Paid";
  const recipients = joiningRecipients(order);
  return (
    <ConfirmAction
      trigger={
        <OrderActionButton order={order} action={label} icon={CheckCircle2} disabled={disabled}>
          {label}
        </OrderActionButton>
      }
      question={`Mark ${order.reference} as paid?`}
      detail={`This records the payment of ${formatPence(order.totalAmountCents)} for ${orderNamed(order)} and cannot be undone. A receipt will be e-mailed to the buyer at ${order.buyerEmail}, and joining details to each student:`}
      cancelLabel="Not Yet"
      confirmLabel="Mark Paid and Send"
      onConfirm={onConfirm}
    >
      <ul className="grid max-h-48 gap-1 overflow-y-auto rounded-md border border-border p-3 text-sm">
        {recipients.map((r, i) => (
          <li key={i} className="break-words">
            <span className="font-medium">{r.name}</span>{" "}
            <span className="text-muted-foreground">&lt;{r.email}&gt;</span>
          </li>
        ))}
      </ul>
    </ConfirmAction>
  );
}

/**
 * Cancelling is final (the state machine has no way back), so it asks first, why (the credit
 * note prints the reason), and whom to tell.
 */
function ConfirmCancel({
  order,
  disabled,
  onConfirm,
}: {
  order: AdminOrder;
  disabled: boolean;
  onConfirm: (choice: { notifyBuyer: boolean; reason: string }) => void;
}) {
  const [notify, setNotify] = useState(true);
  const [reason, setReason] = useState("");
  const checkboxId = useId();
  const reasonId = useId();
  return (
    <ConfirmAction
      trigger={
        <OrderActionButton
          order={order}
          action="Cancel"
          icon={Ban}
          variant="outline"
          disabled={disabled}
          // Each time the question opens, it starts afresh: no reason, the buyer told.
          onClick={() => {
            setNotify(true);
            setReason("");
          }}
        >
          {ADMIN_ACTION_LABELS.canceled ?? "Cancel"}
        </OrderActionButton>
      }
      question="Are you sure you want to cancel this order?"
      detail={`Cancelling ${orderNamed(order)} cannot be undone: a cancelled order cannot be reopened.`}
      cancelLabel="Keep Order"
      confirmLabel="Cancel Order"
      destructive
      confirmDisabled={reason.trim() === ""}
      onConfirm={() => onConfirm({ notifyBuyer: notify, reason: reason.trim() })}
    >
      <div className="grid gap-2">
        <Label htmlFor={reasonId}>Reason</Label>
        <Input
          id={reasonId}
          value={reason}
          required
          maxLength={CANCEL_REASON_MAX}
          aria-describedby={`${reasonId}-hint`}
          onChange={(event) => setReason(event.target.value)}
        />
        <p id={`${reasonId}-hint`} className="text-xs text-muted-foreground">
          Printed on the credit note if the order was invoiced, and kept on its timeline.
        </p>
      </div>
      <div className="flex items-start gap-3">
        <Checkbox
          id={checkboxId}
          checked={notify}
          onCheckedChange={(checked) => setNotify(checked === true)}
          className="mt-0.5"
        />
        <div className="grid gap-1">
          <Label htmlFor={checkboxId}>Notify the buyer by e-mail</Label>
          <p className="text-xs text-muted-foreground">
            Sends {order.buyerEmail} an e-mail saying the order was cancelled.
          </p>
        </div>
      </div>
    </ConfirmAction>
  );
}

/**
 * An order's actions: 'Release' for a held order, then what the state machine allows, each
 * asking first. A change refused because the order had moved on (409) reloads the page's data,
 * so the row shows its real status, and the toast says what happened.
 */
export function OrderStatusActions({
  order,
  className = "flex flex-wrap gap-2 md:justify-end",
}: {
  order: AdminOrder;
  className?: string;
}) {
  const fetcher = useFetcher<StatusAnswer>();
  const revalidator = useRevalidator();
  const busy = fetcher.state !== "idle";
  useFormAnswer(fetcher, {
    successToast: (answer) =>
      answer.released
        ? { title: "Success", description: ORDER_RELEASED_MESSAGE }
        : { title: "Status Updated", description: `Order status changed to ${answer.status}` },
    onFailure: (answer) => {
      // A refused answer does not reload the page's data by itself (4xx): do it, to show the truth.
      if (answer.reason === "conflict" || answer.reason === "not_found") {
        void revalidator.revalidate();
      }
    },
  });

  if (order.actions.length === 0 && !order.spamReason) {
    return <span className="text-muted-foreground">—</span>;
  }
  const submit = (status: OrderStatus, extra: Record<string, string> = {}) =>
    fetcher.submit({ intent: "status", orderId: order.id, status, ...extra }, { method: "post" });
  return (
    <div className={className}>
      {order.spamReason ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          aria-label={`Release ${buyerName(order)}'s order ${order.reference}`}
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
        to === "invoiced" ? (
          <ConfirmMarkInvoiced
            key={to}
            order={order}
            disabled={busy}
            onConfirm={() => submit("invoiced")}
          />
        ) : to === "paid" ? (
          <ConfirmMarkPaid
            key={to}
            order={order}
            disabled={busy}
            onConfirm={() => submit("paid")}
          />
        ) : to === "canceled" ? (
          <ConfirmCancel
            key={to}
            order={order}
            disabled={busy}
            onConfirm={({ notifyBuyer, reason }) =>
              submit("canceled", { notifyBuyer: notifyBuyer ? "on" : "", reason })
            }
          />
        ) : null,
      )}
    </div>
  );
}
