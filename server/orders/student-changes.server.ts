import { and, eq } from "drizzle-orm";
import { BOOKING_MESSAGES } from "#app/lib/orders/booking.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { db } from "../db/client.server.ts";
import { accessDetails, type courseDates, orderStudents, orders } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { bookingUrl } from "./booking-links.server.ts";
import {
  changeWindow,
  hasBookerPage,
  holdersOf,
  holdsItsPlaces,
  type Holder,
} from "./booking-rules.server.ts";
import { studentChangedEmails } from "./emails.server.ts";
import { recordOrderEvent } from "./events.server.ts";

/**
 * A place's student named or changed (decision 0037; the terms' free transfer to a colleague):
 * by the booker on their page before the change window closes, or by staff from the order page
 * until the date ends (a late substitution on the day, or one the booker asked for by e-mail
 * after the window closed). One transaction under the order's row lock: the place's holder
 * replaced, the change on the order's timeline and in the audit log, and the booker, the old and
 * the new student e-mailed. The price and the documents do not change.
 */

export type StudentChangeOutcome =
  | { ok: true; changed: true; name: string }
  | { ok: true; changed: false }
  | { ok: false; status: 404 | 409; message: string };

type DateRow = typeof courseDates.$inferSelect;

/**
 * Staff may change a student while the order holds its places and until its date ends (never on
 * a cancelled date); on demand, at any time.
 */
function staffWindow(
  order: typeof orders.$inferSelect,
  date: DateRow | null,
  now: Date,
): { open: true } | { open: false; reason: "not_held" | "ended" } {
  if (!holdsItsPlaces(order)) return { open: false, reason: "not_held" };
  if (date && (date.state === "cancelled" || now >= date.endsAt)) {
    return { open: false, reason: "ended" };
  }
  return { open: true };
}

export async function changeStudent(
  orderId: string,
  input: { place: number; first_name: string; last_name: string; email: string },
  options: { now?: Date; ipAddress?: string | null; admin?: AuditActor } = {},
): Promise<StudentChangeOutcome> {
  const now = options.now ?? new Date();
  const admin = options.admin ?? null;
  const to: Holder = {
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email.trim().toLowerCase(),
  };
  return db().transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order || !hasBookerPage(order)) {
      return admin && order
        ? { ok: false, status: 409, message: BOOKING_MESSAGES.heldOrErased }
        : { ok: false, status: 404, message: BOOKING_MESSAGES.notHeld };
    }
    const date = await bookedDateOf(tx, order.courseDateId);
    const window = admin ? staffWindow(order, date, now) : changeWindow(order, date, now);
    if (!window.open) {
      const message =
        window.reason === "not_held"
          ? BOOKING_MESSAGES.notHeld
          : window.reason === "ended"
            ? BOOKING_MESSAGES.ended
            : BOOKING_MESSAGES.closed;
      return { ok: false, status: 409, message };
    }
    if (input.place < 1 || input.place > order.quantity) {
      return { ok: false, status: 409, message: BOOKING_MESSAGES.noSuchPlace };
    }
    if (!order.courseDateId && !admin) {
      // On demand: once a place's access details are out, its student has them.
      const [sent] = await tx
        .select({ id: accessDetails.id })
        .from(accessDetails)
        .where(and(eq(accessDetails.orderId, order.id), eq(accessDetails.position, input.place)));
      if (sent) return { ok: false, status: 409, message: BOOKING_MESSAGES.accessSent };
    }
    const from = (await holdersOf(tx, order)).get(input.place) ?? null;
    if (
      from &&
      from.firstName === to.firstName &&
      from.lastName === to.lastName &&
      from.email.trim().toLowerCase() === to.email
    ) {
      return { ok: true, changed: false };
    }

    let updated = order;
    if (order.isBuyerStudent) {
      // The buyer gives their own place away: the place becomes a named student's.
      [updated] = (await tx
        .update(orders)
        .set({ isBuyerStudent: false, updatedAt: now })
        .where(eq(orders.id, order.id))
        .returning()) as [typeof order];
    }
    await tx
      .insert(orderStudents)
      .values({ orderId: order.id, position: input.place - 1, ...to })
      .onConflictDoUpdate({
        target: [orderStudents.orderId, orderStudents.position],
        set: { firstName: to.firstName, lastName: to.lastName, email: to.email },
      });

    const name = `${to.firstName} ${to.lastName}`;
    const fromName = from ? `${from.firstName} ${from.lastName}` : null;
    await recordOrderEvent(tx, order.id, "student_changed", admin?.email ?? "buyer", {
      reason: fromName
        ? `Place ${input.place}: ${fromName} → ${name}`
        : `Place ${input.place}: ${name}`,
      place: input.place,
      from: from ? { name: fromName, email: from.email } : null,
      to: { name, email: to.email },
    });
    await recordAudit(tx, admin, {
      action: "order.student",
      subjectType: "order",
      subjectId: order.id,
      summary: `${orderReference(order.id)}: ${admin ? "staff" : "the booker"} changed place ${input.place}`,
      before: from ? { place: input.place, name: fromName, email: from.email } : null,
      after: { place: input.place, name, email: to.email },
      ipAddress: options.ipAddress ?? null,
    });
    await queueEmails(
      tx,
      await studentChangedEmails(tx, updated, date, {
        place: input.place,
        from,
        to,
        bookingUrl: bookingUrl(order.id, date?.endsAt ?? null, now),
        byStaff: admin !== null,
      }),
    );
    return { ok: true, changed: true, name };
  });
}
