import type { ComponentProps, ReactNode } from "react";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import type { FieldErrors } from "#app/lib/forms.ts";
import { LIMITS } from "#app/lib/inquiries/schemas.ts";

/**
 * The one field kit of every form — the visitor forms, the checkout and the admin screens: a
 * labelled control with its hint and its message underneath, the ids and `aria-*` that tie them
 * together (`<id>-hint`, `<id>-error`), and the controls built on it. The site and the admin
 * screens draw the label's required mark their own way (`look`); the rest is the same markup.
 */

export type FieldLook = "site" | "admin";

/** A labelled field with its message underneath (bad input → a message next to the field). */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  className,
  look = "site",
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: string;
  required?: boolean;
  className?: string;
  look?: FieldLook;
  children: ReactNode;
}) {
  const admin = look === "admin";
  return (
    // content-start: beside a taller field in the same row (one with a hint), the label and input
    // stay at the top instead of spreading out, so the inputs of a row line up.
    <div className={admin ? "grid content-start gap-2" : cn("grid content-start gap-2", className)}>
      <Label htmlFor={id} id={admin ? `${id}-label` : undefined}>
        {label}
        {required && admin ? <span aria-hidden="true"> *</span> : null}
        {required && !admin ? (
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        ) : null}
      </Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {/* role=alert: a screen reader announces the message as soon as it appears. */}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A field's id (`<form's base id>-<posted name>`) and its message's. */
export function fieldIds(baseId: string, name: string) {
  return { id: `${baseId}-${name}`, errorId: `${baseId}-${name}-error` };
}

/** What `Field` needs of a field named in a form: its id and its message. */
export function fieldOf(baseId: string, name: string, errors: FieldErrors) {
  return { id: fieldIds(baseId, name).id, error: errors[name] };
}

/** The attributes a control needs to be labelled, marked invalid and tied to its message. */
export function controlProps(baseId: string, name: string, errors: FieldErrors) {
  const { id, errorId } = fieldIds(baseId, name);
  const error = errors[name];
  return {
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  } as const;
}

/** aria attributes tying an input to its message and hint. */
export function describe(id: string, error?: string, hasHint = false) {
  const ids = [error ? `${id}-error` : null, hasHint ? `${id}-hint` : null].filter(Boolean);
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": ids.length ? ids.join(" ") : undefined,
  } as const;
}

/** What an admin field needs of its form (`useCatalogueForm`): its id, its message and its aria attributes. */
export interface CatalogueFormFields<Name extends string = string> {
  errors: Partial<Record<Name, string>>;
  id: (name: Name) => string;
  field: (name: Name, hasHint?: boolean) => ReturnType<typeof describe>;
}

/** A field's own props; the rest go to its control. */
type FieldProps<Name extends string> = {
  form: CatalogueFormFields<Name>;
  /** The posted name, also the key of its message: one of the form schema's fields. */
  name: NoInfer<Name>;
  label: string;
  hint?: string;
  /** Marks the label with an asterisk and the control as required. */
  required?: boolean;
};

/** A control's own props, less those its field sets. */
type ControlProps<Control extends "input" | "textarea" | "select"> = Omit<
  ComponentProps<Control>,
  "form" | "id" | "name" | "required"
>;

/** The labelled field around a control that gets the field's id, aria attributes and name. */
function labelled<Name extends string, Rest extends object>(
  { form, name, label, hint, required, ...rest }: FieldProps<Name> & Rest,
  // Also given the caller's other props (`rest`), which TextField & co. have already typed.
  control: (props: ReturnType<typeof describe> & { name: string; required?: boolean }) => ReactNode,
) {
  const error = form.errors[name];
  return (
    <Field
      id={form.id(name)}
      label={label}
      error={error}
      hint={hint}
      required={required}
      look="admin"
    >
      {control({ ...form.field(name, Boolean(hint)), name, ...rest, required })}
    </Field>
  );
}

/** A text input (any `type`: text, url, email, number) with its label, hint and message. */
export function TextField<Name extends string>(props: FieldProps<Name> & ControlProps<"input">) {
  return labelled(props, (control) => <Input {...control} />);
}

/** A textarea with its label, hint and message. */
export function TextareaField<Name extends string>(
  props: FieldProps<Name> & ControlProps<"textarea">,
) {
  return labelled(props, (control) => <Textarea {...control} />);
}

/** A native select (its options as children) with its label, hint and message. */
export function SelectField<Name extends string>(props: FieldProps<Name> & ControlProps<"select">) {
  return labelled(props, (control) => <NativeSelect {...control} />);
}

/** A web address input's props (a site, a purchase page, an external link). */
export const URL_INPUT = { type: "url", inputMode: "url", placeholder: "https://" } as const;

/** Number inputs whose text the browser could not read as a number (their value reads as ''). */
export function unreadableNumbers(form: HTMLFormElement): FieldErrors {
  const errors: FieldErrors = {};
  form.querySelectorAll<HTMLInputElement>("input[type=number]").forEach((input) => {
    if (input.validity.badInput) errors[input.name] = "Please enter a number";
  });
  return errors;
}

/** The contact details the inquiry forms ask for: label, input type, autofill hint and limit. */
const CONTACT_FIELDS = {
  name: { label: "Full Name", type: undefined, autoComplete: "name", maxLength: LIMITS.name },
  email: { label: "Email", type: "email", autoComplete: "email", maxLength: LIMITS.email },
  company: {
    label: "Company",
    type: undefined,
    autoComplete: "organization",
    maxLength: LIMITS.company,
  },
  phone: { label: "Phone", type: "tel", autoComplete: "tel", maxLength: LIMITS.phone },
} as const;

/** One contact detail as a labelled input with its message (`label` overrides the usual one). */
export function ContactField({
  field,
  baseId,
  errors,
  defaultValue,
  required,
  label,
}: {
  field: keyof typeof CONTACT_FIELDS;
  baseId: string;
  errors: FieldErrors;
  defaultValue: string | undefined;
  required?: boolean;
  label?: string;
}) {
  const spec = CONTACT_FIELDS[field];
  return (
    <Field {...fieldOf(baseId, field, errors)} label={label ?? spec.label} required={required}>
      <Input
        {...controlProps(baseId, field, errors)}
        type={spec.type}
        autoComplete={spec.autoComplete}
        required={required}
        maxLength={spec.maxLength}
        defaultValue={defaultValue}
      />
    </Field>
  );
}

/** The required name and e-mail every inquiry form opens with. */
export function NameAndEmailFields({
  baseId,
  errors,
  initial,
}: {
  baseId: string;
  errors: FieldErrors;
  initial: { name?: string; email?: string };
}) {
  return (
    <>
      <ContactField
        field="name"
        baseId={baseId}
        errors={errors}
        required
        defaultValue={initial.name}
      />
      <ContactField
        field="email"
        baseId={baseId}
        errors={errors}
        required
        defaultValue={initial.email}
      />
    </>
  );
}
