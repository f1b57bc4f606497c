/**
 * Joining a waiting list (decision 0034; docs/rules.md, Waiting lists): a full date's list, or
 * asking to hear of a course's next date; the offer a checkout link names; how many wait per date.
 * Offering places is in waiting-list-offers.server.ts; the order placed through an offer marks
 * its entry booked (orders/create.server.ts).
 */
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { type AnnounceInput, type WaitingListInput } from "#app/lib/catalogue/waiting-list.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { db } from "../db/client.server.ts";
import { courseDates, courses, waitingListEntries } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { log } from "../log.server.ts";
import { hasUpcomingDates, offerTokenHash, placesLeftIn, placesOf } from "./course-dates.server.ts";

import { offerFreedPlacesAfter } from "./waiting-list-offers.server.ts";

type DateRow = typeof courseDates.$inferSelect;

/** A course that can have a waiting list: published and the provider's own. */
async function listedCourse(slug: string) {
  const [course] = await db()
    .select({ id: courses.id, slug: courses.slug, title: courses.title })
    .from(courses)
    .where(and(eq(courses.slug, slug), eq(courses.status, "published"), isNull(courses.partnerId)));
  return course ?? null;
}

/** Whether a date is open: scheduled, still to start and still booking. */
function isOpen(date: DateRow | undefined, now: Date): date is DateRow {
  return !!date && date.state === "scheduled" && date.startsAt > now && date.bookingClosesAt > now;
}

const sameAddress = (email: string) =>
  sql`lower(trim(${waitingListEntries.email})) = ${email.trim().toLowerCase()}`;

/** Entries still waiting or offered, not suspected: a second one for the same address is refused. */
const stillActive = and(
  inArray(waitingListEntries.state, ["waiting", "offered"]),
  isNull(waitingListEntries.spamReason),
);

/** The waiting list page: the course, and the date whose list it is (or none: new dates). */
export type WaitingListPage =
  | {
      kind: "date";
      course: { slug: string; title: string };
      date: { id: string; startsAt: string; endsAt: string; placesLeft: number };
    }
  | { kind: "announce"; course: { slug: string; title: string } }
  /** A date that is not open any more, or a course that has dates to book: back to the course. */
  | { kind: "course"; slug: string };

export async function loadWaitingListPage(
  slug: string,
  dateId: string | null,
  now: Date = new Date(),
): Promise<WaitingListPage | null> {
  const course = await listedCourse(slug);
  if (!course) return null;
  const about = { slug: course.slug, title: course.title };
  if (!dateId) {
    return (await hasUpcomingDates(db(), course.id))
      ? { kind: "course", slug: course.slug }
      : { kind: "announce", course: about };
  }
  if (!isUuid(dateId)) return { kind: "course", slug: course.slug };
  const [date] = await db()
    .select()
    .from(courseDates)
    .where(and(eq(courseDates.id, dateId), eq(courseDates.courseId, course.id)));
  if (!isOpen(date, now)) return { kind: "course", slug: course.slug };
  const places = (await placesOf(db(), [date.id])).get(date.id);
  return {
    kind: "date",
    course: about,
    date: {
      id: date.id,
      startsAt: date.startsAt.toISOString(),
      endsAt: date.endsAt.toISOString(),
      placesLeft: placesLeftIn(date.capacity, places),
    },
  };
}

export type JoinOutcome =
  | { ok: true; entryId: string }
  /** Unknown or unlisted course, or a date no longer open (or, for new dates, a course with some). */
  | { ok: false; reason: "unavailable" }
  /** The date still has places on sale: book them instead (its list is for a full date). */
  | { ok: false; reason: "places_left"; placesLeft: number }
  | { ok: false; reason: "duplicate" };

/**
 * Joins a date's waiting list, after checking everything again: the course listed, the date
 * open, fewer places left than wanted (else: book them), and no entry of the same address still
 * waiting or offered on it. Under the date's lock, so two posts cannot both pass the checks. A
 * suspected post (decision 0012) is stored marked and never queued or e-mailed. A real one may
 * be offered at once if places are free for it by the group rule.
 */
export async function joinWaitingList(
  slug: string,
  dateId: string,
  input: WaitingListInput,
  suspected: SpamReason | null,
  now: Date = new Date(),
): Promise<JoinOutcome> {
  const course = await listedCourse(slug);
  if (!course || !isUuid(dateId)) return { ok: false, reason: "unavailable" };
  const result = await db().transaction(async (tx): Promise<JoinOutcome> => {
    const [date] = await tx
      .select()
      .from(courseDates)
      .where(and(eq(courseDates.id, dateId), eq(courseDates.courseId, course.id)))
      .for("update");
    if (!isOpen(date, now)) return { ok: false, reason: "unavailable" };
    const left = placesLeftIn(date.capacity, (await placesOf(tx, [date.id])).get(date.id));
    // Only a full date is waited for: an entry on one with places on sale would hold them off sale.
    if (left > 0) return { ok: false, reason: "places_left", placesLeft: left };
    const [already] = await tx
      .select({ id: waitingListEntries.id })
      .from(waitingListEntries)
      .where(
        and(eq(waitingListEntries.courseDateId, date.id), sameAddress(input.email), stillActive),
      );
    if (already) return { ok: false, reason: "duplicate" };
    const [entry] = await tx
      .insert(waitingListEntries)
      .values({
        courseId: course.id,
        courseDateId: date.id,
        firstName: input.first_name,
        lastName: input.last_name,
        email: input.email,
        organisation: input.organisation,
        places: input.places,
        consentAt: now,
        spamReason: suspected,
        // The order of joining is this instant's: a clock read here, not the transaction's start.
        createdAt: now,
      })
      .returning({ id: waitingListEntries.id });
    return { ok: true, entryId: entry!.id };
  });
  if (result.ok) {
    log.info({ dateId, places: input.places, spamReason: suspected }, "waiting list joined");
    if (!suspected) await offerFreedPlacesAfter(dateId);
  }
  return result;
}

/**
 * Asks to hear when a course without dates to come gets one: an entry with no date, e-mailed
 * once when staff create the course's next date (`announceNewDate`). A course that has dates
 * is booked by date instead.
 */
export async function askForNewDates(
  slug: string,
  input: AnnounceInput,
  suspected: SpamReason | null,
  now: Date = new Date(),
): Promise<JoinOutcome> {
  const course = await listedCourse(slug);
  if (!course) return { ok: false, reason: "unavailable" };
  return db().transaction(async (tx): Promise<JoinOutcome> => {
    // One post per address and course at a time: the duplicate check cannot be raced.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`announce:${course.id}:${input.email.trim().toLowerCase()}`}, 0))`,
    );
    if (await hasUpcomingDates(tx, course.id)) return { ok: false, reason: "unavailable" };
    const [already] = await tx
      .select({ id: waitingListEntries.id })
      .from(waitingListEntries)
      .where(
        and(
          eq(waitingListEntries.courseId, course.id),
          isNull(waitingListEntries.courseDateId),
          sameAddress(input.email),
          stillActive,
        ),
      );
    if (already) return { ok: false, reason: "duplicate" };
    const [entry] = await tx
      .insert(waitingListEntries)
      .values({
        courseId: course.id,
        courseDateId: null,
        firstName: input.name,
        lastName: "",
        email: input.email,
        places: 1,
        consentAt: now,
        spamReason: suspected,
        createdAt: now,
      })
      .returning({ id: waitingListEntries.id });
    return { ok: true, entryId: entry!.id };
  });
}

/** What the checkout fills in from an open offer (decision 0034), or why it cannot. */
export type CheckoutOffer =
  | {
      kind: "open";
      firstName: string;
      lastName: string;
      email: string;
      organisation: string | null;
      places: number;
      expiresAt: string;
    }
  | { kind: "spent" };

/**
 * The offer an offer link names on this date: open (its details fill the checkout in), or spent
 * (unknown, expired, booked or removed: the checkout says so and books as usual). A lapsed
 * offer found here is passed on at once rather than at the next hourly pass.
 */
export async function findCheckoutOffer(
  dateId: string,
  token: string | null,
  now: Date = new Date(),
): Promise<CheckoutOffer | null> {
  if (!token) return null;
  if (!isUuid(dateId) || token.length > 200) return { kind: "spent" };
  const [entry] = await db()
    .select()
    .from(waitingListEntries)
    .where(
      and(
        eq(waitingListEntries.offerTokenHash, offerTokenHash(token)),
        eq(waitingListEntries.courseDateId, dateId),
      ),
    );
  if (!entry || entry.state !== "offered" || !entry.offerExpiresAt) return { kind: "spent" };
  if (entry.offerExpiresAt <= now) {
    await offerFreedPlacesAfter(dateId);
    return { kind: "spent" };
  }
  return {
    kind: "open",
    firstName: entry.firstName,
    lastName: entry.lastName,
    email: entry.email,
    organisation: entry.organisation,
    places: entry.places,
    expiresAt: entry.offerExpiresAt.toISOString(),
  };
}

/**
 * The dates that have lapsed offers or waiting entries (for the admin's counts): how many are
 * waiting or offered per date, suspected spam left out.
 */
export async function waitingCounts(dateIds: readonly string[]): Promise<Map<string, number>> {
  if (dateIds.length === 0) return new Map();
  const rows = await db()
    .select({
      dateId: waitingListEntries.courseDateId,
      n: sql<number>`count(*)::int`,
    })
    .from(waitingListEntries)
    .where(
      and(
        inArray(waitingListEntries.courseDateId, [...dateIds]),
        or(eq(waitingListEntries.state, "waiting"), eq(waitingListEntries.state, "offered")),
        isNull(waitingListEntries.spamReason),
      ),
    )
    .groupBy(waitingListEntries.courseDateId);
  return new Map(rows.map((r) => [r.dateId!, Number(r.n)]));
}
