import { data } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import {
  inquiryAssignIntent,
  inquiryNoteIntent,
  inquiryReplyIntent,
} from "#server/forms/inquiry-actions.server.ts";
import { inquiryPage } from "#server/inquiries/thread.server.ts";
import { AdminNotFoundView } from "#app/components/admin/admin-not-found.tsx";
import { InquiryPageView } from "#app/components/admin/inquiry-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, newSubmissionKey, type FormAnswer } from "#app/lib/forms.ts";
import { TEMPLATE_PARAM } from "#app/lib/inquiries/thread.ts";
import type { Route } from "./+types/inquiry";

/**
 * One enquiry's page (decision 0048), opened from the Inquiries list: its message, the replies
 * sent from here and the composer, status, owner, follow-up date and notes. An unknown or
 * malformed id is the admin not-found view (404).
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const templateId = new URL(request.url).searchParams.get(TEMPLATE_PARAM);
  const page = await inquiryPage(params.inquiryId, templateId);
  if (!page) return data({ page: null, composerKey: "" }, { status: 404 });
  // Read with the page, so the server's render and the browser's hydration carry the same key.
  return { page, composerKey: newSubmissionKey() };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "inquiry", failureMessage: "Failed to update inquiry" },
    {
      reply: inquiryReplyIntent(params.inquiryId, admin),
      note: inquiryNoteIntent(params.inquiryId, admin),
      assign: inquiryAssignIntent(params.inquiryId, admin),
    },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData?.page ? `Inquiry from ${loaderData.page.inquiry.name}` : "Not found");

export default function Inquiry({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.page) {
    return (
      <AdminNotFoundView detail="There is no inquiry with this link: it may have been deleted." />
    );
  }
  return (
    <InquiryPageView
      page={loaderData.page}
      composerKey={loaderData.composerKey}
      answer={actionData as FormAnswer | undefined}
    />
  );
}
