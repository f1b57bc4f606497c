import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { PublicCourseDate } from "#app/lib/catalogue/course-dates.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { courseDates, orders } from "../db/schema.ts";
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
 */

/** The orders that hold places on their date. */
export const holdsPlaces = sql`${orders.status} in ('pending', 'invoiced', 'paid') and ${orders.refundedAmountCents} < ${orders.totalAmountCents}`;

/** Places taken per date (dates without live orders are absent). */
export async function placesTaken(
  runner: Pick<Transaction, "select">,
  dateIds: readonly string[],
): Promise<Map<string, number>> {
  if (dateIds.length === 0) return new Map();
  const rows = await runner
    .select({
      dateId: orders.courseDateId,
      taken: sql<number>`coalesce(sum(${orders.quantity}), 0)::int`,
    })
    .from(orders)
    .where(and(inArray(orders.courseDateId, [...dateIds]), holdsPlaces))
    .groupBy(orders.courseDateId);
  return new Map(rows.map((r) => [r.dateId!, Number(r.taken)]));
}

type DateRow = typeof courseDates.$inferSelect;

function toPublic(row: DateRow, taken: number, coursePriceCents: number | null, now: Date) {
  const placesLeft = Math.max(0, row.capacity - taken);
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
      ),
    )
    .orderBy(asc(courseDates.startsAt), asc(courseDates.id));
  const taken = await placesTaken(
    db(),
    rows.map((r) => r.id),
  );
  const coursePence = priceToPence(coursePrice);
  return rows.map((row) => toPublic(row, taken.get(row.id) ?? 0, coursePence, now));
}

/** One upcoming date of a course, as the checkout shows it, or null. */
export async function findUpcomingDate(
  courseId: string,
  dateId: string,
  coursePrice: string | null,
): Promise<PublicCourseDate | null> {
  if (!isUuid(dateId)) return null;
  const dates = await listUpcomingDates(courseId, coursePrice);
  return dates.find((d) => d.id === dateId) ?? null;
}

export type TakePlaces =
  | { ok: true; date: DateRow; unitPriceCents: number | null }
  | { ok: false; reason: "unknown" | "closed" | "full"; placesLeft: number };

/**
 * Inside the transaction that stores an order: locks the date row (FOR UPDATE, so buyers of one
 * date take turns; other dates are not held up), then checks it is this course's, scheduled,
 * still open for booking, and has `quantity` places left. The caller inserts its order in the
 * same transaction; the lock is held until it commits, so the next buyer counts that order.
 */
export async function takePlaces(
  tx: Transaction,
  courseId: string,
  dateId: string,
  quantity: number,
): Promise<TakePlaces> {
  if (!isUuid(dateId)) return { ok: false, reason: "unknown", placesLeft: 0 };
  const [date] = await tx
    .select()
    .from(courseDates)
    .where(and(eq(courseDates.id, dateId), eq(courseDates.courseId, courseId)))
    .for("update");
  if (!date || date.state !== "scheduled") return { ok: false, reason: "unknown", placesLeft: 0 };
  const taken = (await placesTaken(tx, [date.id])).get(date.id) ?? 0;
  const placesLeft = Math.max(0, date.capacity - taken);
  if (date.bookingClosesAt <= new Date()) return { ok: false, reason: "closed", placesLeft };
  if (quantity > placesLeft) return { ok: false, reason: "full", placesLeft };
  return { ok: true, date, unitPriceCents: priceToPence(date.price) };
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
