import { ArrowRight, Clock } from "lucide-react";
import { Link } from "react-router";
import { formatDuration, formatPrice } from "#app/lib/format.ts";

/** The fields the home page's training section shows for each promoted course. */
export interface PromotedCourseItem {
  id: string;
  slug: string;
  title: string;
  shortDescription: string | null;
  price: string | null;
  durationHours: number | null;
  /** Its uploaded thumbnail, else its generated artwork. */
  imageUrl: string;
}

/** The provider's own fraud and security courses, newest first, as the home page lists them. */
export function PromotedCourseList({ courses }: { courses: PromotedCourseItem[] }) {
  if (courses.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border p-8 text-center text-muted-foreground">
        No courses available
      </p>
    );
  }
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {courses.map((course) => {
        const price = formatPrice(course.price);
        // Unlike the course page ('TBD'), a list item simply leaves an unset duration out.
        const duration =
          course.durationHours === null ? null : formatDuration(course.durationHours);
        return (
          <li
            key={course.id}
            className="group relative flex gap-4 rounded-lg border border-border bg-card p-5 transition-colors hover:border-primary/60"
          >
            {/* Decorative: the heading beside it names the course. */}
            <img
              src={course.imageUrl}
              alt=""
              width={128}
              height={72}
              loading="lazy"
              decoding="async"
              className="aspect-video h-auto w-24 shrink-0 self-start rounded-md border border-border bg-muted object-cover sm:w-32"
            />
            <div className="flex min-w-0 flex-1 flex-col">
              <h3 className="text-lg font-semibold">
                {/* The link covers the card, so the whole card is one target with one name. */}
                <Link
                  to={`/courses/${course.slug}`}
                  className="after:absolute after:inset-0 after:rounded-lg group-hover:text-primary"
                >
                  {course.title}
                </Link>
              </h3>
              {course.shortDescription ? (
                <p className="mt-2 line-clamp-3 text-sm text-muted-foreground">
                  {course.shortDescription}
                </p>
              ) : null}
              <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-4 text-sm">
                {price ? <span className="font-semibold text-foreground">{price}</span> : null}
                {duration ? (
                  <span className="inline-flex items-center gap-1 text-muted-foreground">
                    <Clock aria-hidden className="size-4" />
                    <span className="sr-only">Duration: </span>
                    {duration}
                  </span>
                ) : null}
                <ArrowRight
                  aria-hidden
                  className="ml-auto size-4 text-muted-foreground transition-transform group-hover:translate-x-1 group-hover:text-primary"
                />
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
