import { controlProps, Field, fieldOf } from "#app/components/forms/fields.tsx";
import { useFormActionTo } from "#app/components/forms/form-parts.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import {
  DEFAULT_COUNTRY,
  FIELD,
  MAX_QUANTITY,
  clampQuantity,
  type StudentMode,
} from "#app/lib/checkout.ts";
import type { FieldErrors } from "#app/lib/forms.ts";

/** The checkout's inputs: ids are `checkout-<posted name>`. */
const BASE_ID = "checkout";

/** The student card: 'Update student details' posts to it, so the redrawn list opens in view. */
export const STUDENTS_ID = "student-information";

/** What every field is drawn with: the messages to show and the values it starts with. */
export type FieldState = { errors: FieldErrors; defaults: Record<string, string> };

/**
 * Who is paying, and where the invoice goes: the buyer's name, e-mail and phone, the
 * organisation if any and the billing address (needed for an invoice, optional for a card
 * payment: app/lib/checkout.ts), and the optional PO and VAT numbers finance teams want on the
 * invoice. Uncontrolled: the country starts as the United Kingdom.
 */
export function BillingInformation(field: FieldState) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Billing Information</CardTitle>
        <CardDescription>
          Who is paying for this booking, and where we send the invoice.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <TextField
          {...field}
          name={FIELD.firstName}
          label="First Name"
          required
          autoComplete="given-name"
        />
        <TextField
          {...field}
          name={FIELD.lastName}
          label="Last Name"
          required
          autoComplete="family-name"
        />
        <TextField
          {...field}
          name={FIELD.email}
          label="Email"
          type="email"
          required
          autoComplete="email"
        />
        <TextField {...field} name={FIELD.phone} label="Phone" type="tel" autoComplete="tel" />
        <TextField
          {...field}
          name={FIELD.company}
          label="Organisation"
          hint="The organisation to invoice, if any; otherwise the invoice is addressed to you."
          autoComplete="organization"
          className="sm:col-span-2"
        />
        <TextField
          {...field}
          name={FIELD.addressLine1}
          label="Address Line 1"
          hint="A billing address is needed for an invoice; paying by card, you may leave it out."
          autoComplete="address-line1"
          className="sm:col-span-2"
        />
        <TextField
          {...field}
          name={FIELD.addressLine2}
          label="Address Line 2"
          autoComplete="address-line2"
          className="sm:col-span-2"
        />
        <TextField
          {...field}
          name={FIELD.town}
          label="Town or City"
          autoComplete="address-level2"
        />
        <TextField {...field} name={FIELD.postcode} label="Postcode" autoComplete="postal-code" />
        <TextField
          {...field}
          name={FIELD.country}
          label="Country"
          autoComplete="country-name"
          initial={DEFAULT_COUNTRY}
        />
        <TextField
          {...field}
          name={FIELD.poNumber}
          label="PO Number"
          hint="Your purchase order number, if your finance team needs it on the invoice."
        />
        <TextField
          {...field}
          name={FIELD.vatNumber}
          label="VAT Number"
          hint="Your organisation's VAT registration number, if it has one; from outside the UK, with its country code (e.g. DE123456789)."
        />
      </CardContent>
    </Card>
  );
}

/**
 * Who will take the course: the buyer, or up to MAX_QUANTITY named students. The radios and the
 * select are uncontrolled; the page follows them (`onModeChange`, `onQuantityChange`) to draw
 * `studentBlocks` blocks. Before hydration every block is drawn and the style sheet shows as many
 * as the form's own choice asks for (app.css, [data-student-blocks]).
 */
export function StudentInformation({
  initialMode,
  mode,
  quantity,
  studentBlocks,
  hydrated,
  onModeChange,
  onQuantityChange,
  maxQuantity = MAX_QUANTITY,
  ...field
}: {
  initialMode: StudentMode;
  /** Fewer than MAX_QUANTITY when a date has fewer places left. */
  maxQuantity?: number;
  mode: StudentMode;
  quantity: number;
  studentBlocks: number;
  hydrated: boolean;
  onModeChange: (mode: StudentMode) => void;
  onQuantityChange: (quantity: number) => void;
} & FieldState) {
  const updateAction = useFormActionTo(STUDENTS_ID);
  return (
    <Card id={STUDENTS_ID}>
      <CardHeader>
        <CardTitle as="h2">Student Information</CardTitle>
        <CardDescription>Who will take the course.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-medium">This booking is for</legend>
          <label className="flex cursor-pointer items-center gap-3 text-sm">
            <input
              type="radio"
              name={FIELD.studentMode}
              value="self"
              defaultChecked={initialMode === "self"}
              onChange={() => onModeChange("self")}
              className="size-4 accent-primary"
            />
            Myself (1 place)
          </label>
          <label className="flex cursor-pointer items-center gap-3 text-sm">
            <input
              type="radio"
              name={FIELD.studentMode}
              value="others"
              defaultChecked={initialMode === "others"}
              onChange={() => onModeChange("others")}
              className="size-4 accent-primary"
            />
            Someone else (1 to {maxQuantity} students)
          </label>
        </fieldset>

        {/* Before hydration and without JavaScript the quantity is always offered; the style
            sheet shows the blocks it asks for, and 'Update' redraws them for old browsers. */}
        {mode === "others" || !hydrated ? (
          <Field
            {...fieldOf(BASE_ID, FIELD.quantity, field.errors)}
            label="Number of students"
            className="max-w-xs"
          >
            <NativeSelect
              {...controlProps(BASE_ID, FIELD.quantity, field.errors)}
              // Drawn afresh after 'Myself' (quantity 1); later changes of the prop are ignored.
              defaultValue={String(quantity)}
              onChange={(e) => onQuantityChange(clampQuantity(Number(e.target.value)))}
            >
              {Array.from({ length: maxQuantity }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </NativeSelect>
          </Field>
        ) : null}
        {!hydrated ? (
          <div className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
            <Button
              type="submit"
              name={FIELD.intent}
              value="update"
              formAction={updateAction}
              variant="outline"
              size="sm"
            >
              Update student details
            </Button>
            <span>after changing who the booking is for or the number of students.</span>
          </div>
        ) : null}

        {mode === "others" || !hydrated ? (
          <label className="flex cursor-pointer items-start gap-3 text-sm">
            <input
              type="checkbox"
              name={FIELD.namesLater}
              defaultChecked={field.defaults[FIELD.namesLater] === "on"}
              className="mt-0.5 size-4 accent-primary"
            />
            <span>
              I will name some students later: leave their details blank and add them on your
              booking&apos;s own page (the link is in your confirmation e-mail).
            </span>
          </label>
        ) : null}
        <div data-student-blocks className="contents">
          {Array.from({ length: studentBlocks }, (_, i) => (
            <StudentBlock key={i} index={i} {...field} />
          ))}
        </div>
        {mode === "self" && hydrated ? (
          <p className="text-sm text-muted-foreground">
            You will attend the course yourself; joining details go to your billing email.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** One student's details: uncontrolled, so what is typed stays in the form whatever React does. */
function StudentBlock({ index, ...field }: { index: number } & FieldState) {
  return (
    <fieldset className="grid gap-4 rounded-md border border-border p-4 sm:grid-cols-3">
      <legend className="px-1 text-sm font-semibold">Student {index + 1}</legend>
      <TextField {...field} name={FIELD.student(index, "firstName")} label="First Name" required />
      <TextField {...field} name={FIELD.student(index, "lastName")} label="Last Name" required />
      <TextField
        {...field}
        name={FIELD.student(index, "email")}
        label="Email"
        type="email"
        required
      />
    </fieldset>
  );
}

/** A checkout input with its label and message, as every form of the site draws them. */
function TextField({
  name,
  label,
  required,
  type = "text",
  autoComplete,
  className,
  hint,
  initial = "",
  errors,
  defaults,
}: {
  name: string;
  label: string;
  required?: boolean;
  type?: string;
  autoComplete?: string;
  className?: string;
  /** A line under the input saying what the field is for. */
  hint?: string;
  /** What the field holds when nothing was posted. */
  initial?: string;
} & FieldState) {
  const hintId = hint ? `${BASE_ID}-${name}-hint` : undefined;
  const control = controlProps(BASE_ID, name, errors);
  return (
    <Field
      {...fieldOf(BASE_ID, name, errors)}
      label={label}
      required={required}
      hint={hint}
      className={className}
    >
      <Input
        {...control}
        aria-describedby={
          [control["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined
        }
        type={type}
        autoComplete={autoComplete}
        aria-required={required ? true : undefined}
        defaultValue={defaults[name] ?? initial}
      />
    </Field>
  );
}
