import { CircleAlert, LoaderCircle, LockKeyhole } from "lucide-react";
import { Form, replace, useNavigation } from "react-router";
import { z } from "zod/mini";
import { getAdmin, signInWithPassword } from "#server/auth.server.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { pageMeta } from "#app/lib/seo.ts";
import { keepFormOnFailure, parseForm } from "#app/lib/forms.ts";
import { failure, readPostedForm, unreadable } from "#server/forms/form-post.server.ts";
import type { Route } from "./+types/sign-in";

/**
 * /auth 'Admin Access'. A plain form posting to this route's action, which signs in through
 * better-auth on the server and sets its session cookie: it works without JavaScript.
 */

export async function loader({ request }: Route.LoaderArgs) {
  if (await getAdmin(request)) throw replace("/admin/dashboard");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const posted = await readPostedForm(request);
  if (!posted.ok) return unreadable("sign-in", posted);
  const form = posted.formData;
  const refuse = (status: number, message: string) =>
    failure(status, { form: "sign-in", formData: form, names: ["email"], message });
  const parsed = parseForm(form, signInSchema);
  if (!parsed.ok) return refuse(400, "Please enter your email and password.");
  const result = await signInWithPassword(request, parsed.value, context.clientIp);
  if (!result.ok) return refuse(result.status, result.message);
  throw replace("/admin/dashboard", { headers: result.headers });
}

export const clientAction = (args: Route.ClientActionArgs) => keepFormOnFailure(args);

// Answers depend on the visitor's session: never kept by a shared cache.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Admin Access",
    description: "Staff sign-in for the NightWatch admin area.",
    noindex: true,
  });

const signInSchema = z.object({
  email: z.string().check(z.trim(), z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(1024)),
});

export default function SignIn({ actionData }: Route.ComponentProps) {
  const error = actionData && !actionData.ok ? actionData.message : undefined;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/auth";
  return (
    <section className="mx-auto flex max-w-md flex-col px-4 py-16 md:py-24">
      <Card>
        <CardHeader className="items-center text-center">
          <LockKeyhole aria-hidden className="size-8 text-primary" />
          <h1 className="text-2xl leading-tight font-semibold tracking-tight">Admin Access</h1>
          <CardDescription>Sign in with your admin e-mail and password.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" replace className="grid gap-4">
            {error ? (
              <div
                role="alert"
                className="flex items-start gap-2 rounded-md border border-destructive bg-destructive/10 p-3 text-sm text-destructive"
              >
                <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                <p>{error}</p>
              </div>
            ) : null}
            <div className="grid gap-2">
              <Label htmlFor="auth-email">Email</Label>
              <Input
                id="auth-email"
                name="email"
                type="email"
                autoComplete="username"
                required
                defaultValue={(actionData && !actionData.ok && actionData.values?.email) || ""}
                aria-invalid={error ? true : undefined}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="auth-password">Password</Label>
              <Input
                id="auth-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                aria-invalid={error ? true : undefined}
              />
            </div>
            <a
              href="/auth/forgot-password"
              className="-mt-2 justify-self-end text-sm text-primary underline underline-offset-4"
            >
              Forgot password?
            </a>
            <Button type="submit" disabled={submitting} className="w-full">
              {submitting ? <LoaderCircle aria-hidden className="animate-spin" /> : null}
              {submitting ? "Signing in..." : "Sign In"}
            </Button>
          </Form>
        </CardContent>
      </Card>
    </section>
  );
}
