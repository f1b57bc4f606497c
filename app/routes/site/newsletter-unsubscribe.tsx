import { data, Form, Link, useNavigation } from "react-router";
import {
  checkUnsubscribeToken,
  unsubscribe,
  type UnsubscribeResult,
} from "#server/newsletter/unsubscribe.server.ts";
import { Button } from "#app/components/ui/button.tsx";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/newsletter-unsubscribe";

/**
 * /newsletter/unsubscribe?token=… — the welcome e-mail's one-click link (decision 0021). GET
 * only shows the button (link scanners fetch GETs); the POST, from the button or a mail client
 * (RFC 8058, no cookies, any Origin), ends the subscription. The signed token is the authority.
 */

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token") ?? "";

export function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(request);
  const check = checkUnsubscribeToken(token);
  return data({ token, check }, { status: check === "valid" ? 200 : 400 });
}

export async function action({ request }: Route.ActionArgs) {
  // The body (a mail client's `List-Unsubscribe=One-Click`) says nothing the URL does not.
  const result = await unsubscribe(tokenOf(request));
  return data({ result }, { status: result === "invalid" ? 400 : 200 });
}

// The link is personal: never kept by a cache, never indexed.
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
});

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Unsubscribe",
    description: "Leave the NightWatch newsletter.",
    noindex: true,
  });

const INVALID = {
  title: "This unsubscribe link is not valid",
  text: "The link may have been cut short or changed. Please use the whole link from the e-mail, or contact us and we will remove your address.",
};

const ANSWERS: Record<Exclude<UnsubscribeResult, "invalid">, { title: string; text: string }> = {
  unsubscribed: {
    title: "You have been unsubscribed",
    text: "You will not receive the NightWatch newsletter any more. You can subscribe again at any time.",
  },
  already_unsubscribed: {
    title: "You are already unsubscribed",
    text: "This address no longer receives the NightWatch newsletter.",
  },
  not_found: {
    title: "You are not subscribed",
    text: "We hold no newsletter subscription for this link, so you will receive nothing from it.",
  },
};

export default function NewsletterUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData?.result ?? (loaderData.check === "invalid" ? "invalid" : null);
  const answer = result === "invalid" ? INVALID : result ? ANSWERS[result] : null;
  return (
    <section className="mx-auto max-w-xl px-4 py-20">
      {answer ? (
        <div
          role={result === "invalid" ? "alert" : "status"}
          className={
            result === "invalid"
              ? "rounded-lg border border-destructive/60 bg-destructive/10 p-6"
              : "rounded-lg border border-success/60 bg-success/10 p-6"
          }
        >
          <h1 className="text-2xl font-bold">{answer.title}</h1>
          <p className="mt-2 text-muted-foreground">{answer.text}</p>
        </div>
      ) : (
        <>
          <h1 className="text-2xl font-bold">Unsubscribe from the newsletter</h1>
          <p className="mt-2 text-muted-foreground">
            Press the button to stop receiving the NightWatch newsletter at this address.
          </p>
          <Form
            method="post"
            action={`/newsletter/unsubscribe?token=${encodeURIComponent(loaderData.token)}`}
            className="mt-6"
          >
            <Button type="submit" disabled={busy}>
              {busy ? "Unsubscribing..." : "Unsubscribe"}
            </Button>
          </Form>
        </>
      )}
      <p className="mt-8">
        <Link to="/" className="text-primary underline underline-offset-4">
          Back to the home page
        </Link>
      </p>
    </section>
  );
}
