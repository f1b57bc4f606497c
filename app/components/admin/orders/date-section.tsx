import { useFetcher } from "react-router";
import { Section } from "./section.tsx";
import { useFormAnswer } from "#app/components/forms/use-form-answer.ts";
import { Button } from "#app/components/ui/button.tsx";
import { MovePlaceChoices, MoveTargetChoices } from "#app/components/forms/move-choices.tsx";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { formatPence } from "#app/lib/format.ts";
import type { FormAnswer } from "#app/lib/forms.ts";
import {
  MOVE_DECISION_INTENT,
  MOVE_INTENT,
  type MoveOptions,
  type MoveRequestView,
} from "#app/lib/orders/moves.ts";
import { formatDateTime } from "#app/lib/admin/time.ts";
import type { AdminOrderPage } from "#app/lib/orders/orders.ts";

/**
 * The order page's date: when and where its places are, the booker's request to move (approved
 * or declined in one click), and 'Move to another date' (decision 0038) — which places, which
 * date with room, and whether a price difference is charged or credited. A plain form: it posts
 * without JavaScript too, and the server checks everything again (room, price, the order's
 * state) under its locks.
 */
export function DateSection({ page, answer }: { page: AdminOrderPage; answer?: FormAnswer }) {
  const { date, move } = page;
  // The request's box goes once it is answered: its answer is toasted from here, which stays.
  useFormAnswer(useFetcher<FormAnswer>({ key: MOVE_DECISION_INTENT }));
  if (!date) return null;
  const pageAnswer = answer?.form === MOVE_INTENT ? answer : undefined;
  return (
    <Section title="Date">
      <p className="text-sm">
        {formatDateRange(date.startsAt, date.endsAt)} · {date.where}
        {date.cancelled ? <span className="font-medium"> (date cancelled)</span> : null}
      </p>
      {page.moveRequest ? (
        <MoveRequestBox request={page.moveRequest} quantity={page.amounts.quantity} />
      ) : null}
      {move ? (
        <MoveForm
          move={move}
          unitPriceCents={page.amounts.unitPriceCents}
          pageAnswer={pageAnswer}
        />
      ) : null}
    </Section>
  );
}

/** The booker's request to move: approved (the move itself) or declined in one click. */
function MoveRequestBox({ request, quantity }: { request: MoveRequestView; quantity: number }) {
  const fetcher = useFetcher<FormAnswer>({ key: MOVE_DECISION_INTENT });
  const busy = fetcher.state !== "idle";
  const places =
    request.places.length === quantity
      ? "all places"
      : `place${request.places.length === 1 ? "" : "s"} ${request.places.join(", ")}`;
  return (
    <div
      data-testid="move-request"
      className="mt-3 grid gap-2 rounded-md border border-primary/40 bg-primary/5 p-3 text-sm"
    >
      <p>
        The booker asked on {formatDateTime(request.requestedAt)} to move {places} to{" "}
        <span className="font-medium">
          {formatDateRange(request.to.startsAt, request.to.endsAt)}
        </span>{" "}
        ({request.to.where}).
      </p>
      {request.keepPrice ? (
        <p className="text-xs text-muted-foreground">
          The order is paid and that date costs less: places split off a paid order keep the price
          paid. Refund a difference by hand if agreed.
        </p>
      ) : null}
      {request.paidDearer ? (
        <p className="text-xs text-muted-foreground">
          The order is paid and that date costs more: approving re-invoices it, and the buyer owes
          the difference. To keep the price paid, use &lsquo;Move to another date&rsquo; instead.
        </p>
      ) : null}
      <fetcher.Form method="post" className="flex flex-wrap gap-2">
        <input type="hidden" name="intent" value={MOVE_DECISION_INTENT} />
        <input type="hidden" name="request" value={request.id} />
        <input type="hidden" name="price" value={request.keepPrice ? "keep" : "date"} />
        <Button type="submit" size="sm" name="decision" value="approve" disabled={busy}>
          {request.keepPrice ? "Approve at the price paid" : "Approve move"}
        </Button>
        <Button
          type="submit"
          size="sm"
          variant="outline"
          name="decision"
          value="decline"
          disabled={busy}
        >
          Decline
        </Button>
      </fetcher.Form>
    </div>
  );
}

function MoveForm({
  move,
  unitPriceCents,
  pageAnswer,
}: {
  move: MoveOptions;
  unitPriceCents: number;
  pageAnswer?: FormAnswer;
}) {
  const fetcher = useFetcher<FormAnswer>();
  useFormAnswer(fetcher);
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data ?? pageAnswer;
  const failed = answer && !answer.ok ? answer : undefined;
  if (!move.open) {
    return <p className="mt-2 text-xs text-muted-foreground">{move.reason}</p>;
  }
  if (move.targets.length === 0) {
    return (
      <p className="mt-2 text-xs text-muted-foreground">
        No other date of this course has room to move to.
      </p>
    );
  }
  return (
    <details open={Boolean(failed)} className="mt-3 rounded-md border border-border">
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium">
        Move to another date
      </summary>
      {pageAnswer?.message ? (
        <p role={pageAnswer.ok ? "status" : "alert"} className="px-3 text-xs">
          {pageAnswer.message}
        </p>
      ) : null}
      <fetcher.Form
        method="post"
        className="grid gap-3 border-t border-border p-3 text-sm"
        aria-label="Move places to another date"
      >
        <input type="hidden" name="intent" value={MOVE_INTENT} />
        <MoveTargetChoices
          targets={move.targets}
          note={(target) =>
            target.unitPriceCents !== unitPriceCents ? (
              <span className="text-muted-foreground">
                {" "}
                (this order: {formatPence(unitPriceCents)})
              </span>
            ) : null
          }
        />
        <MovePlaceChoices places={move.places} errorId="move-places-error" />
        <fieldset className="grid gap-1">
          <legend className="mb-1 font-medium">Price</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="price" value="date" defaultChecked />
            The new date&apos;s price (a difference is re-invoiced, credited or refunded)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="price" value="keep" />
            Keep the price agreed
          </label>
        </fieldset>
        <Button type="submit" size="sm" disabled={busy} className="justify-self-start">
          {busy ? "Moving..." : "Move places"}
        </Button>
      </fetcher.Form>
    </details>
  );
}
