import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { failure, invalid, success } from "#server/forms/form-post.server.ts";
import {
  inviteAdmin,
  listStaff,
  removeAdmin,
  resendInvitation,
  resetTwoFactor,
} from "#server/staff.server.ts";
import { StaffPageView } from "#app/components/admin/staff/staff-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import { staffInviteSchema, staffMemberSchema } from "#app/lib/admin/staff.ts";
import type { Route } from "./+types/staff";

/**
 * /admin/staff (decision 0018): the admins; invite, resend an invitation, reset a colleague's
 * two-factor sign-in, remove. The rules are in
 * server/staff.server.ts; every change is written to the audit log with its transaction.
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = signedInAdmin(context);
  const staff = await listStaff();
  const asked = new URL(request.url).searchParams;
  const other = (id: string | null) =>
    (id && id !== admin.id && staff.find((s) => s.id === id)) || null;
  const resetting = other(asked.get("reset-two-factor"));
  return {
    staff,
    meId: admin.id,
    removing: other(asked.get("remove")),
    resettingTwoFactor: resetting?.twoFactorEnabled ? resetting : null,
  };
}

const REMOVE_REFUSED = {
  self: [403, "You cannot remove your own account."],
  actor_gone: [403, "Your own account has just been removed."],
  last_admin: [409, "The last admin who can sign in cannot be removed."],
  not_found: [404, "This admin no longer exists."],
} as const;

const RESET_REFUSED = {
  self: [403, "Change your own two-factor sign-in under My Account."],
  not_found: [404, "This admin no longer exists."],
  not_enabled: [409, "Two-factor sign-in is already off for this admin."],
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
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
      "reset-two-factor": async (form, refuse) => {
        const parsed = parseForm(form, staffMemberSchema);
        if (!parsed.ok) return refuse(400);
        const result = await resetTwoFactor(admin, parsed.value.userId);
        if (!result.ok) {
          const [status, message] = RESET_REFUSED[result.reason];
          return refuse(status, message);
        }
        return success(
          "reset-two-factor",
          `Two-factor sign-in reset for ${result.email}: they are signed out and sign in next with their password alone.`,
          { email: result.email },
        );
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
      resettingTwoFactor={loaderData.resettingTwoFactor}
      answer={actionData}
    />
  );
}
