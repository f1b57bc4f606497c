import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useActionData, useFetcher, useFormAction } from "react-router";
import type { $ZodType } from "zod/v4/core";
import { HoneypotField } from "#app/components/forms/honeypot-field.tsx";
import {
  focusFirstInvalid,
  isFormAnswer,
  checkBeforePost,
  newSubmissionKey,
  SUBMISSION_KEY_FIELD,
  type FieldErrors,
  type FormFailure,
} from "#app/lib/forms.ts";
import {
  FORM_FIELD,
  FORM_ID_FIELD,
  type FormResult,
  type InquiryForm,
} from "#app/lib/inquiries/schemas.ts";
import { toast, type ToastInput } from "#app/lib/ui/toast.ts";
import { useFormAnswer } from "./use-form-answer.ts";

/** Pieces shared by the visitor forms: spam-guard fields, answers, the submit cycle (fields: fields.tsx). */

/** The visitor forms' names, as their posts' `form` field and their answers carry them. */
type PublicFormName =
  InquiryForm | "newsletter" | "waiting_list" | "find_booking" | "student" | "move_request";

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

/**
 * The form's submission key: the server's in the HTML (so a post without JavaScript has one —
 * shared by everyone the cached page reaches, which is why the server hashes it with the
 * content), then a fresh one of this page's own once its scripts run. A double click or a
 * repeated post sends the same key and gets the first answer (server/forms/submit-once.server.ts).
 */
export function SubmissionKeyField() {
  const ref = useRef<HTMLInputElement>(null);
  const [rendered] = useState(newSubmissionKey);
  useEffect(() => {
    if (ref.current) ref.current.value = newSubmissionKey();
  }, []);
  return (
    <input
      ref={ref}
      type="hidden"
      name={SUBMISSION_KEY_FIELD}
      defaultValue={rendered}
      // The server's key stays in the page until the effect replaces it: a known difference.
      suppressHydrationWarning
    />
  );
}

/** Which form this is, its submission key, and the spam guard: a honeypot people never see. */
export function HiddenFormFields({ form, formId }: { form: PublicFormName; formId: string }) {
  return (
    <>
      {form !== "newsletter" ? <input type="hidden" name={FORM_FIELD} value={form} /> : null}
      <input type="hidden" name={FORM_ID_FIELD} value={formId} />
      <SubmissionKeyField />
      <HoneypotField />
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
  form: PublicFormName;
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
  // The page's answer, whichever route's action gave it: this form's only when it names it.
  const actionData: unknown = useActionData();
  const pageResult: FormResult | undefined =
    isFormAnswer(actionData) &&
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
    const found = checkBeforePost(event, options.schema);
    if (found) {
      setErrors(found);
      const message = options.invalidToast?.(found);
      if (message) toast({ ...message, variant: "destructive" });
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

/**
 * A visitor form run by `useSubmitCycle`: posted to this page's action (the answer page opens on
 * the form), checked in the browser first, with the spam-guard fields; remounted after a success.
 */
export function CycleForm({
  cycle,
  form,
  id,
  label,
  children,
}: {
  cycle: ReturnType<typeof useSubmitCycle>;
  form: PublicFormName;
  id: string;
  label: string;
  children: ReactNode;
}) {
  const action = useFormActionTo(id);
  return (
    <cycle.fetcher.Form
      key={cycle.version}
      ref={cycle.formRef}
      id={id}
      method="post"
      action={action}
      noValidate
      onSubmit={cycle.onSubmit}
      onChange={cycle.onEdit}
      aria-label={label}
    >
      <HiddenFormFields form={form} formId={id} />
      {children}
    </cycle.fetcher.Form>
  );
}
