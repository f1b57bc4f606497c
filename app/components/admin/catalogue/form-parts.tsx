import { useId, useState, type ComponentProps, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import type { FieldErrors } from "#app/lib/forms.ts";
import { checkImageFile, IMAGE_ACCEPT } from "#app/lib/image-upload.ts";
import { toast } from "#app/lib/toast.ts";

/** Building blocks of the course, category and partner admin screens. */

/** A labelled field with its message underneath (spec: bad input → a message next to the field). */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id} id={`${id}-label`}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
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

/** What a field needs of its form (`useCatalogueForm`): its id, its message and its aria attributes. */
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
    <Field id={form.id(name)} label={label} error={error} hint={hint} required={required}>
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

/**
 * An image input with the current image, a way to remove it (posted as `removeName=on`) and an
 * early check of the chosen file: a non-image is answered with the spec's toast right away.
 */
export function ImageInput({
  name,
  removeName,
  label,
  currentUrl,
  error,
  previewAlt,
}: {
  name: string;
  removeName: string;
  label: string;
  currentUrl: string | null;
  error?: string;
  previewAlt: string;
}) {
  const id = useId();
  const [removed, setRemoved] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [preview, setPreview] = useState<string | null>(null);
  const shown = preview ?? (removed ? null : currentUrl);
  const message = problem ?? error;
  return (
    <Field
      id={id}
      label={label}
      error={message}
      hint="PNG, JPEG, GIF, WebP, BMP or ICO, up to 5 MB"
    >
      {shown ? (
        <div className="flex items-center gap-3">
          <img
            src={shown}
            alt={previewAlt}
            className="size-16 rounded-md border border-border bg-muted object-contain"
          />
          {!preview ? (
            <Button type="button" variant="outline" size="sm" onClick={() => setRemoved(true)}>
              Remove {label.toLowerCase()}
            </Button>
          ) : null}
        </div>
      ) : null}
      {removed ? <input type="hidden" name={removeName} value="on" /> : null}
      <Input
        id={id}
        aria-invalid={message ? true : undefined}
        aria-describedby={[message ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(" ")}
        type="file"
        name={name}
        accept={IMAGE_ACCEPT}
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          const found = checkImageFile(file);
          setPreview(null);
          if (found) {
            input.value = "";
            setProblem(found);
            toast({ title: "Error", description: found, variant: "destructive" });
            return;
          }
          setProblem(undefined);
          if (!file) return;
          // A data: URL, not a blob: one: the site's Content-Security-Policy allows data: images.
          const reader = new FileReader();
          reader.onload = () =>
            setPreview(typeof reader.result === "string" ? reader.result : null);
          reader.readAsDataURL(file);
        }}
      />
    </Field>
  );
}

/** '12 Jan 2026' (en-GB). */
export function formatAdminDate(value: Date | string): string {
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
  }).format(new Date(value));
}
