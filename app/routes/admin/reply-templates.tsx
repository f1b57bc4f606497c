import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { replyTemplateIntents } from "#server/forms/inquiry-actions.server.ts";
import { listReplyTemplates } from "#server/inquiries/reply-templates.server.ts";
import { ReplyTemplatesView } from "#app/components/admin/reply-templates.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import type { Route } from "./+types/reply-templates";

/** The reply composer's templates (decision 0048): staff add, edit and delete them here. */
export async function loader() {
  return { templates: await listReplyTemplates() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "reply-templates", failureMessage: "Failed to save template" },
    replyTemplateIntents(admin),
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("Reply templates");

export default function ReplyTemplates({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ReplyTemplatesView
      templates={loaderData.templates}
      answer={actionData as FormAnswer | undefined}
    />
  );
}
