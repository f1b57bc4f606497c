import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { invoiceReminderIntents } from "#server/forms/order-actions.server.ts";
import { debtorsScreen } from "#server/invoices/debtors.server.ts";
import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { DebtBuckets, DebtsTable } from "#app/components/admin/debtors/debts-table.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import { reminderDaysText } from "#app/lib/orders/debtors.ts";
import type { Route } from "./+types/debtors";

/**
 * Who owes what (docs/decisions/0040-who-owes-what.md): every invoiced order not yet paid, aged
 * by UK days past its due date, with the reminders its buyer was sent; staff pause or resume an
 * order's reminders here.
 */
export async function loader() {
  return debtorsScreen();
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "debtors", failureMessage: "Failed to change the reminders" },
    invoiceReminderIntents(admin),
  );
}

export const meta: Route.MetaFunction = () => adminMeta("Who Owes What");

export default function Debtors({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as FormAnswer | undefined;
  return (
    <div>
      <AdminPageHeader
        title="Who Owes What"
        description={`Invoiced orders not yet paid, by how long overdue (UK days). ${reminderDaysText(loaderData.reminderDays)}`}
      />
      {answer?.message ? (
        // Without JavaScript the answer is shown here (with it, as a toast).
        <p role="status" className="mb-4 rounded-md border border-border bg-card p-3 text-sm">
          {answer.message}
        </p>
      ) : null}
      <DebtBuckets screen={loaderData} />
      <DebtsTable debts={loaderData.items} />
    </div>
  );
}
