import { requireAdmin } from "#server/auth.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { failure, invalid, success } from "#server/forms/form-post.server.ts";
import { inviteAdmin, listStaff, removeAdmin, resendInvitation } from "#server/staff.server.ts";
import { StaffPageView } from "#app/components/admin/staff/staff-page.tsx";
import { adminMeta } from "#app/lib/admin-nav.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import { staffInviteSchema, staffMemberSchema } from "#app/lib/staff.ts";
import type { Route } from "./+types/staff";

/**
 * /admin/staff (issue 17): the admins; invite, resend an invitation, remove. The rules are in
 * server/staff.server.ts; every change is written to the audit log with its transaction.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const staff = await listStaff();
  const removeId = new URL(request.url).searchParams.get("remove");
  return {
    staff,
    meId: admin.id,
    removing: (removeId && removeId !== admin.id && staff.find((s) => s.id === removeId)) || null,
  };
}

const REMOVE_REFUSED = {
  self: [403, "You cannot remove your own account."],
  actor_gone: [403, "Your own account has just been removed."],
  last_admin: [409, "The last admin who can sign in cannot be removed."],
  not_found: [404, "This admin no longer exists."],
} as const;

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return adminFormAction(
    request,
    { name: "staff", failureMessage: "Failed to update staff" },
    {
      invite: async (form) => {
        const parsed = parseForm(form, staffInviteSchema);
        if (!parsed.ok) {
          return invalid("invite", form, ["email"], parsed.fieldErrors, "Failed to invite admin");
        }
        const result = await inviteAdmin(admin, parsed.value.email);
        if (!result.ok) {
          const message = `${result.email} is already an admin.`;
          return failure(409, {
            form: "invite",
            formData: form,
            names: ["email"],
            reason: "duplicate",
            fieldErrors: { email: message },
            message,
          });
        }
        return success(
          "invite",
          result.emailQueued
            ? `Invitation sent to ${result.email}`
            : `${result.email} was added, but the invitation e-mail could not be sent: use Resend invitation.`,
          { email: result.email },
        );
      },
      resend: async (form, refuse) => {
        const parsed = parseForm(form, staffMemberSchema);
        if (!parsed.ok) return refuse(400);
        const result = await resendInvitation(admin, parsed.value.userId);
        if (!result.ok) {
          return result.reason === "not_found"
            ? refuse(404, "This admin no longer exists.")
            : refuse(409, `${result.email} has already set their password.`);
        }
        if (!result.emailQueued) return refuse(500, "The invitation e-mail could not be sent.");
        return success("resend", `Invitation resent to ${result.email}`, { email: result.email });
      },
      remove: async (form, refuse) => {
        const parsed = parseForm(form, staffMemberSchema);
        if (!parsed.ok) return refuse(400);
        const result = await removeAdmin(admin, parsed.value.userId);
        if (!result.ok) {
          const [status, message] = REMOVE_REFUSED[result.reason];
          return refuse(status, message);
        }
        return success("remove", `${result.email} removed`, { email: result.email });
      },
    },
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = () => adminMeta("Staff");

export default function Staff({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <StaffPageView
      staff={loaderData.staff}
      meId={loaderData.meId}
      removing={loaderData.removing}
      answer={actionData}
    />
  );
}
