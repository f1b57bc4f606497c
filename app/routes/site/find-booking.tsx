import { FindBookingForm } from "#app/components/site/booking-forms.tsx";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { findBookingAction } from "#server/forms/booking-actions.server.ts";
import type { Route } from "./+types/find-booking";

/**
 * /bookings, 'Find my booking' (decision 0037): the address a booking was made with gets an
 * e-mail with a link to each of its bookings. The page never shows them.
 */
export const action = findBookingAction;
export const clientAction = keepFormOnFailure;

export function headers() {
  return { "Cache-Control": "no-store" };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Find My Booking",
    description: "Get a link to your NightWatch course booking by e-mail.",
    noindex: true,
  });

export default function FindBooking() {
  return (
    <section className="mx-auto grid max-w-xl gap-6 px-4 py-16">
      <div className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Find My Booking</h1>
        <p className="text-muted-foreground">
          Enter the e-mail address you booked with. We will e-mail you a link to each booking made
          with it: there you can see its dates, students, invoices and receipts, and change a
          student's name.
        </p>
      </div>
      <FindBookingForm />
    </section>
  );
}
