import { createHash } from "node:crypto";
import { and, asc, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import type { PublicCourseDate } from "#app/lib/catalogue/course-dates.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseDates, orders, waitingListEntries } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { priceToPence } from "../orders/pricing.server.ts";

/**
 * A course's dated places (decision 0033): what the course page and the checkout show of them,
 * and taking places when an order is placed.
 *
 * A date's places taken are the quantities of its live orders — pending (an invoice request not
 * yet invoiced, or a card checkout still open: a hold), invoiced or paid, less those refunded in
 * full. Nothing is counted twice or forgotten: cancelling, a failed or expired card payment and a
 * full refund give places back by changing the order alone. An order takes places only under a
 * lock on its date row (`takePlaces`), so two buyers for the last place wait for each other and
 * the second sees the first's order.
 *
 * A waiting list's open offer holds its places too (decision 0034): while it is open they count
 * as taken for everyone but the holder of its link, and places freed while people wait are
 * theirs before anyone else's (`placesOwed`).
 */

/** The orders that hold places on their date. */
export const holdsPlaces = sql`${orders.status} in ('pending', 'invoiced', 'paid') and ${orders.refundedAmountCents} < ${orders.totalAmountCents}`;

/** A waiting list offer still open: its places are held (decision 0034). */
export const holdsOfferedPlaces = sql`${waitingListEntries.state} = 'offered' and ${waitingListEntries.offerExpiresAt} > now()`;

/** A date's places: taken (live orders and open offers) and owed (to the people waiting). */
export type DatePlaces = { taken: number; owed: number };

/**
 * Places taken and owed per date (dates with neither are absent), in one round trip: places taken
 * are live orders' places and the places held by open waiting list offers; places owed are those
 * the people waiting for the date (not suspected spam) want, offered to them in turn before anyone
 * else may book them (decision 0034). The orders' part is read from one covering index
 * (`orders_course_date_live_idx`), so a date with thousands of bookings is summed without reading
 * the orders themselves.
 */
export async function placesOf(
  runner: Pick<Transaction, "select">,
  dateIds: readonly string[],
): Promise<Map<string, DatePlaces>> {
  if (dateIds.length === 0) return new Map();
  const ids = [...dateIds];
  const fromOrders = runner
    .select({
      dateId: orders.courseDateId,
      taken: sql<number>`${orders.quantity}`.as("taken"),
      owed: sql<number>`0`.as("owed"),
    })
    .from(orders)
    .where(and(inArray(orders.courseDateId, ids), holdsPlaces));
  const fromOffers = runner
    .select({
      dateId: waitingListEntries.courseDateId,
      taken: sql<number>`${waitingListEntries.places}`.as("taken"),
      owed: sql<number>`0`.as("owed"),
    })
    .from(waitingListEntries)
    .where(and(inArray(waitingListEntries.courseDateId, ids), holdsOfferedPlaces));
  const fromWaiting = runner
    .select({
      dateId: waitingListEntries.courseDateId,
      taken: sql<number>`0`.as("taken"),
      owed: sql<number>`${waitingListEntries.places}`.as("owed"),
    })
    .from(waitingListEntries)
    .where(
      and(
        inArray(waitingListEntries.courseDateId, ids),
        eq(waitingListEntries.state, "waiting"),
        isNull(waitingListEntries.spamReason),
      ),
    );
  const all = fromOrders.unionAll(fromOffers).unionAll(fromWaiting).as("places");
  const rows = await runner
    .select({
      dateId: all.dateId,
      taken: sql<number>`coalesce(sum(${all.taken}), 0)::int`,
      owed: sql<number>`coalesce(sum(${all.owed}), 0)::int`,
    })
    .from(all)
    .groupBy(all.dateId);
  return new Map(rows.map((r) => [r.dateId!, { taken: Number(r.taken), owed: Number(r.owed) }]));
}

/** Places taken per date (dates with nothing taken are absent): `placesOf`'s first half. */
export async function placesTaken(
  runner: Pick<Transaction, "select">,
  dateIds: readonly string[],
): Promise<Map<string, number>> {
  const places = await placesOf(runner, dateIds);
  return new Map([...places].map(([id, p]) => [id, p.taken]));
}

/** A date's places left for a new booking, from its capacity and `placesOf`'s answer. */
export function placesLeftIn(capacity: number, places: DatePlaces | undefined): number {
  return placesLeftOf(capacity, places?.taken ?? 0, places?.owed ?? 0);
}

/** The places a date has left for a new booking: capacity less taken and owed, never below 0. */
export function placesLeftOf(capacity: number, taken: number, owed: number): number {
  return Math.max(0, capacity - taken - owed);
}

/** SHA-256 hex of an offer link's token: all that is stored of it. */
export function offerTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

type DateRow = typeof courseDates.$inferSelect;

function toPublic(row: DateRow, left: number, coursePriceCents: number | null, now: Date) {
  const placesLeft = Math.max(0, left);
  const unitPriceCents = priceToPence(row.price) ?? coursePriceCents ?? 0;
  return {
    id: row.id,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    format: row.format,
    town: row.format === "classroom" ? row.venueTown : null,
    venueName: row.format === "classroom" ? row.venueName : null,
    unitPriceCents,
    placesLeft,
    bookable: placesLeft > 0 && row.bookingClosesAt > now && unitPriceCents > 0,
  } satisfies PublicCourseDate;
}

/** A course's scheduled dates still to start, soonest first, with places left. */
export async function listUpcomingDates(
  courseId: string,
  coursePrice: string | null,
  only?: string,
): Promise<PublicCourseDate[]> {
  const now = new Date();
  const rows = await db()
    .select()
    .from(courseDates)
    .where(
      and(
        eq(courseDates.courseId, courseId),
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, now),
        only ? eq(courseDates.id, only) : undefined,
      ),
    )
    .orderBy(asc(courseDates.startsAt), asc(courseDates.id));
  const places = await placesOf(
    db(),
    rows.map((r) => r.id),
  );
  const coursePence = priceToPence(coursePrice);
  return rows.map((row) =>
    toPublic(row, placesLeftIn(row.capacity, places.get(row.id)), coursePence, now),
  );
}

/** One upcoming date of a course, as the checkout shows it, or null (its places alone counted). */
export async function findUpcomingDate(
  courseId: string,
  dateId: string,
  coursePrice: string | null,
): Promise<PublicCourseDate | null> {
  if (!isUuid(dateId)) return null;
  const [date] = await listUpcomingDates(courseId, coursePrice, dateId);
  return date ?? null;
}

export type TakePlaces =
  | {
      ok: true;
      date: DateRow;
      unitPriceCents: number | null;
      /** The waiting list entry whose open offer this booking uses (decision 0034). */
      offerEntryId: string | null;
    }
  | { ok: false; reason: "unknown" | "closed" | "full"; placesLeft: number };

/**
 * The open offer an offer link's token names on this date, or null (unknown, used, expired).
 * Read inside the caller's transaction, after the date's lock.
 */
export async function openOfferOf(
  runner: Pick<Transaction, "select">,
  dateId: string,
  token: string | null | undefined,
): Promise<typeof waitingListEntries.$inferSelect | null> {
  if (!token || token.length > 200) return null;
  const [entry] = await runner
    .select()
    .from(waitingListEntries)
    .where(
      and(
        eq(waitingListEntries.offerTokenHash, offerTokenHash(token)),
        eq(waitingListEntries.courseDateId, dateId),
        holdsOfferedPlaces,
      ),
    );
  return entry ?? null;
}

/**
 * Inside the transaction that stores an order: locks the date row (FOR UPDATE, so buyers of one
 * date take turns; other dates are not held up), then checks it is this course's, scheduled,
 * still open for booking, and has `quantity` places left. The caller inserts its order in the
 * same transaction; the lock is held until it commits, so the next buyer counts that order.
 *
 * Places left are capacity less places taken (orders and open offers) and places owed to the
 * people waiting; the holder of an open offer's link (`offerToken`) also has the places their
 * offer holds, and is not held back by those waiting behind them (decision 0034).
 */
export async function takePlaces(
  tx: Transaction,
  courseId: string,
  dateId: string,
  quantity: number,
  offerToken?: string | null,
): Promise<TakePlaces> {
  if (!isUuid(dateId)) return { ok: false, reason: "unknown", placesLeft: 0 };
  const [date] = await tx
    .select()
    .from(courseDates)
    .where(and(eq(courseDates.id, dateId), eq(courseDates.courseId, courseId)))
    .for("update");
  if (!date || date.state !== "scheduled") return { ok: false, reason: "unknown", placesLeft: 0 };
  const offer = await openOfferOf(tx, date.id, offerToken);
  const places = (await placesOf(tx, [date.id])).get(date.id);
  const placesLeft = (offer?.places ?? 0) + placesLeftIn(date.capacity, places);
  if (date.bookingClosesAt <= new Date()) return { ok: false, reason: "closed", placesLeft };
  if (quantity > placesLeft) return { ok: false, reason: "full", placesLeft };
  return {
    ok: true,
    date,
    unitPriceCents: priceToPence(date.price),
    offerEntryId: offer?.id ?? null,
  };
}

/**
 * The order placed through an offer marks its entry booked, in the order's transaction: the
 * order now holds the places, and the link is spent.
 */
export async function markOfferBooked(tx: Transaction, entryId: string, orderId: string) {
  await tx
    .update(waitingListEntries)
    .set({ state: "booked", orderId, offerTokenHash: null, updatedAt: new Date() })
    .where(and(eq(waitingListEntries.id, entryId), ne(waitingListEntries.state, "booked")));
}

/** Whether a course has scheduled dates still to start (then it is booked by date only). */
export async function hasUpcomingDates(
  runner: Pick<Transaction, "select">,
  courseId: string,
): Promise<boolean> {
  const [row] = await runner
    .select({ id: courseDates.id })
    .from(courseDates)
    .where(
      and(
        eq(courseDates.courseId, courseId),
        eq(courseDates.state, "scheduled"),
        gt(courseDates.startsAt, new Date()),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The date an order booked, as its letters name it (null: on demand, or the date was removed). */
export async function bookedDateOf(
  runner: Pick<Transaction, "select">,
  courseDateId: string | null,
): Promise<DateRow | null> {
  if (!courseDateId) return null;
  const [date] = await runner.select().from(courseDates).where(eq(courseDates.id, courseDateId));
  return date ?? null;
}
