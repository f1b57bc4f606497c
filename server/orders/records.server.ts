import { asc, eq, inArray } from "drizzle-orm";
import { db, type Transaction } from "../db/client.server.ts";
import { orderStudents, type orders } from "../db/schema.ts";

/**
 * An order as stored and the students named on it: what creation, the state machine, the order
 * e-mails and the Payments screen all read, kept here so none of them has to import another.
 */

export type OrderRow = typeof orders.$inferSelect;

/**
 * Who booked what and for how much, as the order e-mails and the Payments screen both show it
 * (the course by the title it had when ordered).
 */
export type OrderBooking = Pick<
  OrderRow,
  | "paymentMethod"
  | "buyerFirstName"
  | "buyerLastName"
  | "buyerEmail"
  | "buyerPhone"
  | "buyerCompany"
  | "unitPriceCents"
  | "quantity"
  | "totalAmountCents"
  | "isBuyerStudent"
> & { courseTitle: OrderRow["courseTitleSnapshot"] };

export function orderBooking(order: OrderRow): OrderBooking {
  return {
    paymentMethod: order.paymentMethod,
    buyerFirstName: order.buyerFirstName,
    buyerLastName: order.buyerLastName,
    buyerEmail: order.buyerEmail,
    buyerPhone: order.buyerPhone,
    buyerCompany: order.buyerCompany,
    courseTitle: order.courseTitleSnapshot,
    unitPriceCents: order.unitPriceCents,
    quantity: order.quantity,
    totalAmountCents: order.totalAmountCents,
    isBuyerStudent: order.isBuyerStudent,
  };
}

/** A student named on an order (order_students), as e-mails and the admin list show them. */
export type OrderStudent = Pick<
  typeof orderStudents.$inferSelect,
  "firstName" | "lastName" | "email"
> & {
  /** The place's number from 0, when read from the order (a place may be a name to follow). */
  position?: number;
};

/** One order's named students, in the order they were entered (inside the caller's transaction). */
export function studentsOfOrder(tx: Transaction, orderId: string): Promise<OrderStudent[]> {
  return tx
    .select({
      firstName: orderStudents.firstName,
      lastName: orderStudents.lastName,
      email: orderStudents.email,
      position: orderStudents.position,
    })
    .from(orderStudents)
    .where(eq(orderStudents.orderId, orderId))
    .orderBy(asc(orderStudents.position));
}

/** The named students of many orders in one query (a page of the list, a batch of the CSV). */
export async function studentsOfOrders(orderIds: string[]): Promise<Map<string, OrderStudent[]>> {
  const byOrder = new Map<string, OrderStudent[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db()
    .select({
      orderId: orderStudents.orderId,
      firstName: orderStudents.firstName,
      lastName: orderStudents.lastName,
      email: orderStudents.email,
      position: orderStudents.position,
    })
    .from(orderStudents)
    .where(inArray(orderStudents.orderId, orderIds))
    .orderBy(asc(orderStudents.orderId), asc(orderStudents.position));
  for (const { orderId, ...student } of rows) {
    const list = byOrder.get(orderId) ?? [];
    list.push(student);
    byOrder.set(orderId, list);
  }
  return byOrder;
}
