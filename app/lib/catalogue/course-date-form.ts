import { TZDate } from "@date-fns/tz";
import { z } from "zod/mini";
import { optionalText } from "../admin-form.ts";
import type { FieldErrors } from "../forms.ts";
import { COURSE_DATE_FORMATS, type CourseDateFormat } from "./course-dates.ts";

/**
 * The admin form of a course date (decision 0033; docs/rules.md, Catalogue and courses): one schema for
 * the browser and the server, UK wall-clock times typed in `datetime-local` inputs turned into
 * UTC instants, and the business rules a date must meet with their messages. The server checks
 * them again, with the places already sold, under a lock on the date (never trusting the browser).
 */

export const UK_TIME_ZONE = "Europe/London";

/** The states of a date; only scheduled ones are listed and changed. */
export const COURSE_DATE_STATES = ["scheduled", "cancelled", "completed"] as const;
export type CourseDateState = (typeof COURSE_DATE_STATES)[number];

export const COURSE_DATE_FORMAT_LABELS: Record<CourseDateFormat, string> = {
  classroom: "Classroom",
  online: "Online",
};

export const MIN_CAPACITY = 1;
export const MAX_CAPACITY = 1000;
/** numeric(10,2): up to 99,999,999.99. */
const MAX_PRICE = 99_999_999.99;

export const COURSE_REQUIRED = "Please choose a course";
export const START_REQUIRED = "Please enter when the date starts";
export const END_REQUIRED = "Please enter when the date ends";
export const TIME_INVALID = "Please enter a real date and time (UK time)";
export const CAPACITY_INVALID = `Please enter the number of places, a whole number from ${MIN_CAPACITY} to ${MAX_CAPACITY.toLocaleString("en-GB")}`;
export const PRICE_INVALID =
  "Please enter a price above 0, with at most 2 decimal places (or leave it empty for the course's price)";
export const FORMAT_INVALID = "Please choose classroom or online";

export const END_BEFORE_START = "The end must be after the start";
export const START_IN_PAST = "The start must be in the future";
export const BOOKING_CLOSES_AFTER_START = "Booking must close at or before the start";
export const VENUE_REQUIRED = "Please enter the venue's name for a classroom date";

/**
 * The capacity refused because places are already sold (a card checkout still open holds its
 * places too): it says how many.
 */
export function capacityBelowSold(placesSold: number): string {
  const places = placesSold === 1 ? "1 place is" : `${placesSold} places are`;
  return `${places} already sold or held at checkout, so the capacity cannot be less than ${placesSold}`;
}

/** A `datetime-local` value: 'yyyy-MM-ddTHH:mm', seconds allowed. */
const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

const wallTimeParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: UK_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/**
 * The `datetime-local` value (UK wall-clock time, 'yyyy-MM-ddTHH:mm') of an instant: what an edit
 * form shows of a stored UTC time. 08:30Z on 1 June 2026 is '2026-06-01T09:30' (BST).
 */
export function toUkWallTime(at: Date | string): string {
  const parts = Object.fromEntries(
    wallTimeParts.formatToParts(new Date(at)).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The instant a UK wall-clock time names ('2026-03-30T09:30' → 08:30Z, BST; '2026-10-26T09:30'
 * → 09:30Z, GMT), or null when it is not a real time: malformed, a day that does not exist, or a
 * time the clocks skip (01:30 on the morning they go forward). In the hour the clocks go back,
 * which repeats, the later (GMT) instant is taken.
 */
export function ukWallTimeToUtc(value: string): Date | null {
  const match = WALL_TIME.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return null;
  const at = new Date(new TZDate(year, month - 1, day, hour, minute, UK_TIME_ZONE).getTime());
  if (Number.isNaN(at.getTime())) return null;
  // A day past the month's end or a skipped hour comes back as another wall time: not real.
  const typed = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}`;
  return toUkWallTime(at) === typed ? at : null;
}

function trimmed() {
  return z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v ?? "").trim()),
  );
}

/** A required UK wall time, kept as typed (the instant is `courseDateInstants`'). */
function wallTime(missing: string) {
  return trimmed().check(
    z.refine((v) => v !== "", missing),
    z.refine((v) => v === "" || ukWallTimeToUtc(v) !== null, TIME_INVALID),
  );
}

const uuid = z.uuid();

export const courseDateFormSchema = z
  .object({
    course_id: trimmed().check(z.refine((v) => z.safeParse(uuid, v).success, COURSE_REQUIRED)),
    starts_at: wallTime(START_REQUIRED),
    ends_at: wallTime(END_REQUIRED),
    format: z.pipe(trimmed(), z.enum(COURSE_DATE_FORMATS, { error: FORMAT_INVALID })),
    venue_name: optionalText(200),
    venue_town: optionalText(100),
    venue_address: optionalText(1000),
    joining_details: optionalText(5000),
    schedule: optionalText(5000),
    capacity: z.pipe(
      trimmed().check(
        z.refine(
          (v) => /^\d{1,4}$/.test(v) && Number(v) >= MIN_CAPACITY && Number(v) <= MAX_CAPACITY,
          CAPACITY_INVALID,
        ),
      ),
      z.transform((v: string) => Number(v)),
    ),
    /** Pounds per place, '12.50'; empty → null (the course's price). */
    price: z.pipe(
      trimmed().check(
        z.refine(
          (v) =>
            v === "" || (/^\d+(?:\.\d{1,2})?$/.test(v) && Number(v) > 0 && Number(v) <= MAX_PRICE),
          PRICE_INVALID,
        ),
      ),
      z.transform((v: string) => (v === "" ? null : Number(v).toFixed(2))),
    ),
    /** Empty: booking closes when the date starts. */
    booking_closes_at: trimmed().check(
      z.refine((v) => v === "" || ukWallTimeToUtc(v) !== null, TIME_INVALID),
    ),
  })
  .check(
    // The rules that need no database (the server adds the places sold): shown before posting.
    z.superRefine((values, ctx) => {
      const problems = courseDateProblems(values, { now: new Date() });
      for (const [field, message] of Object.entries(problems)) {
        ctx.addIssue({ code: "custom", message, path: [field], input: values });
      }
    }),
  );

export type CourseDateFormValues = z.output<typeof courseDateFormSchema>;

/** When a date starts, ends and stops taking bookings (UTC), from the form's UK wall times. */
export interface CourseDateInstants {
  startsAt: Date;
  endsAt: Date;
  bookingClosesAt: Date;
}

/**
 * The form's UK wall times as instants; booking closes at the start unless a time is given.
 * Null when a time is not a real UK time (the schema has refused it already).
 */
export function courseDateInstants(
  values: Pick<CourseDateFormValues, "starts_at" | "ends_at" | "booking_closes_at">,
): CourseDateInstants | null {
  const startsAt = ukWallTimeToUtc(values.starts_at);
  const endsAt = ukWallTimeToUtc(values.ends_at);
  const bookingClosesAt =
    values.booking_closes_at === "" ? startsAt : ukWallTimeToUtc(values.booking_closes_at);
  if (!startsAt || !endsAt || !bookingClosesAt) return null;
  return { startsAt, endsAt, bookingClosesAt };
}

/**
 * A date's business rules (docs/rules.md, Catalogue and courses), as messages by field; empty when it may
 * be stored. The end after the start; the start in the future (`startMayBePast` when an edit
 * keeps a start that has passed); booking closing at or before the start; a classroom date names
 * its venue; the capacity not below the places already sold (`placesSold`, known on the server).
 */
export function courseDateProblems(
  values: Pick<
    CourseDateFormValues,
    "starts_at" | "ends_at" | "booking_closes_at" | "format" | "venue_name" | "capacity"
  >,
  context: { now: Date; placesSold?: number; startMayBePast?: boolean },
): FieldErrors {
  const problems: FieldErrors = {};
  // A field the schema refused has its own message already.
  if (values.format === "classroom" && !values.venue_name) problems.venue_name = VENUE_REQUIRED;
  const placesSold = context.placesSold ?? 0;
  if (typeof values.capacity === "number" && values.capacity < placesSold) {
    problems.capacity = capacityBelowSold(placesSold);
  }
  const startsAt = ukWallTimeToUtc(values.starts_at ?? "");
  if (!startsAt) return problems;
  if (!context.startMayBePast && startsAt <= context.now) problems.starts_at = START_IN_PAST;
  const endsAt = ukWallTimeToUtc(values.ends_at ?? "");
  if (endsAt && endsAt <= startsAt) problems.ends_at = END_BEFORE_START;
  const closes = values.booking_closes_at ? ukWallTimeToUtc(values.booking_closes_at) : null;
  if (closes && closes > startsAt) problems.booking_closes_at = BOOKING_CLOSES_AFTER_START;
  return problems;
}

/** A date as the admin Dates screen lists it and its edit form starts from. */
export interface AdminCourseDate {
  id: string;
  courseId: string;
  courseTitle: string;
  /** ISO 8601, UTC. */
  startsAt: string;
  endsAt: string;
  bookingClosesAt: string;
  format: CourseDateFormat;
  venueName: string | null;
  venueTown: string | null;
  venueAddress: string | null;
  joiningDetails: string | null;
  schedule: string | null;
  capacity: number;
  /** This date's price per place in pounds ('12.50'); null: the course's. */
  price: string | null;
  /** Places of invoiced and paid orders and of invoice requests not yet invoiced. */
  sold: number;
  /** Places held by card checkouts still open. */
  held: number;
  /** Capacity less sold and held (never below 0). */
  free: number;
  /** What paid orders brought in, less refunds, in pence. */
  revenueCents: number;
  state: CourseDateState;
}

/** A course the New date form offers (published and draft ones). */
export interface CourseDateCourseOption {
  id: string;
  title: string;
  status: string;
}
