import { data } from "react-router";
import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { quoteIntents } from "#server/forms/quote-admin-actions.server.ts";
import { adminQuotePage } from "#server/quotes/admin.server.ts";
import { AdminNotFoundView } from "#app/components/admin/admin-not-found.tsx";
import { QuotePageView } from "#app/components/admin/quotes/quote-page.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import type { Route } from "./+types/quote";

/** One quote's page (decision 0049): a draft's editor and "Send", or a sent quote's outcome. */
export async function loader({ params }: Route.LoaderArgs) {
  const page = await adminQuotePage(params.quoteId);
  if (!page) return data({ page: null }, { status: 404 });
  return { page };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "quote", failureMessage: "Failed to update quote" },
    quoteIntents(params.quoteId, admin),
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData?.page ? (loaderData.page.quote.number ?? "Draft quote") : "Not found");

export default function Quote({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.page) return <AdminNotFoundView detail="There is no quote with this link." />;
  return <QuotePageView page={loaderData.page} answer={actionData as FormAnswer | undefined} />;
}
