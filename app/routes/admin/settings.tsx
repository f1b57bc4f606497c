import { AdminPageHeader } from "#app/components/admin/admin-ui.tsx";
import { SellerSettingsForm } from "#app/components/admin/settings/seller-settings-form.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import {
  SELLER_SETTING_KEYS,
  SELLER_SETTINGS_INTENT,
  SELLER_SETTINGS_MESSAGES,
} from "#app/lib/admin/seller-settings.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { failure, success } from "#server/forms/form-post.server.ts";
import { saveSellerSettings, sellerSettingsScreen } from "#server/seller-settings.server.ts";
import type { Route } from "./+types/settings";

/**
 * /admin/settings (decision 0043): the seller's details, VAT, payment terms, bank details and
 * reminder days, as invoices and the footer use them. Saved values are checked as the
 * environment's are at start, audited and in force at once; issued documents keep theirs.
 */

export const meta: Route.MetaFunction = () => adminMeta("Settings");

export async function loader() {
  return { screen: await sellerSettingsScreen() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    {
      name: "settings",
      failureMessage: SELLER_SETTINGS_MESSAGES.failed,
      defaultIntent: SELLER_SETTINGS_INTENT,
    },
    {
      [SELLER_SETTINGS_INTENT]: async (form: FormData) => {
        const posted = Object.fromEntries(
          SELLER_SETTING_KEYS.map((key) => [key, form.get(key)]).filter(
            (entry): entry is [string, string] => typeof entry[1] === "string",
          ),
        );
        const saved = await saveSellerSettings(posted, admin);
        if (!saved.ok) {
          return failure(400, {
            form: SELLER_SETTINGS_INTENT,
            formData: form,
            names: SELLER_SETTING_KEYS,
            reason: "invalid",
            fieldErrors: saved.fieldErrors,
            message: SELLER_SETTINGS_MESSAGES.failed,
          });
        }
        return success(
          SELLER_SETTINGS_INTENT,
          saved.changed.length
            ? SELLER_SETTINGS_MESSAGES.saved
            : SELLER_SETTINGS_MESSAGES.unchanged,
        );
      },
    },
  );
}

export const clientAction = keepFormOnFailure;

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div>
      <AdminPageHeader
        title="Settings"
        description="Who sells, how VAT and payment work, and when unpaid invoices are reminded. New invoices, receipts and credit notes use these; documents already issued keep the values they were issued with."
      />
      <SellerSettingsForm
        screen={loaderData.screen}
        pageAnswer={actionData as FormAnswer | undefined}
      />
    </div>
  );
}
