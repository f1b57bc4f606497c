import { Suspense, type ReactNode } from "react";
import { Await, Link, data, redirect } from "react-router";
import { AlertTriangle, CheckCircle2, Clock, Loader2 } from "lucide-react";
import { CheckoutErrorBoundary } from "#app/components/checkout/course-not-found.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import type { BuyerOrderSummary, PaymentVerification } from "#app/lib/checkout.ts";
import { formatPence } from "#app/lib/format.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { loadSuccessPage } from "#server/payments/checkout.server.ts";
import type { Route } from "./+types/success";

const TRAINING_PATH = "/services/counter-fraud-training";

export async function loader({ params, request }: Route.LoaderArgs) {
  const page = await loadSuccessPage(params.slug, request);
  if (!page) throw data(null, { status: 404 });
  // Nothing to confirm: back to the course.
  if (page.kind === "none") throw redirect(`/courses/${encodeURIComponent(page.course.slug)}`);
  // The card outcome is returned unawaited: the page streams while Stripe is asked.
  return page;
}

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.kind === "invoice" ? "Booking Confirmed" : "Payment",
    description: "The outcome of your course booking.",
    noindex: true,
  });

export default function Success({ loaderData }: Route.ComponentProps) {
  const { course } = loaderData;
  const links = <OutcomeLinks slug={course.slug} />;
  if (loaderData.kind === "invoice") {
    return (
      <Outcome
        icon={<CheckCircle2 className="size-14 text-success" aria-hidden />}
        title="Booking Confirmed!"
        lead={`Your booking for ${course.title} has been submitted successfully.`}
        links={links}
      >
        {loaderData.order ? <OrderSummary order={loaderData.order} /> : null}
        <h2 className="text-lg font-semibold">Next steps</h2>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-left text-muted-foreground">
          <li>Our team will review your booking request.</li>
          <li>You'll receive an invoice by email within 24 hours.</li>
          <li>Course access will be provided once payment is received.</li>
          <li>Joining instructions will be sent to each student.</li>
        </ol>
      </Outcome>
    );
  }
  return (
    <Suspense fallback={<Verifying />}>
      <Await
        resolve={loaderData.outcome}
        errorElement={<VerificationFailed slug={course.slug} kind="error" />}
      >
        {(outcome) => (
          <CardOutcome
            verification={outcome.verification}
            order={outcome.order}
            courseTitle={course.title}
            slug={course.slug}
          />
        )}
      </Await>
    </Suspense>
  );
}

function Verifying() {
  return (
    <section
      className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center"
      aria-busy="true"
    >
      <Loader2 className="size-12 animate-spin text-primary" aria-hidden />
      <h1 className="mt-6 text-2xl font-semibold" role="status">
        Verifying payment...
      </h1>
      <p className="mt-2 text-muted-foreground">
        This takes a moment. Please don't close this page.
      </p>
    </section>
  );
}

/**
 * The order as its buyer sees it: the reference to quote, the course, the places and the total.
 * Only the browser that placed the order is given it (the loader decides).
 */
function OrderSummary({ order }: { order: BuyerOrderSummary }) {
  return (
    <section aria-labelledby="order-summary-title" className="mb-6 text-left">
      <h2 id="order-summary-title" className="text-lg font-semibold">
        Your order
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-muted-foreground">Order reference</dt>
        <dd data-testid="order-reference" className="font-mono text-foreground">
          {order.reference}
        </dd>
        <dt className="text-muted-foreground">Course</dt>
        <dd data-testid="order-course">{order.courseTitle}</dd>
        <dt className="text-muted-foreground">Places</dt>
        <dd data-testid="order-places">{order.places}</dd>
        <dt className="text-muted-foreground">Total</dt>
        <dd data-testid="order-total" className="font-semibold">
          {formatPence(order.totalCents)}
          {order.vatCents > 0 ? (
            <span className="font-normal text-muted-foreground">
              {" "}
              (including VAT of {formatPence(order.vatCents)})
            </span>
          ) : null}
        </dd>
      </dl>
      <p className="mt-3 text-sm text-muted-foreground">
        Please quote your order reference in any message about this booking.
      </p>
    </section>
  );
}

function CardOutcome({
  verification,
  order,
  courseTitle,
  slug,
}: {
  verification: PaymentVerification;
  order: BuyerOrderSummary | null;
  courseTitle: string;
  slug: string;
}) {
  if (verification.kind !== "paid")
    return <VerificationFailed slug={slug} kind={verification.kind} />;
  return (
    <Outcome
      icon={<CheckCircle2 className="size-14 text-success" aria-hidden />}
      title="Payment Successful!"
      lead={`Thank you. Your payment for ${courseTitle} has been received.`}
      links={<OutcomeLinks slug={slug} />}
    >
      {order ? <OrderSummary order={order} /> : null}
      <ul className="space-y-2 text-left text-muted-foreground">
        <li>You will receive a confirmation email shortly.</li>
        <li>Course access details will be sent within 24 hours.</li>
        <li>Please check your spam folder if you don't see our email.</li>
      </ul>
    </Outcome>
  );
}

const FAILURES: Record<
  Exclude<PaymentVerification["kind"], "paid">,
  { title: string; text: string; retry: boolean }
> = {
  processing: {
    title: "Payment Processing",
    text: "Your payment has been submitted and is still being processed by your bank. We'll email you as soon as it is confirmed; there is nothing more to do now.",
    retry: false,
  },
  not_paid: {
    title: "Payment Not Completed",
    text: "We could not find a completed payment for this booking, and no charge has been made. You can try again.",
    retry: true,
  },
  conflict: {
    title: "Payment Needs Attention",
    text: "We received your payment, but this booking had already been cancelled. Our team has been alerted and will refund you in full; if you still want the places, please contact us.",
    retry: false,
  },
  not_found: {
    title: "Payment Not Verified",
    text: "We could not match this payment to a booking for this course. If you were charged, please contact us with the email address you paid with.",
    retry: false,
  },
  error: {
    title: "Payment Not Verified",
    text: "We could not confirm your payment just now. If you completed it, a confirmation email will follow; otherwise please reload this page in a moment or contact us.",
    retry: false,
  },
};

function VerificationFailed({
  slug,
  kind,
}: {
  slug: string;
  kind: Exclude<PaymentVerification["kind"], "paid">;
}) {
  const failure = FAILURES[kind];
  const icon =
    kind === "processing" ? (
      <Clock className="size-14 text-info" aria-hidden />
    ) : (
      <AlertTriangle className="size-14 text-warning" aria-hidden />
    );
  return (
    <Outcome
      icon={icon}
      title={failure.title}
      lead={failure.text}
      links={
        <>
          {failure.retry ? (
            <Link to={`/courses/${encodeURIComponent(slug)}/checkout`} className={buttonVariants()}>
              Try Again
            </Link>
          ) : (
            <Link to="/contact" className={buttonVariants()}>
              Contact Us
            </Link>
          )}
          <OutcomeLinks slug={slug} />
        </>
      }
    />
  );
}

function OutcomeLinks({ slug }: { slug: string }) {
  return (
    <>
      <Link to={TRAINING_PATH} className={buttonVariants({ variant: "outline" })}>
        View More Courses
      </Link>
      <Link
        to={`/courses/${encodeURIComponent(slug)}`}
        className={buttonVariants({ variant: "ghost" })}
      >
        Back to Course
      </Link>
    </>
  );
}

function Outcome({
  icon,
  title,
  lead,
  links,
  children,
}: {
  icon: ReactNode;
  title: string;
  lead: string;
  links: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center">
      {icon}
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-3 text-lg text-muted-foreground">{lead}</p>
      {children ? (
        <div className="mt-8 w-full rounded-lg border border-border bg-card p-6">{children}</div>
      ) : null}
      <div className="mt-8 flex flex-wrap justify-center gap-3">{links}</div>
    </section>
  );
}

export const ErrorBoundary = CheckoutErrorBoundary;
