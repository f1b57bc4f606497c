import type { ReactNode } from "react";
import { GraduationCap } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import type { CheckoutCourse } from "#app/lib/checkout.ts";
import { formatPence } from "#app/lib/format.ts";

/** The course's picture, title and length, as the checkout shows them. */
export function CourseSummaryHeader({ course }: { course: CheckoutCourse }) {
  return (
    <div className="flex gap-4">
      {course.thumbnailUrl ? (
        <img
          src={course.thumbnailUrl}
          alt=""
          width={96}
          height={64}
          className="h-16 w-24 shrink-0 rounded-md border border-border object-cover"
        />
      ) : (
        <div className="flex h-16 w-24 shrink-0 items-center justify-center rounded-md border border-border bg-muted">
          <GraduationCap className="size-6 text-muted-foreground" aria-hidden />
        </div>
      )}
      <div>
        <p className="font-semibold">{course.title}</p>
        <p className="text-sm text-muted-foreground">
          {course.durationHours === null
            ? "Duration to be confirmed"
            : `${course.durationHours} ${course.durationHours === 1 ? "hour" : "hours"}`}
        </p>
      </div>
    </div>
  );
}

/** The booking's price, places and total; `children` are the ways to pay beneath them. */
export function BookingSummary({
  course,
  places,
  children,
}: {
  course: CheckoutCourse & { unitPriceCents: number };
  places: number;
  children: ReactNode;
}) {
  return (
    <Card className="lg:sticky lg:top-24">
      <CardHeader>
        <CardTitle as="h2">Booking Summary</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <CourseSummaryHeader course={course} />
        <dl className="grid grid-cols-[1fr_auto] gap-y-2 text-sm">
          <dt className="text-muted-foreground">Price per student</dt>
          <dd data-testid="unit-price">{formatPence(course.unitPriceCents)}</dd>
          <dt className="text-muted-foreground">Quantity</dt>
          <dd data-testid="quantity">{places}</dd>
          <dt className="border-t border-border pt-2 font-semibold">Total</dt>
          <dd data-testid="total" className="border-t border-border pt-2 text-lg font-semibold">
            {formatPence(course.unitPriceCents * places)}
          </dd>
        </dl>
        {children}
      </CardContent>
    </Card>
  );
}
