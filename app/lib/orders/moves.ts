import { z } from "zod/mini";
import { formatPence } from "../format.ts";

/**
 * Moving an order's places to another date of its course (decision 0038), as both sides see it:
 * the admin order page's form, its zod schema (checked by the browser before posting and by the
 * server on the posted body; only the server's answer counts) and what the answers say. Safe on
 * both sides: no server imports here.
 */

/** The admin order page's 'Move to another date'. */
export const MOVE_INTENT = "move";

/** Charge or credit a price difference (the default), or keep the price the buyer agreed. */
export const MOVE_PRICE_CHOICES = ["date", "keep"] as const;
export type MovePriceChoice = (typeof MOVE_PRICE_CHOICES)[number];

const PLACE = /^(?:[1-9]|10)$/;

/** Which places move: checkboxes named `places`, one value each (1 to 10). */
export const moveSchema = z.object({
  to_date: z.uuid({ error: "Choose the date to move to" }),
  places: z.pipe(
    z.union([z.string(), z.array(z.string())], { error: "Choose at least one place to move" }),
    z
      .transform((v: string | string[]) => (Array.isArray(v) ? v : [v]))
      .check(
        z.refine(
          (values: string[]) =>
            values.length > 0 &&
            values.every((v) => PLACE.test(v.trim())) &&
            new Set(values).size === values.length,
          "Choose at least one place to move",
        ),
      ),
  ),
  price: z._default(z.enum(MOVE_PRICE_CHOICES), "date"),
});

export const MOVE_FIELDS = ["to_date", "places", "price"] as const;

/** The booker's page's 'Ask to move' and its answers' `form`. */
export const MOVE_REQUEST_FORM = "move_request";

/** The booker asks: which date, which places (staff approve or decline on the order page). */
export const moveRequestSchema = z.object({
  to_date: moveSchema.shape.to_date,
  places: moveSchema.shape.places,
});

export const MOVE_REQUEST_FIELDS = ["to_date", "places"] as const;

/** The order page's 'Approve move' and 'Decline' of a booker's request. */
export const MOVE_DECISION_INTENT = "moveDecision";

export const moveDecisionSchema = z.object({
  request: z.uuid(),
  decision: z.enum(["approve", "decline"]),
  price: z._default(z.enum(MOVE_PRICE_CHOICES), "date"),
});

/** A booker's open request, as the order page and the booker's page show it. */
export interface MoveRequestView {
  id: string;
  requestedAt: string;
  places: number[];
  to: { startsAt: string; endsAt: string; where: string };
  /** A paid order asking for a dearer date: approving it invoices the difference (decision 0046). */
  paidDearer: boolean;
  /** Some places of a paid order asking for a cheaper date: approved at the price paid. */
  keepPrice: boolean;
}

/** A date the order could move to, as the form lists it. */
export interface MoveTarget {
  id: string;
  startsAt: string;
  endsAt: string;
  where: string;
  placesLeft: number;
  /** A place's price on that date, in pence. */
  unitPriceCents: number;
}

/** What the order page offers: the dates with room, or why the order cannot move. */
export type MoveOptions =
  | { open: true; targets: MoveTarget[]; places: { position: number; name: string | null }[] }
  | { open: false; reason: string };

export const MOVE_MESSAGES = {
  notFound: "This order no longer exists.",
  heldOrErased:
    "This order is held as suspected spam or was anonymised: release it before moving its places.",
  onDemand: "This order is for an on-demand course: it has no date to move.",
  notHeld: "This order holds no places any more, so they cannot move.",
  checkoutOpen:
    "This order is waiting for its card payment: move it once it is paid, or cancel it.",
  started: "Its date has started, ended or was cancelled: its places can no longer move.",
  sameDate: "The places are on that date already: choose another.",
  targetGone: "That date can no longer take bookings: choose another.",
  noSuchPlace: "This order has no such place.",
  paidSplitCheaper:
    "Places split off a paid order take what was paid for them: move them at the price paid (then refund a difference if agreed), or move all of the order's places.",
  paidRefunded:
    "This order is paid and was partly refunded, so its places cannot be re-priced or split: move all of them at the price paid, or cancel the order and book the new date.",
  noRoom: (left: number, wanted: number) =>
    `That date has ${left} ${left === 1 ? "place" : "places"} free; the move needs ${wanted}. Choose another date or raise its places first.`,
  noRoomToAsk: (left: number) =>
    `That date has only ${left} ${left === 1 ? "place" : "places"} left: choose another date, or fewer places.`,
  invoiceCredited:
    "This order's invoice was partly credited, so it cannot be re-issued at the new price: keep the price, or correct it by hand.",
  vatChanges:
    "On that date this order would be taxed differently (a UK classroom is charged UK VAT; a live online session sold to a business abroad is not): cancel it and book the new date instead.",
  failed: "Sorry, the places could not be moved. Please try again.",
  // The booker's request, and staff's decision on it.
  requested:
    "Thank you: we have your request and will e-mail you once our team has looked at it, usually within one working day.",
  requestFailed: "Sorry, your request could not be sent just now. Please try again.",
  requestClosed:
    "Places can no longer be moved online for this booking. Please reply to any of our e-mails and we will help.",
  decided: "This request was already approved, declined or replaced.",
  declined: "Request declined. The buyer has been e-mailed.",
} as const;

/** What staff are told after a move. */
export function movedMessage(outcome: {
  places: number;
  split: boolean;
  reference: string;
  when: string;
  documents: string[];
  refund: { cents: number; byHand: boolean; failed: boolean } | null;
  /** A paid order moved to a dearer date: what it owes now (decision 0046). */
  owedCents?: number;
}): string {
  const what = outcome.split
    ? `${outcome.places} ${outcome.places === 1 ? "place" : "places"} moved to ${outcome.when} as order ${outcome.reference}.`
    : `Order moved to ${outcome.when}.`;
  const documents = outcome.documents.length ? ` Issued ${outcome.documents.join(", ")}.` : "";
  const refund = !outcome.refund
    ? ""
    : outcome.refund.failed
      ? ` The refund of ${formatPence(outcome.refund.cents)} failed: make it with 'Refund'.`
      : outcome.refund.byHand
        ? ` Refund ${formatPence(outcome.refund.cents)} by bank transfer.`
        : ` ${formatPence(outcome.refund.cents)} refunded to the card.`;
  const owed = outcome.owedCents
    ? ` The order is invoiced again: ${formatPence(outcome.owedCents)} is owed.`
    : "";
  return `${what}${documents}${refund}${owed} The buyer and the students have been e-mailed.`;
}
