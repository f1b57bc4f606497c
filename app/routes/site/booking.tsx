import { Form, Link, data, isRouteErrorResponse, useActionData, useRouteError } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { FORM_FIELD } from "#app/lib/inquiries/schemas.ts";
import { CalendarPlus, FileText } from "lucide-react";
import { MoveRequestForm, StudentForm } from "#app/components/site/booking-forms.tsx";
import { formatDate } from "#app/lib/admin/time.ts";
import { certificatePath } from "#app/lib/catalogue/certificates.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { formatPence } from "#app/lib/format.ts";
import { keepFormOnFailure } from "#app/lib/forms.ts";
import {
  BOOKING_MESSAGES,
  BOOKINGS_PATH,
  CARD_SESSION_PARAM,
  PAY_BY_CARD_ANCHOR,
  PAY_BY_CARD_FORM,
  PAY_BY_CARD_MESSAGES,
  changesUntilText,
  type BookerPage,
} from "#app/lib/orders/booking.ts";
import { MOVE_REQUEST_FORM } from "#app/lib/orders/moves.ts";
import { pageMeta } from "#app/lib/ui/seo.ts";
import { clientAddress } from "#server/abuse.server.ts";
import { bookingPageAction } from "#server/forms/booking-actions.server.ts";
import { bookerPageAfterCard, bookingAccess } from "#server/orders/booker-page.server.ts";
import type { Route } from "./+types/booking";

/**
 * /bookings/:token, the booker's page (decision 0037): their order by its signed link — the date,
 * who holds each place, the documents and certificates — and, until the change window closes, a
 * form per place to name its student or give it to a colleague. Never cached, never indexed, and
 * no referrer leaves it (the link is the key).
 */

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const access = await bookingAccess(params.token, clientAddress(context));
  if (!access.ok) {
    const headers: HeadersInit = access.retryAfter
      ? { "Retry-After": String(access.retryAfter) }
      : {};
    throw data({ status: access.status }, { status: access.status, headers });
  }
  // Back from paying the invoice by card: the payment is read from Stripe, not the address.
  const cardSession = new URL(request.url).searchParams.get(CARD_SESSION_PARAM);
  return { page: await bookerPageAfterCard(access.order, cardSession) };
}

export const action = bookingPageAction;
export const clientAction = keepFormOnFailure;

export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex",
});

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, {
    title: args.loaderData ? `Booking ${args.loaderData.page.reference}` : "Your Booking",
    description: "Your NightWatch course booking.",
    noindex: true,
  }),
  // The address is the key to the booking: no link followed from the page carries it to another
  // site. 'same-origin', not 'no-referrer': under 'no-referrer' a browser posts the page's own
  // forms with `Origin: null`, which the action's cross-site check refuses.
  { name: "referrer", content: "same-origin" },
];

const DOCUMENT_NAMES = { invoice: "Invoice", receipt: "Receipt", credit_note: "Credit note" };

export default function Booking({ loaderData, params }: Route.ComponentProps) {
  const { page } = loaderData;
  const base = `${BOOKINGS_PATH}/${params.token}`;
  return (
    <section className="mx-auto grid max-w-3xl gap-8 px-4 py-12">
      <div className="grid gap-1">
        <p className="text-sm text-muted-foreground">Booking {page.reference}</p>
        <h1 className="text-3xl font-bold tracking-tight break-words">{page.courseTitle}</h1>
        <p data-testid="booking-status" className="font-medium">
          {page.status}
        </p>
      </div>
      {page.date ? (
        <DateSection
          date={page.date}
          calendarHref={page.calendar ? `${base}/calendar.ics` : null}
        />
      ) : null}
      {page.payByCard || page.cardPayment ? <PayByCardSection page={page} /> : null}
      <StudentsSection page={page} />
      {page.move ? <MoveSection move={page.move} places={page.places} /> : null}
      <section aria-labelledby="documents-heading" className="grid gap-3">
        <h2 id="documents-heading" className="text-xl font-semibold">
          Invoices and receipts
        </h2>
        {page.documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            None yet: each one appears here, and is e-mailed to you, when it is issued.
          </p>
        ) : (
          <ul className="grid gap-2">
            {page.documents.map((d) => (
              <li key={d.id}>
                <a
                  href={`${base}/documents/${d.id}`}
                  className="inline-flex min-h-11 items-center gap-2 underline underline-offset-4"
                  download
                >
                  <FileText className="size-4" aria-hidden />
                  {DOCUMENT_NAMES[d.kind]} {d.number} ({formatDate(d.issuedAt)}, PDF)
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="order-heading" className="grid gap-3">
        <h2 id="order-heading" className="text-xl font-semibold">
          Order
        </h2>
        <dl className="grid gap-2 sm:grid-cols-[12rem_1fr]">
          {(
            [
              ["Booked by", `${page.buyer.name} <${page.buyer.email}>`],
              ["Organisation", page.buyer.organisation],
              ["Booked on", formatDate(page.bookedAt)],
              ["Places", String(page.quantity)],
              ["Payment", page.paymentMethod],
              ["Total", formatPence(page.totalCents)],
              ["Refunded", page.refundedCents > 0 ? formatPence(page.refundedCents) : null],
              ["PO number", page.poNumber],
            ] as [string, string | null][]
          )
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-muted-foreground">{label}</dt>
                <dd className="break-words">{value}</dd>
              </div>
            ))}
        </dl>
        <p className="text-sm text-muted-foreground">
          Anything else? Reply to any of our e-mails and quote {page.reference}.
        </p>
      </section>
    </section>
  );
}

function DateSection({
  date,
  calendarHref,
}: {
  date: NonNullable<BookerPage["date"]>;
  calendarHref: string | null;
}) {
  return (
    <section aria-labelledby="date-heading" className="grid gap-3">
      <h2 id="date-heading" className="text-xl font-semibold">
        When and where
      </h2>
      {date.cancelled ? (
        <p role="status" className="rounded-md border border-destructive/60 bg-destructive/10 p-3">
          This date was cancelled. We have written to you about your booking.
        </p>
      ) : null}
      <dl className="grid gap-2 sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-muted-foreground">Date</dt>
        <dd>{formatDateRange(date.startsAt, date.endsAt)}</dd>
        {date.schedule ? (
          <>
            <dt className="font-medium text-muted-foreground">Schedule</dt>
            <dd className="whitespace-pre-line">{date.schedule}</dd>
          </>
        ) : null}
        <dt className="font-medium text-muted-foreground">Where</dt>
        <dd className="break-words">{date.where}</dd>
        {date.joiningDetails ? (
          <>
            <dt className="font-medium text-muted-foreground">How to join</dt>
            <dd className="break-words whitespace-pre-line">{date.joiningDetails}</dd>
          </>
        ) : null}
      </dl>
      {calendarHref ? (
        <a
          href={calendarHref}
          className="inline-flex min-h-11 items-center gap-2 justify-self-start underline underline-offset-4"
          download
        >
          <CalendarPlus className="size-4" aria-hidden />
          Add to calendar
        </a>
      ) : null}
    </section>
  );
}

function closedText(page: BookerPage): string | null {
  if (page.changes.open) {
    return page.changes.until
      ? `You can name or change students here until ${changesUntilText(page.changes.until)}.`
      : "You can name or change students here until their course access details are sent.";
  }
  return page.changes.reason === "not_held" ? BOOKING_MESSAGES.notHeld : BOOKING_MESSAGES.closed;
}

function StudentsSection({ page }: { page: BookerPage }) {
  return (
    <section aria-labelledby="students-heading" className="grid gap-3">
      <h2 id="students-heading" className="text-xl font-semibold">
        Students
      </h2>
      <p className="text-sm text-muted-foreground">{closedText(page)}</p>
      <ol className="grid gap-4">
        {page.places.map((place) => (
          <li
            key={place.position}
            data-testid={`place-${place.position}`}
            className="grid gap-2 rounded-lg border p-4"
          >
            <p>
              <span className="text-sm text-muted-foreground">Place {place.position}: </span>
              {place.name ? (
                <>
                  <span className="font-medium">{place.name}</span>{" "}
                  <span className="text-sm break-all text-muted-foreground">{place.email}</span>
                </>
              ) : (
                <span className="font-medium">Name to follow</span>
              )}
            </p>
            {place.certificate ? (
              <p className="text-sm">
                Certificate{" "}
                <Link
                  to={certificatePath(place.certificate.number)}
                  className="underline underline-offset-4"
                >
                  {place.certificate.number}
                </Link>{" "}
                (issued {formatDate(place.certificate.issuedAt)})
              </p>
            ) : null}
            {page.changes.open && !place.accessSentAt ? (
              <details open={!place.name}>
                <summary className="min-h-11 cursor-pointer py-2.5 text-sm font-medium underline underline-offset-4">
                  {place.name ? "Give this place to someone else" : "Name this student"}
                </summary>
                <div className="pt-3">
                  <StudentForm place={place.position} named={place.name !== null} />
                </div>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
      {page.movedOut.map((moved) => (
        <p key={moved.reference} data-testid="moved-out" className="text-sm">
          {moved.places} {moved.places === 1 ? "place" : "places"} moved to another date as booking{" "}
          <Link to={moved.url} className="underline underline-offset-4">
            {moved.reference}
          </Link>
          .
        </p>
      ))}
    </section>
  );
}

/**
 * "Pay by card" (decision 0042): what the invoice still asks for, and a button to Stripe's payment
 * page (made when pressed, for the amount owed then). A plain post: it works before the page's
 * scripts run. Back from paying, what Stripe said.
 */
function PayByCardSection({ page }: { page: BookerPage }) {
  const answer: unknown = useActionData();
  const refused =
    typeof answer === "object" &&
    answer !== null &&
    "form" in answer &&
    answer.form === PAY_BY_CARD_FORM &&
    "message" in answer
      ? String(answer.message)
      : null;
  const returned = page.cardPayment;
  return (
    <section id={PAY_BY_CARD_ANCHOR} aria-labelledby="pay-heading" className="grid gap-3">
      <h2 id="pay-heading" className="text-xl font-semibold">
        Pay by card
      </h2>
      {returned ? (
        <p role="status" data-testid="card-payment" className="rounded-lg border p-4 text-sm">
          {returned.state === "paid"
            ? PAY_BY_CARD_MESSAGES.paid(formatPence(returned.amountCents))
            : PAY_BY_CARD_MESSAGES.pending}
        </p>
      ) : null}
      {page.payByCard ? (
        <Form method="post" className="grid gap-3">
          <input type="hidden" name={FORM_FIELD} value={PAY_BY_CARD_FORM} />
          <p className="text-sm">
            {formatPence(page.payByCard.owedCents)} is owed on invoice{" "}
            {page.payByCard.invoiceNumber}. You can pay it by card now; you will be taken to our
            payment provider, Stripe.
          </p>
          <div>
            <Button type="submit">Pay {formatPence(page.payByCard.owedCents)} by card</Button>
          </div>
          {refused ? (
            <p role="alert" className="text-sm text-destructive">
              {refused}
            </p>
          ) : null}
        </Form>
      ) : null}
    </section>
  );
}

/** 'Move to another date' (decision 0038): the request waiting for staff, and the form to ask. */
function MoveSection({
  move,
  places,
}: {
  move: NonNullable<BookerPage["move"]>;
  places: BookerPage["places"];
}) {
  // A post answered without JavaScript shows its answer inside the form: keep it open.
  const answer: unknown = useActionData();
  const answered =
    typeof answer === "object" &&
    answer !== null &&
    "form" in answer &&
    answer.form === MOVE_REQUEST_FORM;
  return (
    <section aria-labelledby="move-heading" className="grid gap-3">
      <h2 id="move-heading" className="text-xl font-semibold">
        Move to another date
      </h2>
      {move.open ? (
        <p data-testid="move-request" className="rounded-lg border p-4 text-sm">
          You asked on {formatDate(move.open.requestedAt)} to move{" "}
          {move.open.places.length === places.length
            ? "all places"
            : `place${move.open.places.length === 1 ? "" : "s"} ${move.open.places.join(", ")}`}{" "}
          to {formatDateRange(move.open.to.startsAt, move.open.to.endsAt)} ({move.open.to.where}).
          Our team will e-mail you once they have looked at it.
        </p>
      ) : null}
      {move.targets.length > 0 ? (
        <details open={answered}>
          <summary className="min-h-11 cursor-pointer py-2.5 text-sm font-medium underline underline-offset-4">
            {move.open ? "Ask for something else instead" : "Ask to move places to another date"}
          </summary>
          <div className="pt-3">
            <MoveRequestForm move={move} places={places} />
          </div>
        </details>
      ) : null}
    </section>
  );
}

/** A link that is not valid, has expired, or is used too fast: said plainly, in the site's frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || ![404, 410, 429].includes(error.status)) throw error;
  const [title, text] =
    error.status === 410
      ? [
          "This link has expired",
          "Booking links last until 90 days after the course. Get a new one by e-mail:",
        ]
      : error.status === 429
        ? ["Too many requests", "Please wait a minute and try again, or get a new link by e-mail:"]
        : [
            "This link is not valid",
            "It may have been copied only in part. Get a new link to your booking by e-mail:",
          ];
  return (
    <section className="mx-auto grid max-w-xl gap-4 px-4 py-20">
      <title>{`${title} | NightWatch`}</title>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p>
        {text}{" "}
        <Link to={BOOKINGS_PATH} className="underline underline-offset-4">
          Find my booking
        </Link>
        .
      </p>
    </section>
  );
}
