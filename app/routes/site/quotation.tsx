import { data } from "react-router";
import { QuotationView } from "#app/components/site/quotation-view.tsx";
import { keepFormOnFailure, type FormAnswer } from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { quotePageAction } from "#server/forms/quote-actions.server.ts";
import { customerQuote } from "#server/quotes/acceptance.server.ts";
import type { Route } from "./+types/quotation";

/**
 * /quotes/:token, the customer's quotation (decision 0049) by its signed link: the quote as sent,
 * its PDF, and "Accept" (name, role, PO number) or "Decline" while it is open. Works without
 * JavaScript; never cached, never indexed, and no referrer leaves it (the link is the key).
 */

export async function loader({ params }: Route.LoaderArgs) {
  const found = await customerQuote(params.token);
  if (!found.ok) {
    const status = found.reason === "expired_link" ? 410 : 404;
    throw data({ status }, { status });
  }
  return { quote: found.quote };
}

export const action = quotePageAction;
export const clientAction = keepFormOnFailure;

export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
});

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, {
    title: args.loaderData ? `Quotation ${args.loaderData.quote.snapshot.number}` : "Quotation",
    description: "Your quotation from NightWatch.",
    noindex: true,
  }),
  { name: "referrer", content: "same-origin" },
];

export default function Quotation({ loaderData, actionData, params }: Route.ComponentProps) {
  return (
    <QuotationView
      quote={loaderData.quote}
      pdfHref={`/quotes/${params.token}/pdf`}
      answer={actionData as FormAnswer | undefined}
    />
  );
}
