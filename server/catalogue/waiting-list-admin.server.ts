/**
 * A date's waiting list as staff see and change it (decision 0034): the entries in the order
 * they joined with their state, offering places to one by hand (out of turn, when its places are
 * free) and removing one. Each change writes its audit row in its own transaction (decision 0019),
 * naming the date and the places, never the person (the audit log is append-only; the entry
 * itself holds who). Callers have passed the admin guard.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import type { AdminWaitingListEntry } from "#app/lib/catalogue/waiting-list.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseDates, courses, waitingListEntries } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { placesTaken } from "./course-dates.server.ts";
import { makeOffers, offerFreedPlacesAfter } from "./waiting-list-offers.server.ts";

export interface AdminWaitingList {
  date: {
    id: string;
    courseTitle: string;
    startsAt: string;
    endsAt: string;
    capacity: number;
    /** Capacity less live orders and open offers. */
    free: number;
    state: string;
  };
  entries: AdminWaitingListEntry[];
}

export const ENTRY_NOT_FOUND = "This waiting list entry no longer exists.";

/** A date's waiting list, oldest first (the order offers go in), or null for an unknown date. */
export async function listDateWaitingList(dateId: string): Promise<AdminWaitingList | null> {
  if (!isUuid(dateId)) return null;
  const [date] = await db()
    .select({ date: courseDates, courseTitle: courses.title })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(eq(courseDates.id, dateId));
  if (!date) return null;
  const rows = await db()
    .select()
    .from(waitingListEntries)
    .where(eq(waitingListEntries.courseDateId, dateId))
    .orderBy(asc(waitingListEntries.createdAt), asc(waitingListEntries.id));
  const taken = (await placesTaken(db(), [dateId])).get(dateId) ?? 0;
  return {
    date: {
      id: date.date.id,
      courseTitle: date.courseTitle,
      startsAt: date.date.startsAt.toISOString(),
      endsAt: date.date.endsAt.toISOString(),
      capacity: date.date.capacity,
      free: Math.max(0, date.date.capacity - taken),
      state: date.date.state,
    },
    entries: rows.map((e, i) => ({
      id: e.id,
      position: i + 1,
      firstName: e.firstName,
      lastName: e.lastName,
      email: e.email,
      organisation: e.organisation,
      places: e.places,
      state: e.state,
      joinedAt: e.createdAt.toISOString(),
      offeredAt: e.offeredAt?.toISOString() ?? null,
      offerExpiresAt: e.offerExpiresAt?.toISOString() ?? null,
      orderId: e.orderId,
      suspected: e.spamReason !== null,
    })),
  };
}

export type WaitingListChange = { ok: true } | { ok: false; status: 404 | 409; message: string };

/** The entry and its date, the date locked: changes to one list take turns with its bookings. */
async function lockedEntry(tx: Transaction, entryId: string) {
  const [found] = await tx
    .select({ entry: waitingListEntries })
    .from(waitingListEntries)
    .where(eq(waitingListEntries.id, entryId));
  if (!found?.entry.courseDateId) return null;
  const [date] = await tx
    .select()
    .from(courseDates)
    .where(eq(courseDates.id, found.entry.courseDateId))
    .for("update");
  const [entry] = await tx
    .select()
    .from(waitingListEntries)
    .where(eq(waitingListEntries.id, entryId));
  const [course] = date
    ? await tx
        .select({ slug: courses.slug, title: courses.title })
        .from(courses)
        .where(eq(courses.id, date.courseId))
    : [];
  return date && entry && course ? { date, entry, course } : null;
}

function summary(courseTitle: string, date: { startsAt: Date; endsAt: Date }, places: number) {
  return `${courseTitle}, ${formatDateRange(date.startsAt, date.endsAt)}: ${places === 1 ? "1 place" : `${places} places`}`;
}

/**
 * Offers one waiting entry its places now, out of turn: staff decide (a group that has waited
 * long, a client to favour). Only when its places are free (capacity less orders and open
 * offers) and the date is still booking; the usual e-mail and hold follow.
 */
export async function offerEntryNow(
  actor: AuditActor,
  entryId: string,
  now: Date = new Date(),
): Promise<WaitingListChange> {
  if (!isUuid(entryId)) return { ok: false, status: 404, message: ENTRY_NOT_FOUND };
  const result = await db().transaction(async (tx): Promise<WaitingListChange> => {
    const found = await lockedEntry(tx, entryId);
    if (!found) return { ok: false, status: 404, message: ENTRY_NOT_FOUND };
    const { date, entry, course } = found;
    if (entry.state !== "waiting") {
      return { ok: false, status: 409, message: "Only a waiting entry can be offered places." };
    }
    if (entry.spamReason) {
      return { ok: false, status: 409, message: "This entry is held as suspected spam." };
    }
    if (date.state !== "scheduled" || date.bookingClosesAt <= now) {
      return { ok: false, status: 409, message: "This date is no longer open for booking." };
    }
    const free = date.capacity - ((await placesTaken(tx, [date.id])).get(date.id) ?? 0);
    if (entry.places > free) {
      return {
        ok: false,
        status: 409,
        message: `Only ${free <= 0 ? "no" : free} place${free === 1 ? " is" : "s are"} free: this entry wants ${entry.places}.`,
      };
    }
    const [offered] = await makeOffers(tx, date, course, [entry], now);
    await recordAudit(tx, actor, {
      action: "waiting_list.offer",
      subjectType: "waiting_list",
      subjectId: entry.id,
      summary: summary(course.title, date, entry.places),
      before: { state: entry.state },
      after: {
        state: offered!.state,
        places: entry.places,
        offerExpiresAt: offered!.offerExpiresAt?.toISOString() ?? null,
      },
    });
    return { ok: true };
  });
  if (result.ok) nudgeOutbox();
  return result;
}

/**
 * Removes an entry that is waiting or offered (an open offer's link stops working and its places
 * are offered on). The entry stays, marked removed, until the retention rule deletes it.
 */
export async function removeEntry(
  actor: AuditActor,
  entryId: string,
  now: Date = new Date(),
): Promise<WaitingListChange> {
  if (!isUuid(entryId)) return { ok: false, status: 404, message: ENTRY_NOT_FOUND };
  let dateId: string | null = null;
  const result = await db().transaction(async (tx): Promise<WaitingListChange> => {
    const found = await lockedEntry(tx, entryId);
    if (!found) return { ok: false, status: 404, message: ENTRY_NOT_FOUND };
    const { date, entry, course } = found;
    const [removed] = await tx
      .update(waitingListEntries)
      .set({ state: "removed", offerTokenHash: null, updatedAt: now })
      .where(
        and(
          eq(waitingListEntries.id, entry.id),
          inArray(waitingListEntries.state, ["waiting", "offered"]),
        ),
      )
      .returning();
    if (!removed) {
      return { ok: false, status: 409, message: "Only a waiting or offered entry can be removed." };
    }
    await recordAudit(tx, actor, {
      action: "waiting_list.remove",
      subjectType: "waiting_list",
      subjectId: entry.id,
      summary: summary(course.title, date, entry.places),
      before: { state: entry.state },
      after: { state: "removed" },
    });
    dateId = date.id;
    return { ok: true };
  });
  // An offer's held places, or a group that held the queue up: the next may be offered.
  if (result.ok) await offerFreedPlacesAfter(dateId);
  return result;
}
