import { asc, eq } from "drizzle-orm";
import { db, type Transaction } from "../db/client.server.ts";
import { orderEvents } from "../db/schema.ts";

/**
 * An order's history (decision 0015): each change is recorded in the transaction that makes it,
 * with who made it, so the timeline on the admin order page cannot disagree with the order.
 */

/** An admin's e-mail, or one of these for what no admin did. */
export type OrderActor = string | "buyer" | "stripe" | "system";

export type OrderEventRow = typeof orderEvents.$inferSelect;

export async function recordOrderEvent(
  tx: Transaction,
  orderId: string,
  kind: string,
  actor: OrderActor,
  detail?: Record<string, unknown>,
): Promise<void> {
  await tx.insert(orderEvents).values({ orderId, kind, actor, detail: detail ?? null });
}

/** An order's events, oldest first. */
export function eventsOfOrder(orderId: string): Promise<OrderEventRow[]> {
  return db()
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
}
