import type { PublicCourseDate } from "./course-dates.ts";
import { z } from "zod/mini";
import { LIMITS, newsletterSchema, requiredLine } from "../inquiries/schemas.ts";
import { toOneLine } from "../text.ts";

/**
 * Waiting lists (decision 0034): the two public forms' one zod schema each, used by the browser
 * before posting and by the server on the posted body (only the server's answer counts), the
 * consent words the forms show, what the answers say, and the names the checkout's offer link
 * uses. Safe on both sides: no server imports here.
 */

/** The most places one entry may wait for (a group's booking is at most 10 places too). */
export const WAITING_LIST_MAX_PLACES = 10;

/** The answers' `form`, and the page's forms' ids. */
export const WAITING_LIST_FORM = "waiting_list";

/** The checkout's query parameter carrying an offer's token, and the field that posts it on. */
export const OFFER_PARAM = "offer";
export const OFFER_FIELD = "waiting_list_offer";

/** The waiting list page of a course: a date's list (`?date=`), else 'tell me about new dates'. */
export function waitingListPath(slug: string, dateId: string | null): string {
  const path = `/courses/${encodeURIComponent(slug)}/waiting-list`;
  return dateId ? `${path}?date=${encodeURIComponent(dateId)}` : path;
}

/** What the dated form shows beside its button: what we do with the details, and for how long. */
export const WAITING_LIST_CONSENT_TEXT =
  "I agree that NightWatch may keep these details to e-mail me when places on this date free up, and to fill in my booking if I take them. They are used for nothing else and deleted 30 days after the date has run, or 30 days after I book or leave the list.";

/** What the 'tell me when dates are announced' form shows beside its button. */
export const ANNOUNCE_CONSENT_TEXT =
  "I agree that NightWatch may keep my name and e-mail address to send me one e-mail when new dates of this course are announced. They are used for nothing else and deleted 30 days after that e-mail, or after 12 months if no date is announced.";

export const CONSENT_REQUIRED = "Please tick the box to agree to how we use your details";

const ORGANISATION_MAX = 200;

const consentField = z.literal("on", { error: CONSENT_REQUIRED });

/** Places wanted: a whole number from 1 to 10, as typed in the form. */
export const PLACES_MESSAGE = `Please choose between 1 and ${WAITING_LIST_MAX_PLACES} places`;
const placesField = z.pipe(
  z.string({ error: PLACES_MESSAGE }).check(z.trim(), z.regex(/^\d{1,2}$/, PLACES_MESSAGE)),
  z.pipe(
    z.transform((v: string) => Number(v)),
    z
      .number()
      .check(z.minimum(1, PLACES_MESSAGE), z.maximum(WAITING_LIST_MAX_PLACES, PLACES_MESSAGE)),
  ),
);

/** Joining a date's waiting list: who, how many places, and consent. */
export const waitingListSchema = z.object({
  first_name: requiredLine("First name", LIMITS.name, "Please enter your first name"),
  last_name: requiredLine("Last name", LIMITS.name, "Please enter your last name"),
  email: newsletterSchema.shape.email,
  organisation: z.pipe(
    z.optional(
      z
        .string()
        .check(
          z.overwrite(toOneLine),
          z.trim(),
          z.maxLength(
            ORGANISATION_MAX,
            `Organisation must be at most ${ORGANISATION_MAX} characters`,
          ),
        ),
    ),
    z.transform((v: string | undefined) => (v ? v : null)),
  ),
  places: placesField,
  consent: consentField,
});
export type WaitingListInput = z.output<typeof waitingListSchema>;

/** Asking to hear when a course without dates to come gets one: a name, an address, consent. */
export const announceSchema = z.object({
  name: requiredLine("Name", LIMITS.name, "Please enter your name"),
  email: newsletterSchema.shape.email,
  consent: consentField,
});
export type AnnounceInput = z.output<typeof announceSchema>;

/** The fields a failed answer gives back to each form. */
export const WAITING_LIST_FIELDS = [
  "first_name",
  "last_name",
  "email",
  "organisation",
  "places",
  "consent",
] as const;
export const ANNOUNCE_FIELDS = ["name", "email", "consent"] as const;

export const WAITING_LIST_MESSAGES = {
  joined: {
    title: "You're on the Waiting List",
    description:
      "We'll e-mail you as soon as places free up, in the order people joined. The e-mail holds the places for you for a while.",
  },
  announce: {
    title: "We'll Let You Know",
    description: "We'll send you one e-mail when new dates of this course are announced.",
  },
  failed: { title: "Could Not Join", description: "Please try again later." },
  duplicate: "This e-mail address is already on this waiting list.",
  placesLeft: (n: number) =>
    `This date still has ${n === 1 ? "1 place" : `${n} places`} left: please book ${n === 1 ? "it" : "them"}, or another date, instead.`,
  unavailable: "This date is no longer open for booking, so it has no waiting list.",
} as const;

/** An entry's states, as staff read them. */
export const WAITING_LIST_STATE_LABELS: Record<string, string> = {
  waiting: "Waiting",
  offered: "Offered",
  booked: "Booked",
  expired: "Offer expired",
  removed: "Removed",
  notified: "E-mailed",
};

/** One entry on the admin's waiting list page. */
export interface AdminWaitingListEntry {
  id: string;
  position: number;
  firstName: string;
  lastName: string;
  email: string;
  organisation: string | null;
  places: number;
  state: string;
  joinedAt: string;
  offeredAt: string | null;
  offerExpiresAt: string | null;
  orderId: string | null;
  suspected: boolean;
}

/**
 * A date offers its waiting list once it is full (decision 0034): places still on sale are
 * booked, never waited for — an entry would hold them off sale for everyone else.
 */
export function offersWaitingList(date: PublicCourseDate): boolean {
  return date.placesLeft === 0;
}
