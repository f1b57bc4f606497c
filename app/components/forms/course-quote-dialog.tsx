import { cloneElement, isValidElement, useEffect, useRef, useState, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { useLazyDialog } from "#app/components/ui/lazy-dialog.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  courseQuoteSchema,
  LIMITS,
  MODALITIES,
  MODALITY_LABELS,
  type Modality,
} from "#app/lib/inquiries/schemas.ts";
import {
  ContactField,
  controlProps,
  Field,
  fieldIds,
  fieldOf,
  NameAndEmailFields,
} from "./fields.tsx";
import {
  FormMessage,
  HiddenFormFields,
  SuccessPanel,
  useFormActionTo,
  useHydrated,
  useSubmitCycle,
} from "./form-parts.tsx";

const SUCCESS_TITLE = "Inquiry Submitted";
const SUCCESS: Record<Modality, string> = {
  online: "Thank you for your interest! We'll contact you soon to process your course enrollment.",
  face_to_face:
    "Thank you for your interest! We'll get back to you with a custom quote for your face-to-face training.",
};
const FAILURE = { title: "Error", description: "Failed to submit your inquiry. Please try again." };

/** The query parameter that opens the form in the page when JavaScript is off. */
const QUOTE_PARAM = "quote";

type Course = { id: string; title: string };
type TriggerProps = { type?: string; "aria-haspopup"?: "dialog"; "aria-expanded"?: boolean };

/**
 * Course quote / enrolment dialog. `children` is the trigger (pass a `<Button>` without a
 * `type`): with JavaScript it opens the dialog; without it, it reloads the page with
 * `?quote=…` and the same form is shown in the page. The page exports `action = inquiryAction`.
 * The course title stored with the inquiry is read from the database by course id.
 */
export function CourseQuoteDialog(props: {
  course: Course;
  modality?: Modality;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useLazyDialog();
  const trigger = useRef<HTMLFormElement>(null);
  const [params] = useSearchParams();
  const key = props.modality ?? "any";
  const formId = `course-quote-${props.course.id}-${key}`;
  const anchor = `course-quote-${props.course.id}-${key}-section`;

  const cycle = useCourseQuote(formId, () => setOpen(false));
  const showInPage = params.get(QUOTE_PARAM) === key || cycle.pageResult !== undefined;

  return (
    <>
      {/* Without JavaScript the trigger submits this GET form and the page shows the form. */}
      <form
        ref={trigger}
        method="get"
        action={`#${anchor}`}
        className="contents"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          // The dialog's code comes with the first click; if it can't, the page shows the form.
          dialog.load().then(
            () => setOpen(true),
            () => form.submit(),
          );
        }}
      >
        <input type="hidden" name={QUOTE_PARAM} value={key} />
        {/* A submit button, so that without JavaScript it submits the GET form above. */}
        {isValidElement<TriggerProps>(props.children)
          ? cloneElement(props.children, {
              type: "submit",
              "aria-haspopup": "dialog",
              "aria-expanded": open,
            })
          : props.children}
      </form>
      {dialog.Window ? (
        <dialog.Window
          open={open}
          onOpenChange={setOpen}
          title={props.course.title}
          description="Tell us what you need and our training team will get back to you within 24 hours."
          returnFocus={() => trigger.current?.querySelector("button")}
        >
          <CourseQuoteFormBody
            key={cycle.version}
            cycle={cycle}
            course={props.course}
            defaultModality={props.modality}
            formId={formId}
            anchor={anchor}
          />
        </dialog.Window>
      ) : null}
      {showInPage && !open ? (
        <section
          id={anchor}
          aria-labelledby={`${anchor}-title`}
          className="mt-6 rounded-lg border border-border bg-card p-6"
        >
          <h2 id={`${anchor}-title`} className="mb-1 text-xl font-semibold">
            {props.modality === "online" ? "Enrol" : "Request a quote"}: {props.course.title}
          </h2>
          <p className="mb-4 text-sm text-muted-foreground">
            Tell us what you need and our training team will get back to you within 24 hours.
          </p>
          {cycle.pageResult?.ok ? (
            <SuccessPanel
              title={SUCCESS_TITLE}
              description={SUCCESS[cycle.pageResult.modality ?? "face_to_face"]}
            />
          ) : (
            <CourseQuoteFormBody
              key={cycle.version}
              cycle={cycle}
              course={props.course}
              defaultModality={props.modality}
              formId={formId}
              anchor={anchor}
            />
          )}
        </section>
      ) : null}
    </>
  );
}

function isModality(value: unknown): value is Modality {
  return (MODALITIES as readonly unknown[]).includes(value);
}

function useCourseQuote(formId: string, close: () => void) {
  return useSubmitCycle({
    form: "course_quote",
    formId,
    schema: courseQuoteSchema,
    successToast: (result) => ({
      title: SUCCESS_TITLE,
      description: SUCCESS[result.modality ?? "face_to_face"],
    }),
    failureToast: (result) =>
      result?.reason === "rate_limited"
        ? { title: FAILURE.title, description: result.message }
        : FAILURE,
    onSuccess: close,
  });
}

function CourseQuoteFormBody({
  cycle,
  course,
  defaultModality,
  formId,
  anchor,
}: {
  cycle: ReturnType<typeof useCourseQuote>;
  course: Course;
  defaultModality?: Modality;
  formId: string;
  /** The id of the in-page section that shows the form and its answer without JavaScript. */
  anchor: string;
}) {
  const hydrated = useHydrated();
  // Without JavaScript the answer page opens at the in-page section, with the answer in it.
  const action = useFormActionTo(anchor);
  const { errors, initial, busy } = cycle;
  const initialModality: Modality =
    initial.modality === "online" || initial.modality === "face_to_face"
      ? initial.modality
      : (defaultModality ?? "face_to_face");
  const [modality, setModality] = useState<Modality>(initialModality);
  const modalityGroup = useRef<HTMLFieldSetElement>(null);
  // The radios are uncontrolled; on hydration the fields follow the one the visitor may have
  // chosen before the page's scripts ran (the form is in the page with `?quote=`).
  useEffect(() => {
    const chosen = modalityGroup.current?.querySelector<HTMLInputElement>(
      'input[name="modality"]:checked',
    )?.value;
    if (isModality(chosen)) setModality(chosen);
  }, []);
  // Without JavaScript every field is shown; the labels say which modality needs what.
  const showClassroom = !hydrated || modality === "face_to_face";
  const base = formId;
  const modalityIds = fieldIds(base, "modality");

  return (
    <cycle.fetcher.Form
      ref={cycle.formRef}
      method="post"
      action={action}
      noValidate
      onSubmit={cycle.onSubmit}
      onChange={cycle.onEdit}
      className="relative"
      aria-label={`Enquiry about ${course.title}`}
    >
      <HiddenFormFields form="course_quote" formId={formId} />
      <input type="hidden" name="course_id" value={course.id} />
      <fieldset disabled={busy} className="grid gap-4">
        <FormMessage message={errors.course_id ?? cycle.formMessage} />
        <fieldset
          ref={modalityGroup}
          className="grid gap-2"
          aria-invalid={errors.modality ? true : undefined}
          aria-describedby={errors.modality ? modalityIds.errorId : undefined}
        >
          <legend className="mb-2 text-sm font-medium">
            How would you like to take the course?
          </legend>
          <div className="flex flex-wrap gap-4">
            {MODALITIES.map((m) => (
              <label key={m} className="flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="modality"
                  value={m}
                  defaultChecked={m === initialModality}
                  onChange={() => setModality(m)}
                  className="size-4 accent-primary"
                />
                {MODALITY_LABELS[m]}
              </label>
            ))}
          </div>
          {errors.modality ? (
            <p id={modalityIds.errorId} role="alert" className="text-sm text-destructive">
              {errors.modality}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <NameAndEmailFields baseId={base} errors={errors} initial={initial} />
          <ContactField field="phone" baseId={base} errors={errors} defaultValue={initial.phone} />
          <ContactField
            field="company"
            baseId={base}
            errors={errors}
            defaultValue={initial.company}
          />
          {showClassroom ? (
            <>
              <Field
                {...fieldOf(base, "attendees", errors)}
                label={hydrated ? "Number of Attendees" : "Number of Attendees (face-to-face)"}
                required={hydrated}
              >
                <Input
                  {...controlProps(base, "attendees", errors)}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={LIMITS.attendees}
                  step={1}
                  required={hydrated}
                  defaultValue={initial.attendees ?? "1"}
                />
              </Field>
              <Field
                {...fieldOf(base, "budget", errors)}
                label={hydrated ? "Budget (optional)" : "Budget (face-to-face, optional)"}
              >
                <Input
                  {...controlProps(base, "budget", errors)}
                  maxLength={LIMITS.budget}
                  placeholder="e.g. £5,000"
                  defaultValue={initial.budget}
                />
              </Field>
            </>
          ) : null}
        </div>
        <Field
          {...fieldOf(base, "message", errors)}
          label={
            !hydrated
              ? "Training requirements (required for face-to-face)"
              : modality === "face_to_face"
                ? "Training Requirements"
                : "Message (optional)"
          }
          required={hydrated && modality === "face_to_face"}
        >
          <Textarea
            {...controlProps(base, "message", errors)}
            required={hydrated && modality === "face_to_face"}
            rows={4}
            maxLength={LIMITS.message}
            className="min-h-[120px]"
            placeholder={
              modality === "face_to_face"
                ? "Group size, preferred dates, location, topics to focus on…"
                : "Anything we should know?"
            }
            defaultValue={initial.message}
          />
        </Field>
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-end">
          {busy ? "Sending..." : "Submit Inquiry"}
        </Button>
      </fieldset>
    </cycle.fetcher.Form>
  );
}
