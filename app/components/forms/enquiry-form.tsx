import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import {
  enquirySchema,
  LIMITS,
  SERVICE_INTERESTS,
  SERVICE_LABELS,
  type ServiceInterest,
} from "#app/lib/inquiries/schemas.ts";
import { ContactField, controlProps, Field, fieldOf, NameAndEmailFields } from "./fields.tsx";
import {
  FormMessage,
  HiddenFormFields,
  SuccessPanel,
  useFormActionTo,
  useSubmitCycle,
} from "./form-parts.tsx";

export type { ServiceInterest };

const SUCCESS = {
  title: "Message sent successfully!",
  description: "We'll get back to you within 24 hours.",
};
const FAILURE = { title: "Error sending message", description: "Please try again later." };

/**
 * The enquiry form (home #contact, /contact, /quote, service pages with their service chosen).
 * The page exports `action = inquiryAction`. After a success the form resets to its initial
 * state, keeping the default service; after a failure it keeps what the visitor typed.
 */
export function EnquiryForm(props: { defaultService?: ServiceInterest; id?: string }) {
  const formId = props.id ?? "enquiry-form";
  const cycle = useSubmitCycle({
    form: "enquiry",
    formId,
    schema: enquirySchema,
    successToast: () => SUCCESS,
    failureToast: (result) =>
      result?.reason === "rate_limited"
        ? { title: FAILURE.title, description: result.message }
        : FAILURE,
  });
  const { errors, initial, busy } = cycle;
  // Without JavaScript the answer page opens at the form (or the success panel in its place).
  const action = useFormActionTo(formId);

  if (cycle.pageResult?.ok) return <SuccessPanel id={formId} {...SUCCESS} />;

  const base = formId;
  return (
    <cycle.fetcher.Form
      key={cycle.version}
      ref={cycle.formRef}
      id={formId}
      method="post"
      action={action}
      noValidate
      onSubmit={cycle.onSubmit}
      onChange={cycle.onEdit}
      className="relative"
      aria-label="Enquiry form"
    >
      <HiddenFormFields form="enquiry" formId={formId} />
      <fieldset disabled={busy} className="grid gap-4">
        <FormMessage message={cycle.formMessage} />
        <div className="grid gap-4 sm:grid-cols-2">
          <NameAndEmailFields baseId={base} errors={errors} initial={initial} />
          <ContactField
            field="company"
            baseId={base}
            errors={errors}
            defaultValue={initial.company}
          />
          <ContactField field="phone" baseId={base} errors={errors} defaultValue={initial.phone} />
        </div>
        <Field {...fieldOf(base, "service", errors)} label="Service Interest">
          <NativeSelect
            {...controlProps(base, "service", errors)}
            defaultValue={initial.service ?? props.defaultService ?? ""}
          >
            <option value="">Select a service</option>
            {SERVICE_INTERESTS.map((s) => (
              <option key={s} value={s}>
                {SERVICE_LABELS[s]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field {...fieldOf(base, "message", errors)} label="Message" required>
          <Textarea
            {...controlProps(base, "message", errors)}
            required
            rows={5}
            maxLength={LIMITS.message}
            className="min-h-[120px]"
            defaultValue={initial.message}
          />
        </Field>
        <Button type="submit" className="w-full sm:w-auto sm:justify-self-start">
          {busy ? "Sending..." : "Send Message"}
        </Button>
      </fieldset>
    </cycle.fetcher.Form>
  );
}
