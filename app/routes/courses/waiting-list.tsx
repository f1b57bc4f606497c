import { Link, data, redirect } from "react-router";
import { ArrowLeft } from "lucide-react";
import { CheckoutErrorBoundary } from "#app/components/checkout/course-not-found.tsx";
import { WaitingListForm } from "#app/components/site/waiting-list-form.tsx";
import { COURSE_DATE_PARAM, formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { loadWaitingListPage } from "#server/catalogue/waiting-list.server.ts";
import { waitingListAction } from "#server/forms/waiting-list-action.server.ts";
import type { Route } from "./+types/waiting-list";

/**
 * /courses/:slug/waiting-list (decision 0034): `?date=<id>` joins a full date's waiting list;
 * without a date, a course with no dates to come takes 'tell me when dates are announced'.
 * Anything else (a date no longer open, a course with dates) leads back to the course's dates.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const dateId = new URL(request.url).searchParams.get(COURSE_DATE_PARAM);
  const page = await loadWaitingListPage(params.slug, dateId);
  if (!page) throw data({ reason: "course_not_found" }, { status: 404 });
  if (page.kind === "course") throw redirect(`/courses/${encodeURIComponent(page.slug)}#dates`);
  return page;
}

export const action = waitingListAction;
export const clientAction = keepFormOnFailure;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = (args) => {
  const title = args.loaderData?.course.title;
  return pageMeta(args, {
    title: title ? `Waiting list: ${title}` : "Course Not Found",
    description: title ? `Hear first when places on ${title} free up.` : "",
    noindex: true,
  });
};

export default function WaitingList({ loaderData }: Route.ComponentProps) {
  const page = loaderData;
  const coursePath = `/courses/${encodeURIComponent(page.course.slug)}`;
  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:py-14">
      <Link
        to={`${coursePath}#dates`}
        className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Back to Course
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">
        {page.kind === "date" ? "Join the Waiting List" : "Tell Me When Dates Are Announced"}
      </h1>
      <p className="mt-2 text-muted-foreground">
        <span className="text-foreground">{page.course.title}</span>
        {page.kind === "date" ? (
          <>
            ,{" "}
            <time dateTime={page.date.startsAt}>
              {formatDateRange(page.date.startsAt, page.date.endsAt)}
            </time>
          </>
        ) : null}
      </p>
      <p className="mt-4 text-sm text-muted-foreground">
        {page.kind === "date"
          ? page.date.placesLeft > 0
            ? `This date has ${page.date.placesLeft === 1 ? "1 place" : `${page.date.placesLeft} places`} left. Need more? Join the waiting list: when places free up we offer them in the order people joined, by e-mail, and hold them for you for a while.`
            : "This date is fully booked. When places free up we offer them in the order people joined, by e-mail, and hold them for you for a while."
          : "This course has no dates to come yet. Leave your name and e-mail address and we will send you one e-mail when a new date is announced."}
      </p>
      <div className="mt-8">
        <WaitingListForm dateId={page.kind === "date" ? page.date.id : null} />
      </div>
    </div>
  );
}

export const ErrorBoundary = CheckoutErrorBoundary;
