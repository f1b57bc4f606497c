import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import {
  REGISTER_MESSAGES,
  type Attendance,
  type AttendanceMarks,
  type DateRegister,
  type RegisterPlace,
} from "#app/lib/catalogue/register.ts";
import type { PlaceCertificate } from "#app/lib/catalogue/certificates.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { csvResponse } from "../csv.server.ts";
import { db } from "../db/client.server.ts";
import type { Database, Transaction } from "../db/client.server.ts";
import {
  attendance,
  certificates,
  courseDates,
  courses,
  orderStudents,
  orders,
} from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import { holdsPlaces } from "./course-dates.server.ts";
import { drawSignInSheet, signInSheetFilename } from "./sign-in-sheet.server.ts";

/**
 * A date's register (decision 0035): every place its live orders hold, with the student who
 * holds it (or the buyer attending themself; or nobody named yet), the organisation, the order
 * and how far it is paid, and the attendance marked on the day. Staff mark present, absent or
 * partial from the day the date starts; each save is audited. The same register is downloaded
 * as CSV and drawn as a printable sign-in sheet (sign-in-sheet.server.ts). Callers have passed
 * requireAdmin().
 */

const PAYMENT_LABELS: Record<string, string> = {
  pending: "Awaiting payment",
  invoiced: "Invoiced, unpaid",
  paid: "Paid",
};

type Student = { firstName: string; lastName: string; email: string };

/**
 * The places an order holds on its date, named where its booker has named them: place n is the
 * student stored at position n − 1, or the buyer attending themself.
 */
function placesOf(
  order: OrderRow,
  students: Map<number, Student>,
  marks: Map<string, Attendance>,
  issued: Map<string, PlaceCertificate & { id: string }>,
): RegisterPlace[] {
  const organisation = order.billingOrganisation ?? order.buyerCompany;
  const buyer: Student = {
    firstName: order.buyerFirstName,
    lastName: order.buyerLastName,
    email: order.buyerEmail,
  };
  return Array.from({ length: order.quantity }, (_, i) => {
    const student = order.isBuyerStudent ? buyer : students.get(i);
    const position = i + 1;
    return {
      orderId: order.id,
      position,
      name: student ? `${student.firstName} ${student.lastName}`.trim() : null,
      email: student?.email ?? null,
      organisation,
      orderReference: orderReference(order.id),
      payment: PAYMENT_LABELS[order.status] ?? order.status,
      attendance: marks.get(`${order.id}:${position}`) ?? null,
      certificate: issued.get(`${order.id}:${position}`) ?? null,
    };
  });
}

/** The named students of the orders, by order and stored position. */
async function studentsByPlace(
  orderIds: string[],
  executor: Database | Transaction,
): Promise<Map<string, Map<number, Student>>> {
  const byOrder = new Map<string, Map<number, Student>>();
  if (orderIds.length === 0) return byOrder;
  const rows = await executor
    .select()
    .from(orderStudents)
    .where(inArray(orderStudents.orderId, orderIds));
  for (const row of rows) {
    const places = byOrder.get(row.orderId) ?? new Map<number, Student>();
    places.set(row.position, row);
    byOrder.set(row.orderId, places);
  }
  return byOrder;
}

/** Whether attendance may be marked: from the UK day the date starts, unless it was cancelled. */
function markableOn(date: { startsAt: Date; state: string }, now: Date): boolean {
  return date.state !== "cancelled" && londonDate(now) >= londonDate(date.startsAt);
}

/**
 * The latest certificate of each place of a date (decision 0036), by `orderId:position`: a valid
 * one before any it replaced.
 */
async function certificatesByPlace(
  dateId: string,
  executor: Database | Transaction,
): Promise<Map<string, PlaceCertificate & { id: string }>> {
  const rows = await executor
    .select({
      id: certificates.id,
      number: certificates.number,
      orderId: certificates.orderId,
      position: certificates.position,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
    })
    .from(certificates)
    .where(eq(certificates.courseDateId, dateId))
    // Revoked ones first, then by issue: the map keeps each place's last row.
    .orderBy(sql`${certificates.revokedAt} is null`, asc(certificates.issuedAt));
  return new Map(
    rows.map((r) => [
      `${r.orderId}:${r.position}`,
      {
        id: r.id,
        number: r.number,
        issuedAt: r.issuedAt.toISOString(),
        revokedAt: r.revokedAt?.toISOString() ?? null,
      },
    ]),
  );
}

/**
 * The register of a date, or null when there is no such date; read with `executor` (a
 * transaction that issues certificates reads it under its lock).
 */
export async function dateRegister(
  dateId: string,
  now: Date = new Date(),
  executor: Database | Transaction = db(),
): Promise<DateRegister | null> {
  if (!isUuid(dateId)) return null;
  const [date] = await executor
    .select({ date: courseDates, courseTitle: courses.title })
    .from(courseDates)
    .innerJoin(courses, eq(courses.id, courseDates.courseId))
    .where(eq(courseDates.id, dateId));
  if (!date) return null;
  const readBooked = () =>
    executor
      .select()
      .from(orders)
      .where(and(eq(orders.courseDateId, dateId), holdsPlaces))
      .orderBy(
        sql`lower(coalesce(${orders.billingOrganisation}, ${orders.buyerCompany}, ''))`,
        asc(orders.createdAt),
        asc(orders.id),
      );
  const readMarks = () =>
    executor
      .select({
        orderId: attendance.orderId,
        position: attendance.position,
        status: attendance.status,
      })
      .from(attendance)
      .where(eq(attendance.courseDateId, dateId));
  // In parallel on the pool; one after another inside a transaction (one connection).
  const [booked, marked, issued] =
    executor === db()
      ? await Promise.all([readBooked(), readMarks(), certificatesByPlace(dateId, executor)])
      : [await readBooked(), await readMarks(), await certificatesByPlace(dateId, executor)];
  const students = await studentsByPlace(
    booked.map((o) => o.id),
    executor,
  );
  const marks = new Map(marked.map((m) => [`${m.orderId}:${m.position}`, m.status]));
  const { date: row } = date;
  return {
    date: {
      id: row.id,
      courseTitle: date.courseTitle,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      format: row.format,
      venueName: row.venueName,
      venueTown: row.venueTown,
      capacity: row.capacity,
      state: row.state,
    },
    places: booked.flatMap((order) =>
      placesOf(order, students.get(order.id) ?? new Map(), marks, issued),
    ),
    markable: markableOn(row, now),
    ended: row.state !== "cancelled" && now >= row.endsAt,
  };
}

export type MarkAttendanceResult =
  | { ok: true; counts: Record<Attendance, number> }
  | { ok: false; status: 404 | 409; message: string };

/**
 * Records the marks given (each place once, the last mark standing), in one transaction under
 * a share lock on the date, so a date being cancelled waits. Every mark must name a place a live
 * order holds on this date; otherwise nothing is recorded.
 */
export async function markAttendance(
  admin: AuditActor,
  dateId: string,
  marks: AttendanceMarks,
  now: Date = new Date(),
): Promise<MarkAttendanceResult> {
  if (!isUuid(dateId)) return { ok: false, status: 404, message: "Date not found" };
  return db().transaction(async (tx): Promise<MarkAttendanceResult> => {
    const [date] = await tx
      .select()
      .from(courseDates)
      .where(eq(courseDates.id, dateId))
      .for("share");
    if (!date) return { ok: false, status: 404, message: "Date not found" };
    if (date.state === "cancelled") {
      return { ok: false, status: 409, message: REGISTER_MESSAGES.cancelled };
    }
    if (!markableOn(date, now))
      return { ok: false, status: 409, message: REGISTER_MESSAGES.notYet };
    const held = await tx
      .select({ id: orders.id, quantity: orders.quantity })
      .from(orders)
      .where(and(eq(orders.courseDateId, dateId), holdsPlaces));
    const places = new Map(held.map((o) => [o.id, o.quantity]));
    const unknown = marks.some((m) => m.position > (places.get(m.orderId) ?? 0));
    if (unknown) return { ok: false, status: 409, message: REGISTER_MESSAGES.unknownPlace };
    const byPlace = new Map(marks.map((m) => [`${m.orderId}:${m.position}`, m]));
    await tx
      .insert(attendance)
      .values(
        [...byPlace.values()].map((m) => ({
          courseDateId: dateId,
          orderId: m.orderId,
          position: m.position,
          status: m.status,
          markedBy: admin.email,
          markedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [attendance.courseDateId, attendance.orderId, attendance.position],
        set: {
          status: sql`excluded.status`,
          markedBy: sql`excluded.marked_by`,
          markedAt: sql`excluded.marked_at`,
        },
      });
    const counts: Record<Attendance, number> = { present: 0, absent: 0, partial: 0 };
    for (const m of byPlace.values()) counts[m.status] += 1;
    const [course] = await tx
      .select({ title: courses.title })
      .from(courses)
      .where(eq(courses.id, date.courseId));
    await recordAudit(tx, admin, {
      action: "course_date.attendance",
      subjectType: "course_date",
      subjectId: date.id,
      summary: `${course?.title ?? "Course"}, ${formatDateRange(date.startsAt, date.endsAt)}`,
      after: { ...counts },
    });
    return { ok: true, counts };
  });
}

const NOT_FOUND = () =>
  new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
  });

/** The register as a printable sign-in sheet (PDF), or 404 when there is no such date. */
export async function signInSheetResponse(dateId: string): Promise<Response> {
  const register = await dateRegister(dateId);
  if (!register) return NOT_FOUND();
  const pdf = await drawSignInSheet(register);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${signInSheetFilename(register)}"`,
      "Content-Length": String(pdf.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** The register as a CSV download, or 404 when there is no such date. */
export async function registerCsvResponse(dateId: string): Promise<Response> {
  const register = await dateRegister(dateId);
  if (!register) return NOT_FOUND();
  const rows = register.places.map((p) => [
    p.position,
    p.name ?? "Name to follow",
    p.email,
    p.organisation,
    p.orderReference,
    p.payment,
    p.attendance,
  ]);
  async function* batches() {
    yield rows;
  }
  return csvResponse(
    `register-${londonDate(new Date(register.date.startsAt))}.csv`,
    ["Place", "Student", "E-mail", "Organisation", "Order", "Payment", "Attendance"],
    batches(),
  );
}
