/**
 * Waiting list offers (decision 0034; docs/rules.md, Waiting lists): offering freed places to the
 * people waiting in the order they joined (the group rule: `chooseOffers`), offers that lapse and
 * pass on, the one e-mail to those waiting for a course's next date when staff create it, and
 * how long ended entries are kept. An open offer holds its places for everyone but the holder of
 * its link (course-dates.server.ts counts them).
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import { COURSE_DATE_PARAM } from "#app/lib/catalogue/course-dates.ts";
import { OFFER_PARAM } from "#app/lib/catalogue/waiting-list.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseDates, courses, waitingListEntries } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails, type OutgoingEmail } from "../email/outbox.server.ts";
import {
  renderDatesAnnounced,
  renderWaitingListOffer,
} from "../email/templates/waiting-list.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { offerTokenHash, placesTaken } from "./course-dates.server.ts";

type EntryRow = typeof waitingListEntries.$inferSelect;
type DateRow = typeof courseDates.$inferSelect;

/**
 * How many times a group may be passed over by smaller entries behind it before it keeps its
 * turn: from then on, freed places wait for it until there are enough (decision 0034).
 */
export const MAX_SKIPS = 2;

/** One waiting entry in the order of joining: places wanted, and how often it was passed over. */
export interface QueuedEntry {
  id: string;
  places: number;
  skips: number;
}

/**
 * The group rule (decision 0034): entries are offered in the order they joined while the free
 * places cover them. One wanting more places than are free is passed over, and a smaller one
 * behind it may be offered — but each such offer counts against every entry passed over, and an
 * entry already passed over `maxSkips` times stops the queue: nobody behind it is offered until
 * enough places free up for it (or staff offer or remove it).
 */
export function chooseOffers(
  queue: readonly QueuedEntry[],
  free: number,
  maxSkips: number = MAX_SKIPS,
): string[] {
  const chosen: string[] = [];
  const passedOver: { skips: number }[] = [];
  let left = free;
  for (const entry of queue) {
    if (left <= 0) break;
    if (entry.places <= left) {
      if (passedOver.some((p) => p.skips >= maxSkips)) break;
      chosen.push(entry.id);
      left -= entry.places;
      for (const p of passedOver) p.skips += 1;
    } else {
      if (entry.skips >= maxSkips) break;
      passedOver.push({ skips: entry.skips });
    }
  }
  return chosen;
}

/**
 * A date's waiting entries in the order of joining, each with how often it was passed over:
 * the number of entries that joined after it and were offered places (suspected spam is never
 * queued). `entries` are all of the date's entries, oldest first.
 */
export function waitingQueue(entries: readonly EntryRow[]): QueuedEntry[] {
  const queue: QueuedEntry[] = [];
  entries.forEach((entry, i) => {
    if (entry.state !== "waiting" || entry.spamReason) return;
    const skips = entries.slice(i + 1).filter((later) => later.offeredAt !== null).length;
    queue.push({ id: entry.id, places: entry.places, skips });
  });
  return queue;
}

/** The checkout link of an offer: the date, and the token that names the offer. */
export function offerUrl(slug: string, dateId: string, token: string): string {
  const query = new URLSearchParams({ [COURSE_DATE_PARAM]: dateId, [OFFER_PARAM]: token });
  return `${config.publicUrl}/courses/${encodeURIComponent(slug)}/checkout?${query.toString()}`;
}

/**
 * Offers `entries` their places in `tx` (which holds the date's lock): a new random token each,
 * only its SHA-256 stored; the offer holds for WAITING_LIST_OFFER_HOURS, never past the date's
 * booking close; the e-mail with the link is queued in the same transaction.
 */
export async function makeOffers(
  tx: Transaction,
  date: DateRow,
  course: { slug: string; title: string },
  entries: readonly EntryRow[],
  now: Date = new Date(),
): Promise<EntryRow[]> {
  const made: EntryRow[] = [];
  const emails: OutgoingEmail[] = [];
  const hours = config.waitingListOfferHours * 60 * 60 * 1000;
  const expiresAt = new Date(Math.min(now.getTime() + hours, date.bookingClosesAt.getTime()));
  for (const entry of entries) {
    const token = randomBytes(32).toString("base64url");
    const [offered] = await tx
      .update(waitingListEntries)
      .set({
        state: "offered",
        offeredAt: now,
        offerExpiresAt: expiresAt,
        offerTokenHash: offerTokenHash(token),
        updatedAt: now,
      })
      .where(eq(waitingListEntries.id, entry.id))
      .returning();
    made.push(offered!);
    const mail = renderWaitingListOffer({
      firstName: entry.firstName,
      courseTitle: course.title,
      startsAt: date.startsAt,
      endsAt: date.endsAt,
      places: entry.places,
      expiresAt,
      url: offerUrl(course.slug, date.id, token),
    });
    emails.push({ kind: "waiting_list_offer", to: entry.email, ...mail });
  }
  await queueEmails(tx, emails);
  return made;
}

/**
 * Offers the places free on a date to those waiting (decision 0034), after anything that frees
 * places has committed: an order cancelled, failed or refunded in full, an offer lapsed or
 * removed, the capacity raised. Under the date's lock: lapsed offers expire, then the free places
 * (capacity less orders and open offers) go to the queue by `chooseOffers`. Nothing for a date no
 * longer open for booking. Idempotent; returns how many were offered.
 */
export async function offerFreedPlaces(dateId: string, now: Date = new Date()): Promise<number> {
  if (!isUuid(dateId)) return 0;
  const offered = await db().transaction(async (tx) => {
    const [date] = await tx
      .select()
      .from(courseDates)
      .where(eq(courseDates.id, dateId))
      .for("update");
    if (!date) return 0;
    await tx
      .update(waitingListEntries)
      .set({ state: "expired", updatedAt: now })
      .where(
        and(
          eq(waitingListEntries.courseDateId, dateId),
          eq(waitingListEntries.state, "offered"),
          lte(waitingListEntries.offerExpiresAt, now),
        ),
      );
    if (date.state !== "scheduled" || date.bookingClosesAt <= now) return 0;
    const free = date.capacity - ((await placesTaken(tx, [dateId])).get(dateId) ?? 0);
    if (free <= 0) return 0;
    const entries = await tx
      .select()
      .from(waitingListEntries)
      .where(
        and(eq(waitingListEntries.courseDateId, dateId), isNull(waitingListEntries.spamReason)),
      )
      .orderBy(asc(waitingListEntries.createdAt), asc(waitingListEntries.id));
    const chosen = new Set(chooseOffers(waitingQueue(entries), free));
    if (chosen.size === 0) return 0;
    const [course] = await tx
      .select({ slug: courses.slug, title: courses.title })
      .from(courses)
      .where(eq(courses.id, date.courseId));
    if (!course) return 0;
    const made = await makeOffers(
      tx,
      date,
      course,
      entries.filter((e) => chosen.has(e.id)),
      now,
    );
    return made.length;
  });
  if (offered > 0) {
    log.info({ dateId, offered }, "waiting list: places offered");
    nudgeOutbox();
  }
  return offered;
}

/**
 * `offerFreedPlaces` for callers whose own change has already committed (a cancellation, a
 * refund, a capacity change): a failure is logged and left to the hourly pass, never theirs.
 */
export async function offerFreedPlacesAfter(dateId: string | null | undefined): Promise<void> {
  if (!dateId) return;
  try {
    await offerFreedPlaces(dateId);
  } catch (error) {
    log.error({ err: error, dateId }, "waiting list: could not offer freed places");
  }
}

/**
 * The hourly pass (server/privacy/retention.server.ts): lapsed offers of dates still to come
 * expire and pass on, and any places a missed call left free are offered. Returns how many
 * offers were made.
 */
export async function waitingListHousekeeping(now: Date = new Date()): Promise<number> {
  const dates = await db()
    .selectDistinct({ id: waitingListEntries.courseDateId })
    .from(waitingListEntries)
    .innerJoin(courseDates, eq(courseDates.id, waitingListEntries.courseDateId))
    .where(
      and(
        isNotNull(waitingListEntries.courseDateId),
        isNull(waitingListEntries.spamReason),
        inArray(waitingListEntries.state, ["waiting", "offered"]),
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, now),
      ),
    );
  let offered = 0;
  for (const { id } of dates) offered += await offerFreedPlaces(id!, now);
  return offered;
}

/**
 * In the transaction that creates a date (course-date-admin.server.ts, createCourseDate): those
 * who asked to hear of the course's next date get one e-mail each and are marked `notified`, so
 * a second date sends nothing more. Only for a published course (the link must open).
 */
export async function announceNewDate(tx: Transaction, date: DateRow): Promise<number> {
  const [course] = await tx
    .select({ slug: courses.slug, title: courses.title, status: courses.status })
    .from(courses)
    .where(eq(courses.id, date.courseId));
  if (!course || course.status !== "published") return 0;
  const notified = await tx
    .update(waitingListEntries)
    .set({ state: "notified", updatedAt: new Date() })
    .where(
      and(
        eq(waitingListEntries.courseId, date.courseId),
        isNull(waitingListEntries.courseDateId),
        eq(waitingListEntries.state, "waiting"),
        isNull(waitingListEntries.spamReason),
      ),
    )
    .returning();
  const url = `${config.publicUrl}/courses/${encodeURIComponent(course.slug)}#dates`;
  await queueEmails(
    tx,
    notified.map((entry) => ({
      kind: "waiting_list_announce",
      to: entry.email,
      ...renderDatesAnnounced({
        name: entry.firstName,
        courseTitle: course.title,
        startsAt: date.startsAt,
        endsAt: date.endsAt,
        url,
      }),
    })),
  );
  return notified.length;
}

/** Days a waiting list entry is kept once it has ended (its date run, or it no longer waits). */
export const WAITING_LIST_KEEP_DAYS = 30;
/** Months a request to hear of a course's next date waits before it is deleted unanswered. */
export const ANNOUNCE_KEEP_MONTHS = 12;

/**
 * The waiting lists' retention rule (docs/rules.md, Privacy and retention; the consent words say
 * it): an entry is deleted 30 days after its date has ended, 30 days after it stopped waiting
 * (booked, expired, removed, or e-mailed about a new date), and a request to hear of a new date
 * that nobody answered after 12 months. Deleted, not anonymised: nothing needs the rows (a
 * booking is its order). Idempotent; returns how many were deleted.
 */
export async function deleteEndedEntries(now: Date = new Date()): Promise<number> {
  const ended = new Date(now.getTime() - WAITING_LIST_KEEP_DAYS * 24 * 60 * 60 * 1000);
  const unanswered = new Date(now);
  unanswered.setUTCMonth(unanswered.getUTCMonth() - ANNOUNCE_KEEP_MONTHS);
  const deleted = await db()
    .delete(waitingListEntries)
    .where(
      or(
        inArray(
          waitingListEntries.courseDateId,
          db()
            .select({ id: courseDates.id })
            .from(courseDates)
            .where(lte(courseDates.endsAt, ended)),
        ),
        and(
          inArray(waitingListEntries.state, ["booked", "expired", "removed", "notified"]),
          lte(waitingListEntries.updatedAt, ended),
        ),
        and(isNull(waitingListEntries.courseDateId), lte(waitingListEntries.createdAt, unanswered)),
      ),
    )
    .returning({ id: waitingListEntries.id });
  return deleted.length;
}
