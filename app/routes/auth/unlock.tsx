import { LockOpen } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { unlockLinkAccount, useUnlockLink } from "#server/auth/unlock.server.ts";
import { formAction } from "#server/forms/form-action.server.ts";
import { Notice } from "#app/components/ui/notice.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { pageMeta } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/unlock";

/**
 * /auth/unlock?token=…: the "Unlock and sign in" link of the account-locked e-mail (decision
 * 0031). Opening it changes nothing (mail scanners open links); the button uses it up and gives
 * this browser the unlock pass, then the sign-in form. A plain form: works without JavaScript.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const account = await unlockLinkAccount(token);
  return { token, email: account?.email ?? null };
}

export function action({ request, context }: Route.ActionArgs) {
  return formAction(request, { form: "unlock" }, async (form) => {
    const used = await useUnlockLink(form.get("token"), context.clientIp ?? null);
    if (!used) return data({ ok: false as const }, { status: 410 });
    throw redirect(`/auth?unlocked=1`, { headers: { "Set-Cookie": used.cookie } });
  });
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Unlock your account",
    description: "Sign in to a locked NightWatch admin account from this browser.",
    noindex: true,
  });

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

export default function Unlock({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const dead = !loaderData.email || actionData?.ok === false;
  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <LockOpen aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">
            {dead ? "Link expired" : "Unlock and sign in"}
          </h1>
          {dead ? null : (
            <CardDescription>
              {loaderData.email} is locked after wrong passwords. This browser may sign in to it for
              the next hour, with its password (and its code, if two-factor sign-in is on).
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {dead ? (
            <Notice tone="error">
              <p>
                This unlock link has been used or has expired. The account unlocks by itself when
                its lock ends; a new lock sends a new link.
              </p>
              <p className="mt-2">
                <Link to="/auth" className={linkClass}>
                  Sign in
                </Link>
              </p>
            </Notice>
          ) : (
            <Form method="post" replace className="grid gap-4">
              <input type="hidden" name="token" value={loaderData.token} />
              <Button type="submit" disabled={submitting} className="w-full">
                {submitting ? "Unlocking..." : "Unlock and sign in"}
              </Button>
            </Form>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
