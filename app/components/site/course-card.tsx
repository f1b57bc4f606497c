import { ArrowRight, GraduationCap, Handshake, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "#app/components/ui/badge.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { partnerBadgeLabel, type PartnerBadge } from "#app/lib/catalogue.ts";
import { cn } from "#app/lib/cn.ts";

export interface CourseCardItem {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  thumbnailUrl: string | null;
  /** Formatted, e.g. '£1,450.00'; null when the course has no price. */
  priceLabel: string | null;
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

/** A catalogue card. `eager` for the cards likely above the fold; the rest load lazily. */
export function CourseCard({ course, eager = false }: { course: CourseCardItem; eager?: boolean }) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-border bg-card transition-colors hover:border-primary/60">
      {course.thumbnailUrl ? (
        <img
          src={course.thumbnailUrl}
          alt=""
          width={THUMB_WIDTH}
          height={THUMB_HEIGHT}
          loading={eager ? "eager" : "lazy"}
          decoding="async"
          className="aspect-video w-full bg-muted object-cover"
        />
      ) : (
        <div
          aria-hidden
          className="flex aspect-video w-full items-center justify-center bg-gradient-to-br from-muted to-secondary"
        >
          <GraduationCap className="size-12 text-primary/70" />
        </div>
      )}
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          <PartnerBadgeChip badge={course.badge} />
        </div>
        <h3 className="text-lg leading-snug font-semibold text-balance">{course.title}</h3>
        {course.shortDescription ? (
          <p className="text-sm text-muted-foreground">{course.shortDescription}</p>
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
