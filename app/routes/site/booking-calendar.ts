import { clientAddress } from "#server/abuse.server.ts";
import {
  bookingAccess,
  bookingCalendar,
  bookingFileRefusal,
} from "#server/orders/booker-page.server.ts";
import type { Route } from "./+types/booking-calendar";

/**
 * GET /bookings/:token/calendar.ics: the booked date as a calendar file ('Add to calendar',
 * decision 0037); 404 when the link is not valid or the booking holds no scheduled date.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const access = await bookingAccess(params.token, clientAddress(context));
  if (!access.ok) return bookingFileRefusal(access);
  const file = await bookingCalendar(access.order);
  if (!file) return bookingFileRefusal({ status: 404 });
  return new Response(file, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'attachment; filename="course-date.ics"',
      "Cache-Control": "private, no-store",
    },
  });
}
