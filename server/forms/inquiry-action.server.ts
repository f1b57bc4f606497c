import { data, type ActionFunctionArgs } from "react-router";
import { parseForm } from "#app/lib/forms.ts";
import {
  FIELDS,
  FORM_FIELD,
  INQUIRY_FORMS,
  MODALITIES,
  SCHEMAS,
  type FormResult,
  type InquiryForm,
  type Modality,
} from "#app/lib/inquiry-schemas.ts";
import { clientAddress, hitRateLimit, honeypotMark } from "../abuse.server.ts";
import { createCourseInquiry, createEnquiry, createLicenceInquiry } from "../inquiries.server.ts";
import { log } from "../log.server.ts";
import {
  failure,
  formIdOf,
  invalid,
  rateLimited,
  readPostedForm,
  unreadable,
} from "./form-post.server.ts";

/**
 * The action of every page that shows an enquiry, licence or course-quote form
 * (`export const action = inquiryAction;`). The hidden `form` field says which form posted.
 * With JavaScript the forms post through a fetcher and toast the answer; without it the page
 * renders the answer (success panel, or field errors with the visitor's values kept).
 */
export async function inquiryAction({ request, context }: ActionFunctionArgs) {
  const posted = await readPostedForm(request);
  if (!posted.ok) return unreadable(null, posted);
  const { formData } = posted;
  const formName = formData.get(FORM_FIELD);
  if (typeof formName !== "string" || !(INQUIRY_FORMS as readonly string[]).includes(formName)) {
    return failure(400, {
      form: null,
      formData,
      names: [],
      reason: "invalid",
      message: "Unknown form.",
    });
  }
  const form = formName as InquiryForm;
  const names = FIELDS[form];
  try {
    const limit = await hitRateLimit(`form:${form}`, clientAddress(context));
    if (!limit.allowed) return rateLimited(form, formData, names, limit.retryAfter);

    // Honeypot filled: checked and stored like any post, but marked and held with no e-mails
    // (decision 0012), so the usual answer is true.
    const suspected = honeypotMark(formData);

    // A field sent twice (or as a file) stays so, and the schema rejects it.
    if (form === "enquiry") {
      const parsed = parseForm(formData, SCHEMAS.enquiry);
      if (!parsed.ok) return invalid(form, formData, names, parsed.fieldErrors);
      await createEnquiry(parsed.value, suspected);
      return success(form, formData);
    }
    if (form === "licence") {
      const parsed = parseForm(formData, SCHEMAS.licence);
      if (!parsed.ok) return invalid(form, formData, names, parsed.fieldErrors);
      await createLicenceInquiry(parsed.value, suspected);
      return success(form, formData);
    }
    const parsed = parseForm(formData, SCHEMAS.course_quote);
    if (!parsed.ok) return invalid(form, formData, names, parsed.fieldErrors);
    const outcome = await createCourseInquiry(parsed.value, suspected);
    if (!outcome.ok) {
      return failure(400, {
        form,
        formData,
        names,
        reason: "invalid",
        fieldErrors: { course_id: "This course is no longer available." },
        message: "This course is no longer available.",
      });
    }
    return success(form, formData, outcome.modality);
  } catch (error) {
    log.error({ err: error, form }, "could not save an inquiry");
    return failure(500, {
      form,
      formData,
      names,
      reason: "error",
      message: "Please try again later.",
    });
  }
}

function success(form: InquiryForm, formData: FormData, modality?: Modality) {
  const posted = formData.get("modality");
  const result: FormResult = {
    ok: true,
    form,
    formId: formIdOf(formData),
    modality:
      form === "course_quote"
        ? (modality ??
          ((MODALITIES as readonly unknown[]).includes(posted)
            ? (posted as Modality)
            : "face_to_face"))
        : null,
  };
  return data(result, { status: 200, headers: { "Cache-Control": "no-store" } });
}
