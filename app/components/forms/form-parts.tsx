import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useActionData, useFetcher, useFormAction } from "react-router";
import type { $ZodType } from "zod/v4/core";
import { HoneypotField } from "#app/components/forms/honeypot-field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { cn } from "#app/lib/cn.ts";
import {
  focusFirstInvalid,
  parseForm,
  type FieldErrors,
  type FormFailure,
} from "#app/lib/forms.ts";
import {
  FORM_FIELD,
  FORM_ID_FIELD,
  LIMITS,
  type FormResult,
  type InquiryForm,
} from "#app/lib/inquiry-schemas.ts";
import { toast, type ToastInput } from "#app/lib/toast.ts";
import { useFormAnswer } from "./use-form-answer.ts";

/** Pieces shared by the visitor forms: field layout, spam-guard fields, the submit cycle. */

/** True once React has hydrated: lets forms keep working (and stay enabled) before and without JS. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Where a form posts: the page it is on (the address React Router's forms use by default, with
 * the page's query and `?index` on an index route), plus the fragment of the element that shows
 * the answer. Posted without JavaScript, the answer page opens scrolled to that element, below
 * the sticky header (html's scroll-padding-top), not at the top of the page. With JavaScript
 * the form posts through a fetcher, which ignores the fragment: nothing scrolls.
 */
export function useFormActionTo(targetId: string): string {
  return `${useFormAction()}#${targetId}`;
}

/**
 * A form-level message for a post the server turned down as invalid without JavaScript (with
 * it, the fields' messages and the focus on the first of them say it): the answer page opens at
 * the top of the form, where this message is, whichever field is wrong further down.
 */
export const INVALID_POST_MESSAGE = "Please correct the fields marked below.";

/** Which form this is, and the spam guard: a honeypot people never see. */
export function HiddenFormFields({
  form,
  formId,
}: {
  form: InquiryForm | "newsletter";
  formId: string;
}) {
  return (
    <>
      {form !== "newsletter" ? <input type="hidden" name={FORM_FIELD} value={form} /> : null}
      <input type="hidden" name={FORM_ID_FIELD} value={formId} />
      <HoneypotField />
    </>
  );
}

export function fieldIds(baseId: string, name: string) {
  return { id: `${baseId}-${name}`, errorId: `${baseId}-${name}-error` };
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

export function Field({
  baseId,
  name,
  label,
  required,
  errors,
  className,
  children,
}: {
  baseId: string;
  name: string;
  label: ReactNode;
  required?: boolean;
  errors: FieldErrors;
  className?: string;
  children: ReactNode;
}) {
  const { id, errorId } = fieldIds(baseId, name);
  const error = errors[name];
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={id}>
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        ) : null}
      </Label>
      {children}
      {/* role=alert: a screen reader announces the message as soon as it appears. */}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
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
    <Field
      baseId={baseId}
      name={field}
      label={label ?? spec.label}
      required={required}
      errors={errors}
    >
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

/** A form-level message (e.g. rate limited), announced when it appears. */
export function FormMessage({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm"
    >
      {message}
    </p>
  );
}

/**
 * The no-JavaScript success view that replaces a form after the page's action succeeded. It takes
 * the form's `id`, so the fragment the form posted to lands on it.
 */
export function SuccessPanel({
  id,
  title,
  description,
}: {
  id?: string;
  title: string;
  description: string;
}) {
  return (
    <div id={id} role="status" className="rounded-lg border border-success/60 bg-success/10 p-6">
      <p className="text-lg font-semibold">{title}</p>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
    </div>
  );
}

interface SubmitCycleOptions {
  form: InquiryForm | "newsletter";
  formId: string;
  schema: $ZodType;
  successToast: (result: Extract<FormResult, { ok: true }>) => ToastInput;
  failureToast: (result: FormFailure) => ToastInput;
  /** Shown when the browser-side check fails (e.g. the newsletter's 'Email Required'). */
  invalidToast?: (errors: FieldErrors) => ToastInput | undefined;
  onSuccess?: (result: Extract<FormResult, { ok: true }>) => void;
}

/**
 * idle → submitting → success (toast, reset) or error (toast, values kept). The schema runs in
 * the browser first; the server's answer (field errors included) is shown the same way. Without
 * JavaScript the page's action data supplies the errors and the values to show again.
 */
export function useSubmitCycle(options: SubmitCycleOptions) {
  const fetcher = useFetcher<FormResult>();
  const actionData = useActionData() as FormResult | undefined;
  const pageResult =
    actionData &&
    typeof actionData === "object" &&
    "formId" in actionData &&
    actionData.form === options.form &&
    actionData.formId === options.formId
      ? actionData
      : undefined;
  const [errors, setErrors] = useState<FieldErrors>(
    pageResult && !pageResult.ok ? pageResult.fieldErrors : {},
  );
  const [formMessage, setFormMessage] = useState<string | undefined>(
    pageResult && !pageResult.ok
      ? pageResult.reason === "invalid"
        ? INVALID_POST_MESSAGE
        : pageResult.message
      : undefined,
  );
  // Bumped after a success: remounts the form with its initial values.
  const [version, setVersion] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useFormAnswer(fetcher, {
    successToast: options.successToast,
    failureToast: options.failureToast,
    onSuccess: (result) => {
      setErrors({});
      setFormMessage(undefined);
      setVersion((v) => v + 1);
      options.onSuccess?.(result);
    },
    onFailure: (result) => {
      setErrors(result.fieldErrors);
      setFormMessage(result.reason === "invalid" ? undefined : result.message);
      focusFirstInvalid(formRef.current, result.fieldErrors);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const parsed = parseForm(new FormData(event.currentTarget), options.schema);
    if (!parsed.ok) {
      event.preventDefault();
      setErrors(parsed.fieldErrors);
      const message = options.invalidToast?.(parsed.fieldErrors);
      if (message) toast({ ...message, variant: "destructive" });
      focusFirstInvalid(event.currentTarget, parsed.fieldErrors);
      return;
    }
    setErrors({});
    setFormMessage(undefined);
  }

  /** Clears a field's message as soon as the visitor edits it. */
  function onEdit(event: FormEvent<HTMLFormElement>) {
    const name = (event.target as HTMLInputElement).name;
    if (name && errors[name]) {
      setErrors(({ [name]: _removed, ...rest }) => rest);
    }
  }

  const busy = fetcher.state !== "idle";
  return {
    fetcher,
    formRef,
    busy,
    errors,
    formMessage,
    version,
    onSubmit,
    onEdit,
    /** The page action's answer for this form (no-JavaScript path). */
    pageResult,
    /** What to show in each field: the visitor's values after a failed no-JS post. */
    initial: (pageResult && !pageResult.ok && version === 0 && pageResult.values) || {},
  };
}
