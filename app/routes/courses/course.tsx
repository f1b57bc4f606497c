import {
  ArrowLeft,
  Award,
  CalendarClock,
  ExternalLink,
  FolderOpen,
  Monitor,
  PoundSterling,
  Users,
} from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { Link, data, isRouteErrorResponse, redirect } from "react-router";
import { OG_ARTWORK, courseOgImageUrl } from "#server/catalogue/course-artwork.server.ts";
import {
  courseBuyUrl,
  coursePicture,
  findPublishedCourse,
  isBookableOnline,
  partnerBadge,
  partnerLogo,
} from "#server/catalogue/courses.server.ts";
import { listUpcomingDates } from "#server/catalogue/course-dates.server.ts";
import { listCourseTrainers } from "#server/catalogue/trainers.server.ts";
import { sanitizeCourseHtml } from "#server/html.server.ts";
import { CourseQuoteDialog } from "#app/components/forms/course-quote-dialog.tsx";
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { PartnerBadgeChip, PartnerLogo } from "#app/components/site/course-card.tsx";
import { CourseBuyerSections, CourseTrainers } from "#app/components/site/course-details.tsx";
import { RichText } from "#app/components/site/rich-text.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import {
  COURSE_DATE_PARAM,
  datePlace,
  formatDateRange,
  placesLeftText,
  type PublicCourseDate,
} from "#app/lib/catalogue/course-dates.ts";
import { formatCpdHours } from "#app/lib/catalogue/plain-text.ts";
import { formatCoursePrice, formatDuration, formatPence } from "#app/lib/format.ts";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { SITE_NAME, absoluteUrl, jsonLd, pageMeta, publicUrlFrom } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/course";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { quoteLink } from "#app/lib/inquiries/schemas.ts";
import { WAITING_LIST_MAX_PLACES, waitingListPath } from "#app/lib/catalogue/waiting-list.ts";

const CATALOGUE_PATH = "/services/counter-fraud-training";

export async function loader({ params }: Route.LoaderArgs) {
  const found = await findPublishedCourse(params.slug);
  if (found.kind === "redirect") {
    throw redirect(`/courses/${encodeURIComponent(found.slug)}`, 301);
  }
  if (found.kind === "not_found") {
    // Not cached: the course may be published a moment later.
    throw data("Course Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  const { course } = found;
  // Its trainers in one query, run while the dates are read.
  const trainers = listCourseTrainers(course.id);
  // Sanitised here, on the server, whatever the admin editor stored.
  const html = sanitizeCourseHtml(course.content);
  const subject = { slug: course.slug, title: course.title, categoryName: course.categoryName };
  // Its uploaded thumbnail, else its generated artwork (decision 0022); for link previews a PNG.
  const picture = coursePicture({ ...subject, thumbnailUrl: course.thumbnailUrl });
  return {
    course: {
      id: course.id,
      slug: course.slug,
      title: course.title,
      shortDescription: course.shortDescription,
      html,
      description: html ? null : course.description,
      picture,
      shareImage: picture.generated
        ? { url: courseOgImageUrl(subject), ...OG_ARTWORK }
        : { url: picture.url },
      price: course.price,
      priceLabel: formatCoursePrice(course.price),
      durationLabel: formatDuration(course.durationHours),
      durationHours: course.durationHours,
      cpdLabel: formatCpdHours(course.cpdHours),
      details: {
        audience: course.audience,
        learningOutcomes: course.learningOutcomes,
        prerequisites: course.prerequisites,
        formatDetails: course.formatDetails,
      },
      categoryName: course.categoryName ?? "Uncategorized",
      badge: partnerBadge(course.partner?.name),
      partner: course.partner ? { name: course.partner.name } : null,
      partnerLogo: partnerLogo(course.partner?.name, course.partner?.logoUrl),
      buyUrl: courseBuyUrl(course),
      bookableOnline: isBookableOnline(course),
    },
    // Dated places are sold for the provider's own priced courses (decision 0033).
    dates: isBookableOnline(course) ? await listUpcomingDates(course.id, course.price) : [],
    trainers: await trainers,
  };
}

export const action = inquiryAction;
export const clientAction = keepFormOnFailure;

export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = (args) => {
  const course = args.loaderData?.course;
  const dates = args.loaderData?.dates ?? [];
  // Each trainer as the schema.org Person teaching every dated run.
  const instructors = (args.loaderData?.trainers ?? []).map((trainer) => ({
    "@type": "Person",
    name: trainer.name,
    ...(trainer.role ? { description: trainer.role } : {}),
  }));
  if (!course) {
    return [{ title: `Course Not Found | ${SITE_NAME}` }, { name: "robots", content: "noindex" }];
  }
  const origin = publicUrlFrom(args);
  const url = `${origin}/courses/${course.slug}`;
  const description =
    course.shortDescription ?? `${course.title}: counter fraud training from ${SITE_NAME}.`;
  return [
    ...pageMeta(args, {
      title: course.title,
      description,
      path: `/courses/${course.slug}`,
      image: { ...course.shareImage, alt: artworkAlt(course) },
    }),
    jsonLd({
      "@context": "https://schema.org",
      "@type": "Course",
      name: course.title,
      description,
      url,
      image: absoluteUrl(course.shareImage.url, origin),
      provider: {
        "@type": "Organization",
        name: SITE_NAME,
        url: `${origin}/`,
        sameAs: `${origin}/`,
      },
      ...(course.durationHours ? { timeRequired: `PT${course.durationHours}H` } : {}),
      ...(course.price !== null
        ? {
            offers: {
              "@type": "Offer",
              category: "Paid",
              price: course.price,
              priceCurrency: "GBP",
              url,
            },
          }
        : {}),
      ...(dates.length > 0
        ? { hasCourseInstance: dates.map((d) => courseInstance(d, url, instructors)) }
        : {}),
    }),
  ];
};

/** A dated run of the course as schema.org's CourseInstance, with its offer's availability. */
function courseInstance(date: PublicCourseDate, courseUrl: string, instructors: object[]) {
  return {
    "@type": "CourseInstance",
    ...(instructors.length > 0 ? { instructor: instructors } : {}),
    courseMode: date.format === "online" ? "Online" : "Onsite",
    startDate: date.startsAt,
    endDate: date.endsAt,
    location:
      date.format === "online"
        ? { "@type": "VirtualLocation", url: courseUrl }
        : { "@type": "Place", name: date.venueName ?? datePlace(date), address: date.town ?? "" },
    offers: {
      "@type": "Offer",
      price: (date.unitPriceCents / 100).toFixed(2),
      priceCurrency: "GBP",
      availability: date.bookable ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
      url: `${courseUrl}/checkout?${COURSE_DATE_PARAM}=${date.id}`,
    },
  };
}

/** How the course's picture is described where it is not decorative. */
function artworkAlt(course: { title: string; picture: { generated: boolean } }): string {
  return course.picture.generated
    ? `Artwork for the course ${course.title}`
    : `Picture for the course ${course.title}`;
}

/** Moves the hero image at 0.3 × the scroll, unless the visitor prefers less motion. */
function useParallax(factor: number) {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = ref.current;
    if (!image) return;
    const motion = window.matchMedia("(prefers-reduced-motion: reduce)");
    let frame: number | undefined;
    const update = () => {
      frame = undefined;
      image.style.transform = `translate3d(0, ${Math.round(window.scrollY * factor)}px, 0)`;
    };
    const onScroll = () => {
      frame ??= requestAnimationFrame(update);
    };
    const apply = () => {
      window.removeEventListener("scroll", onScroll);
      if (motion.matches) {
        image.style.transform = "";
        return;
      }
      window.addEventListener("scroll", onScroll, { passive: true });
      update();
    };
    apply();
    motion.addEventListener("change", apply);
    return () => {
      motion.removeEventListener("change", apply);
      window.removeEventListener("scroll", onScroll);
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [factor]);
  return ref;
}

export default function CoursePage({ loaderData }: Route.ComponentProps) {
  const { course, dates, trainers } = loaderData;
  const parallax = useParallax(0.3);

  return (
    <article data-course-id={course.id}>
      <header className="relative isolate overflow-hidden border-b border-border">
        {/* The course's picture twice, one download: faint behind the title (fetched first: on a
            phone it can be the largest paint) and framed beside the title on wide screens. */}
        <div aria-hidden className="absolute inset-0 -z-10">
          <img
            ref={parallax}
            src={course.picture.url}
            alt=""
            width={1600}
            height={900}
            fetchPriority="high"
            decoding="async"
            className={cn(
              "size-full object-cover opacity-35 will-change-transform",
              // Generated art is bold; where it is also framed beside the title, fainter here.
              course.picture.generated && "lg:opacity-20",
            )}
          />
          <div className="absolute inset-0 bg-gradient-to-b from-background/60 via-background/70 to-background" />
        </div>
        <div className="mx-auto max-w-7xl px-4 py-14 sm:py-20 lg:grid lg:grid-cols-[minmax(0,1fr)_24rem] lg:items-center lg:gap-12 xl:grid-cols-[minmax(0,1fr)_28rem]">
          <div>
            <Link
              to={CATALOGUE_PATH}
              className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-primary"
            >
              <ArrowLeft aria-hidden className="size-4" />
              All training courses
            </Link>
            <div className="mt-6 flex flex-wrap items-center gap-3">
              <PartnerBadgeChip badge={course.badge} />
              {course.partnerLogo ? (
                <PartnerLogo
                  name={course.partnerLogo.name}
                  url={course.partnerLogo.url}
                  size="lg"
                />
              ) : null}
            </div>
            <h1 className="mt-4 max-w-4xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">
              {course.title}
            </h1>
            {course.shortDescription ? (
              <p className="mt-5 max-w-3xl text-lg text-pretty text-muted-foreground">
                {course.shortDescription}
              </p>
            ) : null}
          </div>
          <img
            src={course.picture.url}
            alt={artworkAlt(course)}
            width={640}
            height={360}
            decoding="async"
            data-testid="course-picture"
            className="hidden aspect-video w-full rounded-xl border border-border bg-muted object-cover shadow-2xl shadow-black/40 lg:block"
          />
        </div>
      </header>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
        <section aria-labelledby="course-content-title" className="min-w-0">
          <h2 id="course-content-title" className="sr-only">
            About this course
          </h2>
          {course.html ? (
            <RichText html={course.html} />
          ) : course.description ? (
            <p className="text-base leading-relaxed whitespace-pre-line text-foreground/90">
              {course.description}
            </p>
          ) : (
            <p className="text-muted-foreground">
              Full details of this course are coming soon. Contact us for more information.
            </p>
          )}
          <CourseBuyerSections details={course.details} />
          <CourseTrainers trainers={trainers} />
        </section>

        {/* On a phone the booking card (price, dates, buttons) comes before the long text. */}
        <aside
          aria-labelledby="course-booking-title"
          className="order-first space-y-6 lg:sticky lg:top-24 lg:order-none"
        >
          <div className="rounded-lg border border-border bg-card p-6">
            <h2 id="course-booking-title" className="text-xl font-semibold">
              Course details
            </h2>
            <dl className="mt-4 space-y-3 text-sm">
              <Detail icon={<FolderOpen aria-hidden className="size-4" />} term="Category">
                {course.categoryName}
              </Detail>
              <Detail icon={<CalendarClock aria-hidden className="size-4" />} term="Duration">
                {course.durationLabel}
              </Detail>
              <Detail icon={<PoundSterling aria-hidden className="size-4" />} term="Price">
                <span className="text-base font-semibold text-foreground">{course.priceLabel}</span>
              </Detail>
              {course.cpdLabel ? (
                <Detail icon={<Award aria-hidden className="size-4" />} term="CPD">
                  {course.cpdLabel}
                </Detail>
              ) : null}
            </dl>
            <div className="mt-6 border-t border-border pt-6">
              {course.partner ? (
                <PartnerBooking
                  partner={course.partner}
                  buyUrl={course.buyUrl}
                  title={course.title}
                />
              ) : (
                <ProviderBooking course={course} dates={dates} />
              )}
            </div>
          </div>
        </aside>
      </div>
    </article>
  );
}

function Detail({ icon, term, children }: { icon: ReactNode; term: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4">
      <dt className="flex items-center gap-2 text-muted-foreground">
        {icon}
        {term}
      </dt>
      <dd className="text-right text-foreground">{children}</dd>
    </div>
  );
}

function PartnerBooking({
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
function ProviderBooking({
  course,
  dates,
}: {
  course: { id: string; slug: string; title: string; bookableOnline: boolean };
  dates: PublicCourseDate[];
}) {
  return (
    <div className="space-y-3">
      {dates.length > 0 ? (
        <CourseDates slug={course.slug} title={course.title} dates={dates} />
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
 * A date offers its waiting list when it cannot take a whole group: fewer places left than the
 * most one entry may ask for (decision 0034), while booking is open.
 */
function offersWaitingList(date: PublicCourseDate): boolean {
  return date.placesLeft < WAITING_LIST_MAX_PLACES && (date.bookable || date.placesLeft === 0);
}

/** The course's dates to come, each with its places left and a way to book it. */
function CourseDates({
  slug,
  title,
  dates,
}: {
  slug: string;
  title: string;
  dates: PublicCourseDate[];
}) {
  return (
    <section id="dates" aria-labelledby="course-dates-title" className="scroll-mt-24">
      <h3 id="course-dates-title" className="text-base font-semibold">
        Dates
      </h3>
      <ul className="mt-3 space-y-3">
        {dates.map((date) => (
          <li
            key={date.id}
            data-testid="course-date"
            className="rounded-md border border-border p-3 text-sm"
          >
            <p className="font-medium">
              <time dateTime={date.startsAt}>{formatDateRange(date.startsAt, date.endsAt)}</time>
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
                <span className="sr-only">
                  {" "}
                  for {title}, {formatDateRange(date.startsAt, date.endsAt)}
                </span>
              </Link>
            ) : null}
            {offersWaitingList(date) ? (
              <Link
                to={waitingListPath(slug, date.id)}
                className={cn(buttonVariants({ size: "sm", variant: "outline" }), "mt-2 w-full")}
              >
                Join the waiting list
                <span className="sr-only">
                  {" "}
                  for {title}, {formatDateRange(date.startsAt, date.endsAt)}
                </span>
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold tracking-tight">
        {notFound ? "Course Not Found" : "Something went wrong"}
      </h1>
      <p className="text-muted-foreground">
        {notFound
          ? "The course you are looking for does not exist or is no longer available."
          : "We could not load this course. Please try again in a moment."}
      </p>
      <Link to={CATALOGUE_PATH} className={buttonVariants({ variant: "outline" })}>
        <ArrowLeft aria-hidden />
        Back to Training Courses
      </Link>
    </section>
  );
}
