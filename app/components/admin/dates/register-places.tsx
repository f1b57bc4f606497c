import { Link } from "react-router";
import {
  ATTENDANCE,
  ATTENDANCE_LABELS,
  placeFieldName,
  type RegisterPlace,
} from "#app/lib/catalogue/register.ts";
import { orderPageHref } from "#app/lib/orders/orders.ts";

/**
 * The register's places, one row each: who (or "Name to follow"), their organisation, order and
 * payment, and three large choices — Present, Absent, Partial — as a radio group per place, so
 * a tablet's finger or a keyboard's arrows mark it. Uncontrolled: what is chosen before the
 * page's scripts run is what is posted.
 */
export function RegisterPlaces({
  places,
  disabled,
}: {
  places: RegisterPlace[];
  disabled: boolean;
}) {
  return (
    <ol className="grid gap-2" aria-label="Booked places">
      {places.map((place) => {
        const name = place.name ?? `Place ${place.position}: name to follow`;
        const field = placeFieldName(place);
        return (
          <li
            key={field}
            data-testid="register-place"
            className="grid gap-3 rounded-md border border-border p-3 md:grid-cols-[1fr_auto] md:items-center"
          >
            <div className="min-w-0">
              <p className={place.name ? "font-medium" : "font-medium text-muted-foreground"}>
                {name}
              </p>
              <p className="text-sm break-words text-muted-foreground">
                {[place.email, place.organisation].filter(Boolean).join(" · ")}
              </p>
              <p className="text-xs text-muted-foreground">
                <Link to={orderPageHref(place.orderId)} className="underline">
                  {place.orderReference}
                </Link>{" "}
                · {place.payment}
              </p>
            </div>
            <fieldset disabled={disabled} className="flex gap-2">
              <legend className="sr-only">Attendance of {name}</legend>
              {ATTENDANCE.map((status) => (
                <label
                  key={status}
                  className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-border px-3 text-sm has-checked:border-primary has-checked:bg-primary/10 has-disabled:cursor-not-allowed has-disabled:opacity-60"
                >
                  <input
                    type="radio"
                    name={field}
                    value={status}
                    defaultChecked={place.attendance === status}
                    className="size-4 accent-primary"
                  />
                  {ATTENDANCE_LABELS[status]}
                </label>
              ))}
            </fieldset>
          </li>
        );
      })}
    </ol>
  );
}
