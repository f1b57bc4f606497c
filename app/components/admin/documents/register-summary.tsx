import { StatCard } from "#app/components/admin/admin-ui.tsx";
import { Card } from "#app/components/ui/card.tsx";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { formatPence } from "#app/lib/format.ts";
import { monthLabel, type RegisterMonth, type RegisterSums } from "#app/lib/orders/register.ts";

/**
 * The register's sums: what the range came to (invoices and receipts less credit notes), then
 * the same by the London month the documents were issued in, with the range's total under it.
 */
export function RegisterSummary({
  totals,
  months,
}: {
  totals: RegisterSums;
  months: RegisterMonth[];
}) {
  return (
    <section aria-label="Document totals" className="mb-6 grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          label="Invoiced"
          value={formatPence(totals.invoices.totalCents)}
          hint={`${totals.invoices.count} ${totals.invoices.count === 1 ? "invoice" : "invoices"}`}
        />
        <StatCard
          label="Receipted"
          value={formatPence(totals.receipts.totalCents)}
          hint={`${totals.receipts.count} ${totals.receipts.count === 1 ? "receipt" : "receipts"} of card payments`}
        />
        <StatCard
          label="Credited"
          value={formatPence(totals.credits.totalCents)}
          tone="warning"
          hint={`${totals.credits.count} ${totals.credits.count === 1 ? "credit note" : "credit notes"}`}
        />
        <StatCard
          label="Net of credits"
          value={formatPence(totals.net.totalCents)}
          tone="success"
          hint={`${formatPence(totals.net.netCents)} net + ${formatPence(totals.net.vatCents)} VAT`}
        />
      </div>
      {months.length > 0 ? (
        <Card className="overflow-x-auto p-0">
          <Table aria-label="By month">
            <TableHeader>
              <TableRow>
                <TableHead>Month</TableHead>
                <TableHead className="text-right">Invoices</TableHead>
                <TableHead className="text-right">Receipts</TableHead>
                <TableHead className="text-right">Credit notes</TableHead>
                <TableHead className="text-right">Net</TableHead>
                <TableHead className="text-right">VAT</TableHead>
                <TableHead className="text-right">Total</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {months.map((month) => (
                <SumsRow key={month.month} label={monthLabel(month.month)} sums={month} />
              ))}
            </TableBody>
            <tfoot className="border-t border-border bg-muted/40">
              <SumsRow label="Range" sums={totals} />
            </tfoot>
          </Table>
        </Card>
      ) : null}
    </section>
  );
}

function SumsRow({ label, sums }: { label: string; sums: RegisterSums }) {
  const cell = "text-right whitespace-nowrap tabular-nums";
  return (
    <TableRow>
      <TableHead scope="row" className="font-medium">
        {label}
      </TableHead>
      <TableCell className={cell}>{formatPence(sums.invoices.totalCents)}</TableCell>
      <TableCell className={cell}>{formatPence(sums.receipts.totalCents)}</TableCell>
      <TableCell className={cell}>−{formatPence(sums.credits.totalCents)}</TableCell>
      <TableCell className={cell}>{formatPence(sums.net.netCents)}</TableCell>
      <TableCell className={cell}>{formatPence(sums.net.vatCents)}</TableCell>
      <TableCell className={`${cell} font-medium`}>{formatPence(sums.net.totalCents)}</TableCell>
    </TableRow>
  );
}
