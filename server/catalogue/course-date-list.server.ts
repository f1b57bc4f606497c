import { and, asc, desc, eq, getTableColumns, gt, inArray, lte, sql } from "drizzle-orm";
import {
  type AdminCourseDate,
  type CourseDateCourseOption,
} from "#app/lib/catalogue/course-date-form.ts";
import { db } from "../db/client.server.ts";
import { courseDates, courses, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { holdsPlaces } from "./course-dates.server.ts";

/**
 * The Dates screen's lists (decision 0033): scheduled dates (all, one course's, or a page of them)
 * with each date's places sold, held and free and its revenue, read in one grouped query over
 * the dates' live orders; the courses a date may be added to. Callers have passed requireAdmin().
 */
/** The live orders that sell places outright: invoiced, paid, or an invoice request. */
const soldCondition = sql`(${orders.status} in ('invoiced', 'paid') or ${orders.paymentMethod} = 'invoice')`;

/**
 * Scheduled dates across courses (or one course's), soonest first, with their figures: sold,
 * held and free places and revenue, summed over the orders of the listed dates in one grouped
 * subquery (the live orders through `orders_course_date_live_idx`) — two statements in all,
 * whatever the number of dates. `upcoming`: only dates still to start.
 */
export async function listAdminDates(options: {
  upcoming: boolean;
  courseId?: string | null;
  now?: Date;
  /** Only these dates (one page of the screen). */
  ids?: string[];
}): Promise<AdminCourseDate[]> {
  const now = options.now ?? new Date();
  const listed = and(
    eq(courseDates.state, "scheduled"),
    options.upcoming ? gt(courseDates.startsAt, now) : undefined,
    options.courseId ? eq(courseDates.courseId, options.courseId) : undefined,
    options.ids ? inArray(courseDates.id, options.ids) : undefined,
  );
  const rows = await db()
    .select({ ...getTableColumns(courseDates), courseTitle: courses.title })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(listed)
    .orderBy(asc(courseDates.startsAt), asc(courseDates.id));
  const figures = await dateFigures(rows.map((r) => r.id));
  return rows.map((row) => {
    const f = figures.get(row.id) ?? { sold: 0, held: 0, revenueCents: 0 };
    return {
      id: row.id,
      courseId: row.courseId,
      courseTitle: row.courseTitle,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      bookingClosesAt: row.bookingClosesAt.toISOString(),
      format: row.format,
      venueName: row.venueName,
      venueTown: row.venueTown,
      venueAddress: row.venueAddress,
      joiningDetails: row.joiningDetails,
      schedule: row.schedule,
      capacity: row.capacity,
      price: row.price,
      sold: f.sold,
      held: f.held,
      free: Math.max(0, row.capacity - f.sold - f.held),
      revenueCents: f.revenueCents,
      state: row.state,
    };
  });
}

/** Dates per page on the Dates screen. */
export const DATES_PAGE_SIZE = 50;

/**
 * One page of the Dates screen: scheduled dates still to start (of one course, or all), soonest
 * first — or, `past`, those that have started, latest first (their registers and certificates) —
 * with their figures, and how many there are in all.
 */
export async function listAdminDatePage(options: {
  courseId?: string | null;
  page: number;
  past?: boolean;
  now?: Date;
}): Promise<{ dates: AdminCourseDate[]; total: number; page: number; pageCount: number }> {
  const now = options.now ?? new Date();
  const past = options.past ?? false;
  const listed = and(
    eq(courseDates.state, "scheduled"),
    past ? lte(courseDates.startsAt, now) : gt(courseDates.startsAt, now),
    options.courseId ? eq(courseDates.courseId, options.courseId) : undefined,
  );
  const page = Math.max(1, Math.trunc(options.page) || 1);
  const read = (at: number) =>
    db()
      .select({ id: courseDates.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(courseDates)
      .where(listed)
      .orderBy(
        ...(past
          ? [desc(courseDates.startsAt), desc(courseDates.id)]
          : [asc(courseDates.startsAt), asc(courseDates.id)]),
      )
      .limit(DATES_PAGE_SIZE)
      .offset((at - 1) * DATES_PAGE_SIZE);
  let rows = await read(page);
  let shown = page;
  if (rows.length === 0 && page > 1) {
    // Past the last page (a date was cancelled meanwhile): the last page there is.
    const [first] = await read(1);
    const last = Math.max(1, Math.ceil((first?.total ?? 0) / DATES_PAGE_SIZE));
    rows = await read(last);
    shown = last;
  }
  const total = rows[0]?.total ?? 0;
  const ids = new Set(rows.map((r) => r.id));
  const dates = ids.size
    ? await listAdminDates({ upcoming: !past, courseId: options.courseId, now, ids: [...ids] })
    : [];
  if (past) dates.reverse();
  return {
    dates,
    total,
    page: shown,
    pageCount: Math.max(1, Math.ceil(total / DATES_PAGE_SIZE)),
  };
}

/**
 * Per date: places sold (invoiced, paid, invoice requests) and held (card checkouts still open),
 * both of orders that hold places (not refunded in full), and revenue: paid orders' totals less
 * their refunds. One grouped query over the dates' live orders.
 */
async function dateFigures(
  dateIds: readonly string[],
): Promise<Map<string, { sold: number; held: number; revenueCents: number }>> {
  if (dateIds.length === 0) return new Map();
  const rows = await db()
    .select({
      dateId: orders.courseDateId,
      sold: sql<number>`coalesce(sum(${orders.quantity}) filter (where ${holdsPlaces} and ${soldCondition}), 0)::int`,
      held: sql<number>`coalesce(sum(${orders.quantity}) filter (where ${holdsPlaces} and not ${soldCondition}), 0)::int`,
      revenueCents: sql<number>`coalesce(sum(${orders.totalAmountCents} - ${orders.refundedAmountCents}) filter (where ${orders.status} = 'paid'), 0)::int`,
    })
    .from(orders)
    .where(
      and(
        inArray(orders.courseDateId, [...dateIds]),
        // The live orders' index predicate, written as it is so the planner can use it.
        sql`${orders.courseDateId} is not null and ${orders.status} in ('pending', 'invoiced', 'paid')`,
      ),
    )
    .groupBy(orders.courseDateId);
  return new Map(
    rows.map((r) => [
      r.dateId!,
      { sold: Number(r.sold), held: Number(r.held), revenueCents: Number(r.revenueCents) },
    ]),
  );
}

/** Courses a date may be added to: published and draft ones, by title. */
export async function listDateCourseOptions(): Promise<CourseDateCourseOption[]> {
  return db()
    .select({ id: courses.id, title: courses.title, status: courses.status })
    .from(courses)
    .where(inArray(courses.status, ["published", "draft"]))
    .orderBy(asc(courses.title), asc(courses.id));
}

/** One scheduled-or-not date as the screen shows it (for `?edit=` and `?cancel=`), or null. */
export async function findAdminDate(id: string): Promise<AdminCourseDate | null> {
  if (!isUuid(id)) return null;
  const [row] = await db()
    .select({ courseId: courseDates.courseId })
    .from(courseDates)
    .where(eq(courseDates.id, id));
  if (!row) return null;
  const dates = await listAdminDates({ upcoming: false, courseId: row.courseId });
  return dates.find((d) => d.id === id) ?? null;
}
