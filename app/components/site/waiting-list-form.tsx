import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { controlProps, Field, fieldIds, fieldOf } from "#app/components/forms/fields.tsx";
import {
  CycleForm,
  FormMessage,
  SuccessPanel,
  useSubmitCycle,
} from "#app/components/forms/form-parts.tsx";
import { COURSE_DATE_FIELD } from "#app/lib/catalogue/course-dates.ts";
import {
  ANNOUNCE_CONSENT_TEXT,
  announceSchema,
  WAITING_LIST_CONSENT_TEXT,
  WAITING_LIST_FORM,
  WAITING_LIST_MAX_PLACES,
  WAITING_LIST_MESSAGES,
  waitingListSchema,
} from "#app/lib/catalogue/waiting-list.ts";
import type { FieldErrors } from "#app/lib/forms.ts";

/**
 * The waiting list forms (decision 0034): a date's ('Join the waiting list': name, e-mail,
 * organisation, places, consent) and a course's without dates ('Tell me when dates are
 * announced': name, e-mail, consent). Uncontrolled inputs and a plain post, so they work
 * without JavaScript (the page then shows the answer); with it, a fetcher and a toast.
 */
export function WaitingListForm({
  dateId,
  defaultPlaces = 1,
}: {
  /** The date's list; null: tell me when dates are announced. */
  dateId: string | null;
  defaultPlaces?: number;
}) {
  const formId = "waiting-list-form";
  const said = dateId ? WAITING_LIST_MESSAGES.joined : WAITING_LIST_MESSAGES.announce;
  const cycle = useSubmitCycle({
    form: WAITING_LIST_FORM,
    formId,
    schema: dateId ? waitingListSchema : announceSchema,
    successToast: () => said,
    failureToast: (result) => ({
      title: WAITING_LIST_MESSAGES.failed.title,
      description: result.message ?? WAITING_LIST_MESSAGES.failed.description,
    }),
  });
  const { errors, initial, busy } = cycle;

  if (cycle.pageResult?.ok) return <SuccessPanel id={formId} {...said} />;

  const text = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <Field {...fieldOf(formId, name, errors)} label={label} required={props.required === true}>
      <Input {...controlProps(formId, name, errors)} defaultValue={initial[name]} {...props} />
    </Field>
  );

  return (
    <CycleForm
      cycle={cycle}
      form={WAITING_LIST_FORM}
      id={formId}
      label={dateId ? "Join the waiting list" : "Tell me when dates are announced"}
    >
      {dateId ? <input type="hidden" name={COURSE_DATE_FIELD} value={dateId} /> : null}
      <fieldset disabled={busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        {dateId ? (
          <div className="grid gap-4 sm:grid-cols-2">
            {text("first_name", "First name", { required: true, autoComplete: "given-name" })}
            {text("last_name", "Last name", { required: true, autoComplete: "family-name" })}
            {text("email", "E-mail", { required: true, type: "email", autoComplete: "email" })}
            {text("organisation", "Organisation", { autoComplete: "organization" })}
            <Field {...fieldOf(formId, "places", errors)} label="Places wanted" required>
              <Input
                {...controlProps(formId, "places", errors)}
                type="number"
                inputMode="numeric"
                min={1}
                max={WAITING_LIST_MAX_PLACES}
                required
                defaultValue={initial.places ?? String(defaultPlaces)}
              />
            </Field>
          </div>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            {text("name", "Name", { required: true, autoComplete: "name" })}
            {text("email", "E-mail", { required: true, type: "email", autoComplete: "email" })}
          </div>
        )}
        <ConsentBox
          formId={formId}
          errors={errors}
          checked={initial.consent === "on"}
          text={dateId ? WAITING_LIST_CONSENT_TEXT : ANNOUNCE_CONSENT_TEXT}
        />
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-start">
          {busy
            ? "Sending..."
            : dateId
              ? "Join the waiting list"
              : "Tell me when dates are announced"}
        </Button>
      </fieldset>
    </CycleForm>
  );
}

/** The required consent box, its words saying what we do with the details and for how long. */
function ConsentBox({
  formId,
  errors,
  checked,
  text,
}: {
  formId: string;
  errors: FieldErrors;
  checked: boolean;
  text: string;
}) {
  const { id, errorId } = fieldIds(formId, "consent");
  const error = errors.consent;
  return (
    <div className="grid gap-2">
      <div className="flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          id={id}
          name="consent"
          defaultChecked={checked}
          aria-required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="mt-0.5 size-4 shrink-0 accent-primary"
        />
        <label htmlFor={id}>
          {text}
          <span aria-hidden="true" className="text-destructive">
            {" "}
            *
          </span>
        </label>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
