import { Link, data } from "react-router";
import { XCircle } from "lucide-react";
import { CheckoutErrorBoundary } from "#app/components/checkout/course-not-found.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { loadCanceledPage } from "#server/payments/checkout.server.ts";
import type { Route } from "./+types/canceled";

export async function loader({ params }: Route.LoaderArgs) {
  const course = await loadCanceledPage(params.slug);
  if (!course) throw data(null, { status: 404 });
  return { course };
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Payment Canceled",
    description: "Your payment was cancelled. No charges were made.",
    noindex: true,
  });

export default function Canceled({ loaderData }: Route.ComponentProps) {
  const slug = encodeURIComponent(loaderData.course.slug);
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center">
      <XCircle className="size-14 text-muted-foreground" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">Payment Canceled</h1>
      <p className="mt-3 text-lg text-muted-foreground">
        Your payment for {loaderData.course.title} was cancelled. No charges were made.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={`/courses/${slug}/checkout`} className={buttonVariants()}>
          Try Again
        </Link>
        <Link to={`/courses/${slug}`} className={buttonVariants({ variant: "outline" })}>
          Back to Course
        </Link>
      </div>
    </section>
  );
}

export const ErrorBoundary = CheckoutErrorBoundary;
