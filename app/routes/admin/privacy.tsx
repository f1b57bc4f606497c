import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { success } from "#server/forms/form-post.server.ts";
import { personalDataSummary } from "#server/privacy/find.server.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { PrivacyPage } from "#app/components/admin/privacy/privacy-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import { parsePrivacyQuery, privacyEraseSchema } from "#app/lib/admin/privacy.ts";
import type { Route } from "./+types/privacy";

/** Data Requests (decision 0020): GET ?email= finds what is held; the erase form posts here. */
export async function loader({ request }: Route.LoaderArgs) {
  const query = parsePrivacyQuery(new URL(request.url).searchParams);
  return { query, data: query.state === "ok" ? await personalDataSummary(query.email) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "privacy", failureMessage: "Failed to erase personal data" },
    {
      erase: async (form, refuse) => {
        const parsed = parseForm(form, privacyEraseSchema);
        if (!parsed.ok) return refuse(400);
        const { message } = await erasePersonalData(parsed.value.email, admin);
        return success("erase", message);
      },
    },
  );
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = () => adminMeta("Data Requests");

export default function Privacy({ loaderData, actionData }: Route.ComponentProps) {
  return <PrivacyPage query={loaderData.query} data={loaderData.data} answer={actionData} />;
}
