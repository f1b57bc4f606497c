import { ArrowRight, Handshake, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { partnerBadgeLabel, type PartnerBadge } from "#app/lib/catalogue/catalogue.ts";
import { cn } from "#app/lib/ui/cn.ts";

export interface CourseCardItem {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  /** Its uploaded thumbnail, else its generated artwork (server/catalogue/course-artwork.server.ts). */
  imageUrl: string;
  /** The partner's logo, when the course has a partner with one. */
  partnerLogo: { name: string; url: string } | null;
  /** Formatted, e.g. '£1,450.00'; null when the course has no price. */
  priceLabel: string | null;
  /** When it runs: its next date, 'On demand' or 'Dates on request' (courseSchedule). */
  schedule?: { nextDate: string | null; text: string };
  badge: PartnerBadge;
}

/** Thumbnails are drawn at 16:9; the attributes reserve the space before the image arrives. */
const THUMB_WIDTH = 640;
const THUMB_HEIGHT = 360;

export function PartnerBadgeChip({ badge }: { badge: PartnerBadge }) {
  const label = partnerBadgeLabel(badge);
  if (badge.kind === "exclusive") {
    return (
      <Badge variant="default">
        <ShieldCheck aria-hidden className="size-3.5" />
        {label}
      </Badge>
    );
  }
  return (
    <Badge variant={badge.kind === "cifas" ? "success" : "info"}>
      <Handshake aria-hidden className="size-3.5" />
      {label}
    </Badge>
  );
}

const LOGO_SIZES = {
  // Width × height of the box; the logo is fitted inside, so nothing moves when it arrives.
  sm: { width: 80, height: 32, box: "h-8 w-20 p-1" },
  lg: { width: 112, height: 40, box: "h-10 w-28 p-1.5" },
} as const;

/**
 * A partner's logo in a fixed light box: most logos are drawn for white paper, and the box keeps
 * its place before the image arrives.
 */
export function PartnerLogo({
  name,
  url,
  size = "sm",
  lazy = false,
}: {
  name: string;
  url: string;
  size?: keyof typeof LOGO_SIZES;
  lazy?: boolean;
}) {
  const { width, height, box } = LOGO_SIZES[size];
  return (
    <span
      className={cn("inline-flex shrink-0 items-center justify-center rounded-md bg-white", box)}
    >
      <img
        src={url}
        alt={`${name} logo`}
        width={width}
        height={height}
        loading={lazy ? "lazy" : "eager"}
        decoding="async"
        className="size-full object-contain"
      />
    </span>
  );
}

/** A catalogue card. `eager` for the cards likely above the fold; the rest load lazily. */
export function CourseCard({ course, eager = false }: { course: CourseCardItem; eager?: boolean }) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-border bg-card transition-colors hover:border-primary/60">
      {/* Decorative: the card's heading names the course. */}
      <img
        src={course.imageUrl}
        alt=""
        width={THUMB_WIDTH}
        height={THUMB_HEIGHT}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="aspect-video w-full bg-muted object-cover"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex min-h-8 flex-wrap items-center justify-between gap-2">
          <PartnerBadgeChip badge={course.badge} />
          {course.partnerLogo ? (
            <PartnerLogo
              name={course.partnerLogo.name}
              url={course.partnerLogo.url}
              lazy={!eager}
            />
          ) : null}
        </div>
        <h3 className="text-lg leading-snug font-semibold text-balance">{course.title}</h3>
        {course.shortDescription ? (
          <p className="text-sm text-muted-foreground">{course.shortDescription}</p>
        ) : null}
        {course.schedule ? (
          <p data-testid="course-schedule" className="text-sm text-muted-foreground">
            {course.schedule.nextDate ? (
              <span>
                Next date: <time dateTime={course.schedule.nextDate}>{course.schedule.text}</time>
              </span>
            ) : (
              course.schedule.text
            )}
          </p>
        ) : null}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-2">
          {course.priceLabel ? (
            <p className="text-lg font-semibold text-foreground">
              <span className="sr-only">Price: </span>
              {course.priceLabel}
            </p>
          ) : (
            <span />
          )}
          <Link to={`/courses/${course.slug}`} className={cn(buttonVariants({ size: "sm" }))}>
            View Details
            <span className="sr-only"> of {course.title}</span>
            <ArrowRight aria-hidden />
          </Link>
        </div>
      </div>
    </article>
  );
}
