import { z } from "zod/mini";
import { londonDate } from "../admin/time.ts";
import { formatUkDateTime, formatUkDay, type CourseDateFormat } from "../catalogue/course-dates.ts";
import { LIMITS, newsletterSchema, requiredLine } from "../inquiries/schemas.ts";
import type { MoveRequestView, MoveTarget } from "./moves.ts";
import type { OrderDocumentKind } from "./orders.ts";

/**
 * The booker's page (decision 0037), as both sides see it: its address, what it shows, its two
 * forms' zod schemas (used by the browser before posting and by the server on the posted body;
 * only the server's answer counts) and what the answers say. Safe on both sides: no server
 * imports here.
 */

export const BOOKINGS_PATH = "/bookings";

/** The booker's page of a signed link's token. */
export const bookingPath = (token: string) => `${BOOKINGS_PATH}/${token}`;

/** The answers' `form` of 'find my booking' and of a change of student. */
export const FIND_BOOKING_FORM = "find_booking";
export const STUDENT_FORM = "student";

/** The admin order page's 'Change student' (the same fields as the booker's form). */
export const STUDENT_INTENT = "student";

/** The admin order page's 'E-mail the booking link to the buyer'. */
export const BOOKING_LINK_INTENT = "bookingLink";

/** The booker's page's "Pay by card" (decision 0042): its form and the section's anchor. */
export const PAY_BY_CARD_FORM = "pay_by_card";
export const PAY_BY_CARD_ANCHOR = "pay";
/** The query parameter Stripe's return to the booker's page carries its Checkout Session in. */
export const CARD_SESSION_PARAM = "card_session";

export const PAY_BY_CARD_MESSAGES = {
  notOwed: "Nothing is owed on this booking now, so there is nothing to pay by card.",
  unavailable:
    "Card payment could not be started just now. Please try again in a few minutes, or pay by bank transfer.",
  paid: (amount: string) =>
    `Thank you: your card payment of ${amount} has been received. Your receipt is on its way by e-mail.`,
  pending: "Thank you: your card payment is being confirmed and will show here shortly.",
} as const;

/** 'Find my booking': the address the booking was made with. */
export const findBookingSchema = newsletterSchema;

const PLACE_MESSAGE = "Choose the place to change";

/** A place's student, named or changed: which place (1 to 10), and who now takes it. */
export const studentSchema = z.object({
  place: z.pipe(
    z.string({ error: PLACE_MESSAGE }).check(z.trim(), z.regex(/^(?:[1-9]|10)$/, PLACE_MESSAGE)),
    z.transform((v: string) => Number(v)),
  ),
  first_name: requiredLine("First name", LIMITS.name, "Please enter the student's first name"),
  last_name: requiredLine("Last name", LIMITS.name, "Please enter the student's last name"),
  email: newsletterSchema.shape.email,
});

export const STUDENT_FIELDS = ["place", "first_name", "last_name", "email"] as const;

export const BOOKING_MESSAGES = {
  linksSent:
    "If we have bookings made with that address, we have e-mailed a link to each of them. It can take a few minutes to arrive; check your spam folder too.",
  findFailed: "Sorry, we could not send the links just now. Please try again in a few minutes.",
  changed: (name: string) =>
    `Saved: ${name} now holds the place. We have e-mailed you, the new student and anyone who held it before.`,
  unchanged: "That is who holds the place already: nothing changed.",
  closed:
    "Names can no longer be changed online for this booking. Please reply to any of our e-mails and we will help.",
  notHeld: "This booking holds no places any more, so its names cannot change.",
  noSuchPlace: "This booking has no such place.",
  accessSent:
    "This place's course access details were sent already, so its student cannot change online. Please reply to any of our e-mails and we will help.",
  saveFailed: "Sorry, the change could not be saved. Please try again.",
  // Staff's refusals, on the order page.
  ended: "This date has ended or was cancelled: its students can no longer change.",
  heldOrErased:
    "This order is held as suspected spam or was anonymised: release it before changing its students.",
  staffChanged: (name: string, place: number) =>
    `Student changed: ${name} now holds place ${place}. The buyer and both students have been e-mailed.`,
} as const;

/** Why a booking's names can no longer change online (shown instead of the forms). */
export type ChangesClosed = "cut_off" | "not_held" | "date_cancelled";

export interface BookerPlace {
  position: number;
  /** Null: bought for someone else, to be named. */
  name: string | null;
  email: string | null;
  /** The place's valid certificate of attendance, once issued. */
  certificate: { number: string; issuedAt: string } | null;
  /** On-demand: the place's access details were sent (then its student stays). */
  accessSentAt: string | null;
}

export interface BookerDocument {
  id: string;
  kind: OrderDocumentKind;
  number: string;
  issuedAt: string;
}

/** What the booker's page shows: their order, its date, its places and documents. */
export interface BookerPage {
  reference: string;
  courseTitle: string;
  /** e.g. 'Invoiced, unpaid', 'Paid', 'Cancelled'. */
  status: string;
  paymentMethod: string;
  bookedAt: string;
  buyer: { name: string; email: string; organisation: string | null };
  quantity: number;
  totalCents: number;
  refundedCents: number;
  currency: string;
  poNumber: string | null;
  date: {
    startsAt: string;
    endsAt: string;
    format: CourseDateFormat;
    schedule: string | null;
    where: string;
    /** An online date's joining details, for a booking that holds its places. */
    joiningDetails: string | null;
    cancelled: boolean;
  } | null;
  places: BookerPlace[];
  documents: BookerDocument[];
  /** Places moved off this booking into bookings of their own (decision 0038), newest last. */
  movedOut: { places: number; reference: string; url: string }[];
  /** Until when names can change (ISO), or why they cannot. */
  changes: { open: true; until: string | null } | { open: false; reason: ChangesClosed };
  /** Whether 'Add to calendar' is offered (a scheduled date the booking holds places on). */
  calendar: boolean;
  /**
   * 'Ask to move' (decision 0038): the dates with room the places could move to, and the request
   * waiting for staff; null when it is not offered.
   */
  move: {
    targets: MoveTarget[];
    open: MoveRequestView | null;
  } | null;
  /**
   * "Pay by card" (decision 0042): what is owed on the invoice, when card payments are on and
   * the invoice is unpaid; null otherwise.
   */
  payByCard: { owedCents: number; invoiceNumber: string } | null;
  /** What the return from a card payment said ('paid': recorded; 'pending': not yet). */
  cardPayment: { state: "paid" | "pending"; amountCents: number } | null;
}

/**
 * Until when names can change, in words: a window that closes at a London midnight is named as
 * the end of the day before ('the end of Mon, 4 Jan 2027 (UK time)'), any other as its time.
 */
export function changesUntilText(until: string): string {
  const at = new Date(until);
  const before = new Date(at.getTime() - 1);
  return londonDate(before) !== londonDate(at)
    ? `the end of ${formatUkDay(before)} (UK time)`
    : formatUkDateTime(at);
}
