import { ArrowLeft } from "lucide-react";
import { Link, isRouteErrorResponse, useRouteError } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";

/** The checkout pages' error view: 'Course Not Found' for a 404, else a generic apology. */
export function CheckoutErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">
        {notFound ? "Course Not Found" : "Something went wrong"}
      </h1>
      <p className="mt-4 text-muted-foreground">
        {notFound
          ? "The course you are looking for does not exist or is no longer available."
          : "Please try again in a moment. If it keeps happening, contact us."}
      </p>
      <Link
        to="/services/counter-fraud-training"
        className={`${buttonVariants({ variant: "outline" })} mt-8`}
      >
        <ArrowLeft aria-hidden />
        Back to Training
      </Link>
    </section>
  );
}
