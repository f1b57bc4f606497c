import { Link } from "react-router";
import { newsletterAction } from "#server/forms/newsletter-action.server.ts";
import {
  NEWSLETTER_ANSWER_ID,
  NewsletterForm,
  newsletterMessage,
} from "#app/components/forms/newsletter-form.tsx";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/newsletter";
import { keepFormOnFailure } from "#app/lib/forms.ts";

/**
 * POST /newsletter: the footer form's action. With JavaScript the footer reads the answer
 * through a fetcher; without it this page shows the answer and a way back.
 */
export const action = newsletterAction;
export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Newsletter",
    description: "Threat intelligence briefings and new course dates from NightWatch.",
    noindex: true,
  });

export default function NewsletterPage({ actionData }: Route.ComponentProps) {
  const result = actionData;
  const message = result ? newsletterMessage(result) : undefined;
  const back =
    result && "returnTo" in result && typeof result.returnTo === "string" ? result.returnTo : "/";
  return (
    // The forms post to this section's fragment: without JavaScript the answer opens in view.
    <section id={NEWSLETTER_ANSWER_ID} className="mx-auto max-w-xl px-4 py-20">
      {message ? (
        <div
          role={result?.ok ? "status" : "alert"}
          className={
            result?.ok
              ? "rounded-lg border border-success/60 bg-success/10 p-6"
              : "rounded-lg border border-destructive/60 bg-destructive/10 p-6"
          }
        >
          <h1 className="text-2xl font-bold">{message.title}</h1>
          <p className="mt-2 text-muted-foreground">{message.description}</p>
        </div>
      ) : (
        <>
          <h1 className="text-2xl font-bold">Stay Updated</h1>
          <p className="mt-2 text-muted-foreground">
            Threat intelligence briefings and new course dates, a few times a year.
          </p>
        </>
      )}
      {!result?.ok ? (
        <div className="mt-8">
          <NewsletterForm
            id="newsletter-page-form"
            consentPage="newsletter_page"
            label="Subscribe to the newsletter"
          />
        </div>
      ) : null}
      <p className="mt-8">
        <Link to={back} className="text-primary underline underline-offset-4">
          Back to the page you were on
        </Link>
      </p>
    </section>
  );
}
