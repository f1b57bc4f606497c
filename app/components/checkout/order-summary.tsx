import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "#app/components/ui/card.tsx";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import type { CheckoutCourse } from "#app/lib/checkout.ts";
import { formatPence } from "#app/lib/format.ts";
import { PLACE_OF_SUPPLY_NOTE } from "#app/lib/orders/place-of-supply.ts";
import { formatVatRate, lineAmounts, vatLabel, type VatTerms } from "#app/lib/orders/vat.ts";

/**
 * The course's picture (its thumbnail, else its generated artwork: `findCheckoutCourse`), title
 * and length, as the checkout shows them. The picture is decorative: the title is beside it.
 */
function CourseSummaryHeader({ course }: { course: CheckoutCourse }) {
  return (
    <div className="flex gap-4">
      {course.thumbnailUrl ? (
        <img
          src={course.thumbnailUrl}
          alt=""
          width={96}
          height={54}
          decoding="async"
          className="aspect-video h-auto w-24 shrink-0 self-start rounded-md border border-border bg-muted object-cover"
        />
      ) : (
        <div
          aria-hidden
          className="aspect-video w-24 shrink-0 self-start rounded-md border border-border bg-muted"
        />
      )}
      <div>
        <p className="font-semibold">{course.title}</p>
        <p className="text-sm text-muted-foreground">
          {course.durationHours === null
            ? "Duration to be confirmed"
            : `${course.durationHours} ${course.durationHours === 1 ? "hour" : "hours"}`}
        </p>
        {course.date ? (
          <p data-testid="booking-date" className="mt-1 text-sm">
            <span className="block">
              {formatDateRange(course.date.startsAt, course.date.endsAt)}
            </span>
            <span className="block text-muted-foreground">
              {course.date.format === "online"
                ? "Live online"
                : [course.date.venueName, course.date.town].filter(Boolean).join(", ")}
            </span>
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The booking's price, places and amounts; `children` are the ways to pay beneath them. Prices
 * say whether they include VAT; a VAT-registered seller's summary shows net, VAT and total
 * (worked out as the server stores them, app/lib/orders/vat.ts), anyone else's just the total.
 */
export function BookingSummary({
  course,
  places,
  vat,
  children,
}: {
  course: CheckoutCourse;
  places: number;
  vat: VatTerms;
  children: ReactNode;
}) {
  const amounts = lineAmounts(course.unitPriceCents * places, vat);
  const label = vatLabel(vat);
  return (
    <Card className="lg:sticky lg:top-24">
      <CardHeader>
        <CardTitle as="h2">Booking Summary</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <CourseSummaryHeader course={course} />
        <dl className="grid grid-cols-[1fr_auto] gap-y-2 text-sm">
          <dt className="text-muted-foreground">Price per student</dt>
          <dd className="text-right">
            <span data-testid="unit-price">{formatPence(course.unitPriceCents)}</span>
            {label ? (
              <span data-testid="vat-label" className="block text-xs text-muted-foreground">
                {label}
              </span>
            ) : null}
          </dd>
          <dt className="text-muted-foreground">Quantity</dt>
          <dd data-testid="quantity" className="text-right">
            {places}
          </dd>
          {label ? (
            <>
              <dt className="text-muted-foreground">Net</dt>
              <dd data-testid="net" className="text-right">
                {formatPence(amounts.netCents)}
              </dd>
              <dt className="text-muted-foreground">VAT ({formatVatRate(vat.rateBasisPoints)})</dt>
              <dd data-testid="vat" className="text-right">
                {formatPence(amounts.vatCents)}
              </dd>
            </>
          ) : null}
          <dt className="border-t border-border pt-2 font-semibold">Total</dt>
          <dd
            data-testid="total"
            className="border-t border-border pt-2 text-right text-lg font-semibold"
          >
            {formatPence(amounts.totalCents)}
          </dd>
        </dl>
        {label ? (
          <p data-testid="place-of-supply" className="text-xs text-muted-foreground">
            {PLACE_OF_SUPPLY_NOTE}
          </p>
        ) : null}
        {children}
      </CardContent>
    </Card>
  );
}
