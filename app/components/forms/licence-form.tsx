import { useEffect, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  LICENCE_COUNT_LABELS,
  LICENCE_COUNTS,
  licenceSchema,
  LIMITS,
  USE_CASE_LABELS,
  USE_CASES,
} from "#app/lib/inquiries/schemas.ts";
import { ContactField, controlProps, Field, fieldOf, NameAndEmailFields } from "./fields.tsx";
import {
  FormMessage,
  HiddenFormFields,
  SuccessPanel,
  useFormActionTo,
  useHydrated,
  useSubmitCycle,
} from "./form-parts.tsx";

const SUCCESS = {
  title: "License Inquiry Sent",
  description: "We'll contact you within 24 hours with pricing and next steps.",
};
const FAILURE = { title: "Error", description: "Failed to send inquiry. Please try again." };

const REQUIRED = ["name", "email", "company", "licence_count"] as const;

function isComplete(form: HTMLFormElement | null): boolean {
  if (!form) return false;
  const data = new FormData(form);
  return REQUIRED.every((name) => String(data.get(name) ?? "").trim() !== "");
}

/**
 * File Interrogator licence quote (the page shows or hides it with its toggle and exports
 * `action = inquiryAction`). With JavaScript the submit button stays disabled until name,
 * e-mail, company and licence count are filled; without it the server checks the same rule.
 */
export function LicenceForm(props: { id?: string }) {
  const formId = props.id ?? "licence-form";
  const hydrated = useHydrated();
  const [complete, setComplete] = useState(false);
  const cycle = useSubmitCycle({
    form: "licence",
    formId,
    schema: licenceSchema,
    successToast: () => SUCCESS,
    failureToast: (result) =>
      result?.reason === "rate_limited"
        ? { title: FAILURE.title, description: result.message }
        : FAILURE,
  });
  const { errors, initial, busy, formRef, version } = cycle;
  // Without JavaScript the answer page opens at the form (or the success panel in its place).
  const action = useFormActionTo(formId);

  // The button follows the form's values, read from the form itself: on hydration (what the
  // visitor typed before the scripts ran), after a failed post, and after a reset.
  useEffect(() => setComplete(isComplete(formRef.current)), [formRef, version]);

  if (cycle.pageResult?.ok) return <SuccessPanel id={formId} {...SUCCESS} />;

  function onChange(event: FormEvent<HTMLFormElement>) {
    cycle.onEdit(event);
    setComplete(isComplete(event.currentTarget));
  }

  const base = formId;
  return (
    <cycle.fetcher.Form
      key={version}
      ref={formRef}
      id={formId}
      method="post"
      action={action}
      noValidate
      onSubmit={cycle.onSubmit}
      onChange={onChange}
      className="relative"
      aria-label="File Interrogator licence quote"
    >
      <HiddenFormFields form="licence" formId={formId} />
      <fieldset disabled={busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        <div className="grid gap-4 sm:grid-cols-2">
          <NameAndEmailFields baseId={base} errors={errors} initial={initial} />
          <ContactField
            field="company"
            label="Company / Organisation"
            baseId={base}
            errors={errors}
            required
            defaultValue={initial.company}
          />
          <ContactField field="phone" baseId={base} errors={errors} defaultValue={initial.phone} />
          <Field {...fieldOf(base, "licence_count", errors)} label="Number of Licences" required>
            <NativeSelect
              {...controlProps(base, "licence_count", errors)}
              required
              defaultValue={initial.licence_count ?? ""}
            >
              <option value="">Select number of licences</option>
              {LICENCE_COUNTS.map((c) => (
                <option key={c} value={c}>
                  {LICENCE_COUNT_LABELS[c]}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field {...fieldOf(base, "use_case", errors)} label="Primary Use Case">
            <NativeSelect
              {...controlProps(base, "use_case", errors)}
              defaultValue={initial.use_case ?? ""}
            >
              <option value="">Select a use case</option>
              {USE_CASES.map((u) => (
                <option key={u} value={u}>
                  {USE_CASE_LABELS[u]}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <Field {...fieldOf(base, "message", errors)} label="Additional Information">
          <Textarea
            {...controlProps(base, "message", errors)}
            rows={4}
            maxLength={LIMITS.message}
            className="min-h-[120px]"
            defaultValue={initial.message}
          />
        </Field>
        <Button
          type="submit"
          // Before hydration (or without JavaScript) it stays enabled: the server checks instead.
          disabled={hydrated && !complete}
          className="w-full sm:w-auto sm:justify-self-start"
        >
          {busy ? "Sending..." : "Request Licence Quote"}
        </Button>
      </fieldset>
    </cycle.fetcher.Form>
  );
}
