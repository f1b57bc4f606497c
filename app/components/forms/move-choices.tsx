import type { ReactNode } from "react";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { formatPence } from "#app/lib/format.ts";
import type { MoveTarget } from "#app/lib/orders/moves.ts";

/**
 * The choices of a move of places (decision 0038), as the booker's 'Ask to move' and staff's
 * 'Move to another date' both draw them: the dates with room (radios named `to_date`, the first
 * chosen) and the places (checkboxes named `places`, all ticked). Uncontrolled, so what is chosen
 * before the page's scripts run is what is posted.
 */

export function MoveTargetChoices({
  targets,
  note,
}: {
  targets: MoveTarget[];
  /** Said after a date's own price (e.g. what the order paid a place). */
  note?: (target: MoveTarget) => ReactNode;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Move to</legend>
      {targets.map((target, i) => (
        <label key={target.id} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="to_date"
            value={target.id}
            required
            defaultChecked={i === 0}
            className="mt-1"
          />
          <span>
            {formatDateRange(target.startsAt, target.endsAt)} · {target.where} · {target.placesLeft}{" "}
            {target.placesLeft === 1 ? "place" : "places"} free ·{" "}
            {formatPence(target.unitPriceCents)} a place
            {note?.(target)}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function MovePlaceChoices({
  places,
  error,
  errorId,
}: {
  places: { position: number; name: string | null }[];
  error?: string;
  errorId: string;
}) {
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium">Places to move</legend>
      {places.map((place) => (
        <label key={place.position} className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="places" value={place.position} defaultChecked />
          Place {place.position}: {place.name ?? "not named yet"}
        </label>
      ))}
      {error ? (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
