import { CalendarClock, ExternalLink, Monitor, Users } from "lucide-react";
import { Link } from "react-router";
import { CourseQuoteDialog } from "#app/components/forms/course-quote-dialog.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  ALL_DATES_PARAM,
  ALL_DATES_VALUE,
  COURSE_DATE_PARAM,
  DATES_SHOWN,
  datePlace,
  formatDateRange,
  placesLeftText,
  type PublicCourseDate,
} from "#app/lib/catalogue/course-dates.ts";
import { offersWaitingList, waitingListPath } from "#app/lib/catalogue/waiting-list.ts";
import { formatPence } from "#app/lib/format.ts";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";
import { cn } from "#app/lib/ui/cn.ts";

/**
 * The course page's booking card (decision 0033): a partner's course goes to the partner; the
 * provider's own lists its dates to come, each with places left and "Book this date" (or its
 * waiting list), else books on demand; a classroom class for a group is always quoted for.
 */

export function PartnerBooking({
  partner,
  buyUrl,
  title,
}: {
  partner: { name: string };
  buyUrl: string | null;
  title: string;
}) {
  return (
    <div className="space-y-4">
      {/* The partner's logo is in the hero, above the fold on every screen. */}
      <p className="text-sm text-muted-foreground">
        This course is delivered in partnership with{" "}
        <span className="font-medium text-foreground">{partner.name}</span>, who handle booking and
        payment.
      </p>
      {buyUrl ? (
        <a
          href={buyUrl}
          target="_blank"
          rel="noopener noreferrer"
          className={`${buttonVariants({ size: "lg" })} w-full`}
        >
          Buy Now
          <ExternalLink aria-hidden />
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : (
        <Link
          to={quoteLink("counter-fraud-training")}
          className={`${buttonVariants({ size: "lg" })} w-full`}
        >
          Contact us to book
          <span className="sr-only"> {title}</span>
        </Link>
      )}
    </div>
  );
}

/**
 * The provider's own course: booked online through the checkout when it has a price; without
 * one, an online place is quoted for (the checkout would not sell it). A classroom class is
 * always quoted.
 */
export function ProviderBooking({
  course,
  dates,
  allDates,
}: {
  course: { id: string; slug: string; title: string; bookableOnline: boolean };
  dates: PublicCourseDate[];
  /** Whether every date is listed (`?dates=all`), not just the first few. */
  allDates: boolean;
}) {
  return (
    <div className="space-y-3">
      {dates.length > 0 ? (
        <CourseDates slug={course.slug} title={course.title} dates={dates} all={allDates} />
      ) : course.bookableOnline ? (
        <Link
          to={`/courses/${course.slug}/checkout`}
          className={`${buttonVariants({ size: "lg" })} w-full`}
        >
          <Monitor aria-hidden />
          Book an Online Course
        </Link>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            This course has no online price yet. Tell us how many people you'd like to train and our
            training team will send you a quote within 24 hours.
          </p>
          <CourseQuoteDialog course={{ id: course.id, title: course.title }} modality="online">
            <Button size="lg" className="w-full">
              <Monitor aria-hidden />
              Request a Quote
            </Button>
          </CourseQuoteDialog>
        </>
      )}
      {dates.length === 0 ? (
        <Link
          to={waitingListPath(course.slug, null)}
          className={cn(buttonVariants({ variant: "outline", size: "lg" }), "w-full")}
        >
          <CalendarClock aria-hidden />
          Tell me when dates are announced
        </Link>
      ) : null}
      <CourseQuoteDialog course={{ id: course.id, title: course.title }} modality="face_to_face">
        <Button variant="outline" size="lg" className="w-full">
          <Users aria-hidden />
          Book a Classroom Class
        </Button>
      </CourseQuoteDialog>
      <p className="pt-1 text-sm text-muted-foreground">
        Training a bigger group? A classroom class, at your premises or ours, is usually the better
        choice for five or more delegates. We will send you a quote tailored to your team.
      </p>
    </div>
  );
}

/**
 * The course's dates to come, each with its places left and a way to book it: the first few, and
 * a link to the page listing them all.
 */
function CourseDates({
  slug,
  title,
  dates,
  all,
}: {
  slug: string;
  title: string;
  dates: PublicCourseDate[];
  all: boolean;
}) {
  const shown = all ? dates : dates.slice(0, DATES_SHOWN);
  return (
    <section id="dates" aria-labelledby="course-dates-title" className="scroll-mt-24">
      <h3 id="course-dates-title" className="text-base font-semibold">
        Dates
      </h3>
      <ul className="mt-3 space-y-3">
        {shown.map((date) => (
          <CourseDateItem key={date.id} slug={slug} title={title} date={date} />
        ))}
      </ul>
      {shown.length < dates.length ? (
        <Link
          to={`/courses/${slug}?${ALL_DATES_PARAM}=${ALL_DATES_VALUE}#dates`}
          className="mt-3 inline-block text-sm font-medium underline"
        >
          Show all {dates.length} dates
        </Link>
      ) : null}
    </section>
  );
}

function CourseDateItem({
  slug,
  title,
  date,
}: {
  slug: string;
  title: string;
  date: PublicCourseDate;
}) {
  const when = formatDateRange(date.startsAt, date.endsAt);
  // Each link's name says which course and date it is for, read out of context.
  const forWhat = `for ${title}, ${when}`;
  return (
    <li data-testid="course-date" className="rounded-md border border-border p-3 text-sm">
      <p className="font-medium">
        <time dateTime={date.startsAt}>{when}</time>
      </p>
      <p className="text-muted-foreground">
        {date.format === "online" ? "Live online" : `Classroom, ${datePlace(date)}`} ·{" "}
        {formatPence(date.unitPriceCents)} per place
      </p>
      <p
        data-testid="places-left"
        className={cn("mt-1", date.placesLeft === 0 && "font-semibold text-destructive")}
      >
        {placesLeftText(date)}
      </p>
      {date.bookable ? (
        <Link
          to={`/courses/${slug}/checkout?${COURSE_DATE_PARAM}=${date.id}`}
          className={cn(buttonVariants({ size: "sm" }), "mt-2 w-full")}
        >
          Book this date
          <span className="sr-only"> {forWhat}</span>
        </Link>
      ) : null}
      {offersWaitingList(date) ? (
        <Link
          to={waitingListPath(slug, date.id)}
          className={cn(buttonVariants({ size: "sm", variant: "outline" }), "mt-2 w-full")}
        >
          Join the waiting list
          <span className="sr-only"> {forWhat}</span>
        </Link>
      ) : null}
    </li>
  );
}
