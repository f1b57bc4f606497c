import { data, type ActionFunctionArgs } from "react-router";

/**
 * Placeholder until the visitor-forms work lands. Every page that shows an enquiry, licence
 * or course-quote form exports this as its action, so the forms work without JavaScript.
 */
export async function inquiryAction(_args: ActionFunctionArgs) {
  return data({ ok: false as const }, { status: 501 });
}
