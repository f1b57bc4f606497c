import { ArrowLeft, Award, CalendarClock, FolderOpen, PoundSterling } from "lucide-react";
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
import { inquiryAction } from "#server/forms/inquiry-action.server.ts";
import { PartnerBadgeChip, PartnerLogo } from "#app/components/site/course-card.tsx";
import { CourseBuyerSections, CourseTrainers } from "#app/components/site/course-details.tsx";
import { PartnerBooking, ProviderBooking } from "#app/components/site/course-booking.tsx";
import { RichText } from "#app/components/site/rich-text.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/ui/cn.ts";
import {
  ALL_DATES_PARAM,
  ALL_DATES_VALUE,
  courseInstance,
} from "#app/lib/catalogue/course-dates.ts";
import { formatCpdHours } from "#app/lib/catalogue/plain-text.ts";
import { formatCoursePrice, formatDuration } from "#app/lib/format.ts";
import { publicPageHeaders } from "#app/lib/ui/http-cache.ts";
import { SITE_NAME, absoluteUrl, jsonLd, pageMeta, publicUrlFrom } from "#app/lib/ui/seo.ts";
import type { Route } from "./+types/course";
import { keepFormOnFailure } from "#app/lib/forms.ts";

const CATALOGUE_PATH = "/services/counter-fraud-training";

export async function loader({ params, request }: Route.LoaderArgs) {
  const found = await findPublishedCourse(params.slug);
  if (found.kind === "redirect") {
    throw redirect(`/courses/${encodeURIComponent(found.slug)}`, 301);
  }
  if (found.kind === "not_found") {
    // Not cached: the course may be published a moment later.
    throw data("Course Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  }
  const { course } = found;
  // Its trainers and its dates, read together (one failing fails both: nothing left unawaited).
  const [trainers, dates] = await Promise.all([
    listCourseTrainers(course.id),
    // Dated places are sold for the provider's own priced courses (decision 0033).
    isBookableOnline(course) ? listUpcomingDates(course.id, course.price) : [],
  ]);
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
    dates,
    allDates: new URL(request.url).searchParams.get(ALL_DATES_PARAM) === ALL_DATES_VALUE,
    trainers,
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
  const { course, dates, allDates, trainers } = loaderData;
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
                <ProviderBooking course={course} dates={dates} allDates={allDates} />
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
