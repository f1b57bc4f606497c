import { Form, useNavigation } from "react-router";
import { Section } from "#app/components/admin/orders/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { Notice } from "#app/components/ui/notice.tsx";
import { NativeSelect, SelectOptions } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  QUOTE_MAX_LINES,
  QUOTE_SPARE_LINES,
  QUOTE_SUPPLIES,
  QUOTE_SUPPLY_LABELS,
  type QuoteEditorValues,
} from "#app/lib/quotes/quotes.ts";

/**
 * The quote editor (decision 0049): customer, lines, validity and terms. A plain form: the
 * filled lines and a few empty rows below them, so a line is added without JavaScript (save, and
 * more empty rows come back). A refused save shows its messages and keeps what was typed.
 */

function Field({
  name,
  label,
  value,
  error,
  type = "text",
  autoComplete,
}: {
  name: string;
  label: string;
  value: string;
  error?: string;
  type?: string;
  autoComplete?: string;
}) {
  const id = `quote-${name.replace(/[^a-zA-Z0-9]/g, "-")}`;
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete ?? "off"}
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function QuoteEditor({
  values,
  answer,
  submitLabel,
}: {
  values: QuoteEditorValues;
  answer?: FormAnswer;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = answer && !answer.ok && answer.form === "save" ? answer : null;
  const errors = failed?.fieldErrors ?? {};
  const typed = failed?.values;
  const value = (name: keyof QuoteEditorValues) =>
    typed?.[name] ?? (values[name] as string | null) ?? "";
  const lineCount = Math.min(QUOTE_MAX_LINES, values.lines.length + QUOTE_SPARE_LINES);
  const line = (i: number, field: "description" | "quantity" | "unitPrice") =>
    typed?.[`lines[${i}].${field}`] ?? values.lines[i]?.[field] ?? "";
  return (
    <Form method="post" className="grid gap-6" aria-label="Quote" noValidate>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="inquiryId" value={values.inquiryId ?? ""} />
      {failed?.message ? <Notice tone="error">{failed.message}</Notice> : null}
      <Section title="Customer">
        <div className="grid gap-3 md:grid-cols-2">
          <Field
            name="organisation"
            label="Organisation"
            value={value("organisation")}
            error={errors.organisation}
          />
          <Field
            name="contactName"
            label="Contact name"
            value={value("contactName")}
            error={errors.contactName}
          />
          <Field
            name="contactEmail"
            label="Contact e-mail"
            type="email"
            value={value("contactEmail")}
            error={errors.contactEmail}
          />
          <Field
            name="vatNumber"
            label="VAT or business tax number"
            value={value("vatNumber")}
            error={errors.vatNumber}
          />
          <Field
            name="addressLine1"
            label="Address line 1"
            value={value("addressLine1")}
            error={errors.addressLine1}
          />
          <Field
            name="addressLine2"
            label="Address line 2"
            value={value("addressLine2")}
            error={errors.addressLine2}
          />
          <Field name="town" label="Town or city" value={value("town")} error={errors.town} />
          <Field
            name="postcode"
            label="Postcode"
            value={value("postcode")}
            error={errors.postcode}
          />
          <Field name="country" label="Country" value={value("country")} error={errors.country} />
        </div>
      </Section>
      <Section title="Lines">
        <p className="mb-3 text-sm text-muted-foreground">
          Prices exclude VAT, which is worked out from what is supplied and the customer's country
          and VAT number. Empty rows are left out; save to get more.
        </p>
        <div className="mb-4 grid gap-1 md:max-w-md">
          <Label htmlFor="quote-supply">What it supplies (for VAT)</Label>
          <NativeSelect id="quote-supply" name="supply" defaultValue={value("supply")}>
            <SelectOptions values={QUOTE_SUPPLIES} labels={QUOTE_SUPPLY_LABELS} />
          </NativeSelect>
        </div>
        <ol className="grid gap-4" aria-label="Quote lines">
          {Array.from({ length: lineCount }, (_, i) => (
            <li key={i} className="grid gap-2 md:grid-cols-[minmax(0,1fr)_7rem_9rem]">
              <Field
                name={`lines[${i}].description`}
                label={`Line ${i + 1}: description`}
                value={line(i, "description")}
                error={errors[`lines[${i}].description`]}
              />
              <Field
                name={`lines[${i}].quantity`}
                label="Quantity"
                value={line(i, "quantity")}
                error={errors[`lines[${i}].quantity`]}
              />
              <Field
                name={`lines[${i}].unitPrice`}
                label="Unit price (£)"
                value={line(i, "unitPrice")}
                error={errors[`lines[${i}].unitPrice`]}
              />
            </li>
          ))}
        </ol>
      </Section>
      <Section title="File Interrogator licences">
        <p className="mb-3 text-sm text-muted-foreground">
          When this quote sells licences, say how many: accepting it puts them on the licence
          register for a year from the start day (or the day it is accepted).
        </p>
        <div className="grid gap-3 md:grid-cols-2">
          <Field
            name="licenceSeats"
            label="Licences (seats)"
            value={value("licenceSeats")}
            error={errors.licenceSeats}
          />
          <Field
            name="licenceStartsOn"
            label="Licences start on"
            type="date"
            value={value("licenceStartsOn")}
            error={errors.licenceStartsOn}
          />
        </div>
      </Section>
      <Section title="Validity and terms">
        <div className="grid gap-3">
          <div className="md:max-w-xs">
            <Field
              name="validUntil"
              label="Valid until"
              type="date"
              value={value("validUntil")}
              error={errors.validUntil}
            />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="quote-terms">Terms</Label>
            <Textarea
              id="quote-terms"
              name="terms"
              rows={6}
              maxLength={5000}
              defaultValue={value("terms")}
              aria-invalid={errors.terms ? true : undefined}
              aria-describedby={errors.terms ? "quote-terms-error" : undefined}
            />
            {errors.terms ? (
              <p id="quote-terms-error" role="alert" className="text-sm text-destructive">
                {errors.terms}
              </p>
            ) : null}
          </div>
        </div>
      </Section>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving..." : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
