import { signedInAdmin } from "#server/auth/guard.server.ts";
import { adminFormAction } from "#server/forms/admin-form.server.ts";
import { saveQuoteIntent } from "#server/forms/quote-admin-actions.server.ts";
import { newQuoteValues } from "#server/quotes/admin.server.ts";
import { BackToQuotes } from "#app/components/admin/quotes/quote-parts.tsx";
import { QuoteEditor } from "#app/components/admin/quotes/quote-editor.tsx";
import { adminMeta } from "#app/lib/admin/nav.ts";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import type { Route } from "./+types/quote-new";

/** A new quote (decision 0049), from an enquiry (`?inquiry=`) or from nothing; saved as a draft. */
export async function loader({ request }: Route.LoaderArgs) {
  return { values: await newQuoteValues(new URL(request.url).searchParams.get("inquiry")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = signedInAdmin(context);
  return adminFormAction(
    request,
    { name: "quote-new", failureMessage: "Failed to save quote" },
    { save: saveQuoteIntent(null, admin) },
  );
}

export const clientAction = keepFormOnFailure;

export const meta: Route.MetaFunction = () => adminMeta("New quote");

export default function QuoteNew({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <BackToQuotes />
      <h1 className="mb-6 text-2xl font-bold tracking-tight md:text-3xl">New quote</h1>
      <QuoteEditor
        values={loaderData.values}
        answer={actionData as FormAnswer | undefined}
        submitLabel="Save draft"
      />
    </>
  );
}
