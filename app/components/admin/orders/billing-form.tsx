import { useRef } from "react";
import { Pencil } from "lucide-react";
import { useCatalogueForm } from "#app/components/admin/catalogue/catalogue-page.tsx";
import { TextField } from "#app/components/forms/fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { FormAnswer } from "#app/lib/forms.ts";
import type { BillingDetails } from "#app/lib/orders/orders.ts";
import {
  BILLING_FIELDS as F,
  BILLING_INTENT,
  billingFormSchema,
  REISSUE_CONFIRM_FIELD,
  REISSUE_FIELD,
} from "#app/lib/orders/billing-form.ts";

/** One input of the form: which detail, how it is labelled, and whether an invoice needs it. */
interface BillingInput {
  key: keyof BillingDetails;
  label: string;
  maxLength: number;
  /** Required when the order is paid by invoice (an invoice must carry an address). */
  forInvoice?: boolean;
  hint?: string;
  autoComplete?: string;
}

/** The form's inputs, in the order it shows them. */
const BILLING_INPUTS: readonly BillingInput[] = [
  { key: "organisation", label: "Organisation", maxLength: 200, autoComplete: "organization" },
  { key: "poNumber", label: "PO number", maxLength: 100 },
  { key: "addressLine1", label: "Address line 1", maxLength: 200, forInvoice: true },
  { key: "addressLine2", label: "Address line 2", maxLength: 200 },
  { key: "town", label: "Town or city", maxLength: 100, forInvoice: true },
  { key: "postcode", label: "Postcode", maxLength: 20, forInvoice: true },
  { key: "country", label: "Country", maxLength: 100, hint: "Empty: United Kingdom" },
  { key: "vatNumber", label: "Buyer VAT number", maxLength: 30 },
];

/**
 * "Edit billing details" on the order page, until the invoice is issued, or "Correct and re-issue
 * invoice" after (`reissues`: the unpaid invoice to credit): a disclosure (it opens without
 * JavaScript too) holding the organisation, address, PO number and VAT number as stored. The
 * order's payment method decides whether the address is required; a re-issue must be confirmed.
 * The server checks everything again, and that the order may still be corrected that way.
 */
export function BillingForm({
  stored,
  reissues,
  paymentMethod,
  pageAnswer,
}: {
  stored: BillingDetails;
  reissues: string | null;
  paymentMethod: "invoice" | "stripe";
  /** A refused post's answer without JavaScript: the disclosure opens on its messages. */
  pageAnswer?: FormAnswer;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  const form = useCatalogueForm({
    schema: billingFormSchema(paymentMethod),
    onSaved: () => {
      if (details.current) details.current.open = false;
    },
    pageAnswer: pageAnswer?.form === BILLING_INTENT ? pageAnswer : undefined,
  });
  const { fetcher, saving, initial } = form;
  const invoice = paymentMethod === "invoice";
  const saved = pageAnswer?.ok === true && pageAnswer.form === BILLING_INTENT;
  const confirm = form.field(REISSUE_CONFIRM_FIELD);
  const confirmError = form.errors[REISSUE_CONFIRM_FIELD];
  return (
    <>
      {saved && pageAnswer.message ? (
        <p role="status" className="mt-4 text-sm">
          {pageAnswer.message}
        </p>
      ) : null}
      <details
        ref={details}
        open={Boolean(form.failed)}
        className="mt-4 rounded-md border border-border"
      >
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
          <Pencil aria-hidden className="mr-2 inline size-4" />
          {reissues ? "Correct and re-issue invoice" : "Edit billing details"}
        </summary>
        <fetcher.Form
          ref={form.formRef}
          method="post"
          noValidate
          onSubmit={form.onSubmit}
          className="grid gap-4 border-t border-border p-3"
          aria-label="Billing details"
        >
          <input type="hidden" name="intent" value={BILLING_INTENT} />
          {reissues ? <input type="hidden" name={REISSUE_FIELD} value="1" /> : null}
          <p className="text-xs text-muted-foreground">
            {reissues
              ? `Invoice ${reissues} is never edited: saving credits it in full with a credit note and issues a corrected invoice with these details, and e-mails both to the buyer.`
              : invoice
                ? "The invoice will print these. Once it is issued, they are corrected by crediting it and issuing a corrected one."
                : "The invoice will print these. Once it is issued they can no longer be changed here."}
          </p>
          {form.failed?.message ? (
            <p role="alert" className="text-sm text-destructive">
              {form.failed.message}
            </p>
          ) : null}
          <fieldset disabled={saving} className="grid min-w-0 gap-4 sm:grid-cols-2">
            {BILLING_INPUTS.map(({ key, forInvoice, ...input }) => (
              <TextField
                key={key}
                form={form}
                name={F[key]}
                required={Boolean(forInvoice) && invoice}
                {...input}
                defaultValue={initial(F[key], stored[key])}
              />
            ))}
          </fieldset>
          {reissues ? (
            <div className="grid gap-2">
              <div className="flex items-start gap-3 text-sm">
                <input
                  type="checkbox"
                  id={confirm.id}
                  name={REISSUE_CONFIRM_FIELD}
                  aria-required
                  aria-invalid={confirm["aria-invalid"]}
                  aria-describedby={confirm["aria-describedby"]}
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                />
                <label htmlFor={confirm.id}>
                  Credit invoice {reissues} and send the buyer the credit note and a corrected
                  invoice
                </label>
              </div>
              {confirmError ? (
                <p id={`${confirm.id}-error`} role="alert" className="text-sm text-destructive">
                  {confirmError}
                </p>
              ) : null}
            </div>
          ) : null}
          <div>
            <Button type="submit" size="sm" disabled={saving}>
              {saving ? "Saving..." : reissues ? "Correct and re-issue" : "Save billing details"}
            </Button>
          </div>
        </fetcher.Form>
      </details>
    </>
  );
}
