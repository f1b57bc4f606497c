import { useFetcher } from "react-router";
import { StatCard } from "#app/components/admin/admin-ui.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { formatDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  DEBT_BUCKETS,
  DEBT_BUCKET_LABELS,
  type Debt,
  type DebtorsScreen,
} from "#app/lib/orders/debtors.ts";
import { orderPageHref } from "#app/lib/orders/orders.ts";

/** The sums by age: one card per bucket, then the total owed. */
export function DebtBuckets({ screen }: { screen: DebtorsScreen }) {
  return (
    <section aria-label="Owed by age" className="mb-6 grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
      {DEBT_BUCKETS.map((bucket) => (
        <StatCard
          key={bucket}
          label={DEBT_BUCKET_LABELS[bucket]}
          value={formatPence(screen.buckets[bucket].owedCents)}
          tone={bucket === "not_due" ? "muted" : "warning"}
          hint={`${screen.buckets[bucket].count} ${screen.buckets[bucket].count === 1 ? "invoice" : "invoices"}`}
        />
      ))}
      <StatCard
        label="Total owed"
        value={formatPence(screen.total.owedCents)}
        tone="info"
        hint={`${screen.total.count} ${screen.total.count === 1 ? "invoice" : "invoices"}`}
      />
    </section>
  );
}

function dueText(debt: Debt): string {
  if (debt.daysOverdue > 0) {
    return `${debt.daysOverdue} ${debt.daysOverdue === 1 ? "day" : "days"} overdue`;
  }
  if (debt.daysOverdue === 0) return "Due today";
  const left = -debt.daysOverdue;
  return `Due in ${left} ${left === 1 ? "day" : "days"}`;
}

function reminderText(daysAfterDue: number): string {
  return daysAfterDue === 0 ? "On the due date" : `${daysAfterDue} days after`;
}

/** Pause or resume one order's reminders: a form that works before the page's scripts run. */
function PauseReminders({ debt }: { debt: Debt }) {
  const fetcher = useFetcher<FormAnswer>({ key: `reminders-${debt.orderId}` });
  useFormAnswer(fetcher);
  const paused = debt.pausedAt !== null;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="reminders" />
      <input type="hidden" name="orderId" value={debt.orderId} />
      <input type="hidden" name="paused" value={paused ? "" : "on"} />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        {paused ? "Resume reminders" : "Pause reminders"}
        <span className="sr-only"> for {debt.orderReference}</span>
      </Button>
    </fetcher.Form>
  );
}

/** Every unpaid invoice, most overdue first. */
export function DebtsTable({ debts }: { debts: Debt[] }) {
  if (debts.length === 0) {
    return (
      <Card className="p-6 text-center text-muted-foreground">
        No unpaid invoices: nobody owes anything.
      </Card>
    );
  }
  return (
    <Card className="overflow-x-auto p-0">
      <Table aria-label="Unpaid invoices">
        <TableHeader>
          <TableRow>
            <TableHead>Invoice</TableHead>
            <TableHead>Customer</TableHead>
            <TableHead>Due</TableHead>
            <TableHead className="text-right">Owed</TableHead>
            <TableHead>Reminders</TableHead>
            <TableHead className="text-right">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {debts.map((debt) => (
            <TableRow key={debt.orderId} data-order-id={debt.orderId} className="align-top">
              <TableCell className="whitespace-nowrap">
                <a
                  href={debt.invoiceHref}
                  download
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {debt.invoiceNumber}
                </a>
                <div className="text-xs text-muted-foreground">
                  Issued {formatDate(debt.issuedAt)}
                </div>
                <a
                  href={orderPageHref(debt.orderId)}
                  className="font-mono text-xs text-primary underline-offset-4 hover:underline"
                >
                  {debt.orderReference}
                </a>
              </TableCell>
              <TableCell className="break-words">
                <div className="font-medium">{debt.organisation ?? debt.customer}</div>
                {debt.organisation ? (
                  <div className="text-xs text-muted-foreground">{debt.customer}</div>
                ) : null}
                <div className="text-xs [overflow-wrap:anywhere] text-muted-foreground">
                  {debt.email}
                </div>
              </TableCell>
              <TableCell className="whitespace-nowrap">
                <div>{formatDate(debt.dueDate)}</div>
                <div
                  className={
                    debt.daysOverdue > 0 ? "text-xs text-warning" : "text-xs text-muted-foreground"
                  }
                >
                  {dueText(debt)}
                </div>
              </TableCell>
              <TableCell className="text-right font-medium whitespace-nowrap tabular-nums">
                {formatPence(debt.owedCents)}
              </TableCell>
              <TableCell className="text-xs">
                {debt.pausedAt ? <Badge variant="secondary">Paused</Badge> : null}
                {debt.reminders.length === 0 ? (
                  <div className="text-muted-foreground">None sent yet</div>
                ) : (
                  <ul>
                    {debt.reminders.map((r) => (
                      <li key={r.daysAfterDue}>
                        {reminderText(r.daysAfterDue)}: sent {formatDate(r.sentAt)}
                      </li>
                    ))}
                  </ul>
                )}
              </TableCell>
              <TableCell className="text-right">
                <PauseReminders debt={debt} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
