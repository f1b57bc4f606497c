import type { ActionFunctionArgs } from "react-router";
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
} from "#app/lib/inquiries/schemas.ts";
import {
  createCourseInquiry,
  createEnquiry,
  createLicenceInquiry,
} from "../inquiries/inquiries.server.ts";
import { formAction } from "./form-action.server.ts";
import { failure, formIdOf, invalid } from "./form-post.server.ts";
import { answerPublicForm, publicFormSaved } from "./public-form.server.ts";

/**
 * The action of every page that shows an enquiry, licence or course-quote form
 * (`export const action = inquiryAction;`). The hidden `form` field says which form posted.
 * With JavaScript the forms post through a fetcher and toast the answer; without it the page
 * renders the answer (success panel, or field errors with the visitor's values kept).
 */
export function inquiryAction({ request, context }: ActionFunctionArgs) {
  return formAction(request, { form: null }, (formData) => answerInquiry(formData, context));
}

function isInquiryForm(value: unknown): value is InquiryForm {
  return INQUIRY_FORMS.some((form) => form === value);
}

async function answerInquiry(formData: FormData, context: ActionFunctionArgs["context"]) {
  const form = formData.get(FORM_FIELD);
  if (!isInquiryForm(form)) {
    return failure(400, {
      form: null,
      formData,
      names: [],
      reason: "invalid",
      message: "Unknown form.",
    });
  }
  const names = FIELDS[form];
  const publicForm = {
    name: form,
    names,
    failureMessage: "Please try again later.",
    failureLog: "could not save an inquiry",
  };
  // A field sent twice (or as a file) stays so, and the schema rejects it.
  return answerPublicForm(publicForm, formData, context, async (suspected) => {
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
  });
}

function isModality(value: unknown): value is Modality {
  return MODALITIES.some((modality) => modality === value);
}

function success(form: InquiryForm, formData: FormData, modality?: Modality) {
  const posted = formData.get("modality");
  const result: FormResult = {
    ok: true,
    form,
    formId: formIdOf(formData),
    modality:
      form === "course_quote" ? (modality ?? (isModality(posted) ? posted : "face_to_face")) : null,
  };
  return publicFormSaved(result);
}
