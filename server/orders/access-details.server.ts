import { and, eq } from "drizzle-orm";
import { ACCESS_MESSAGES, type AccessDetailsSent } from "#app/lib/orders/access-details.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { accessDetails, orderStudents, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderAccessDetails } from "../email/templates/access-details.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * Access details of on-demand courses: staff e-mail each student of a paid order without a date
 * their login or link (the text they completed from the template), or record that they sent it
 * another way. Each sending is kept per place (the last one standing), on the order's timeline
 * and in the audit log; the e-mail goes through the outbox in the same transaction.
 */

export type AccessDetailsResult =
  { ok: true; emailed: boolean } | { ok: false; status: 404 | 409; message: string };

/** Whether the order's students are sent access details here: paid, on demand, not erased. */
export function offersAccessDetails(order: OrderRow): boolean {
  return order.status === "paid" && order.courseDateId === null && order.anonymisedAt === null;
}

export async function sendAccessDetails(
  admin: AuditActor,
  orderId: string,
  input: { position: number; mode: "email" | "record"; text?: string },
): Promise<AccessDetailsResult> {
  if (!isUuid(orderId)) return { ok: false, status: 404, message: ACCESS_MESSAGES.failed };
  const result = await db().transaction(async (tx): Promise<AccessDetailsResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return { ok: false, status: 404, message: ACCESS_MESSAGES.failed };
    if (!offersAccessDetails(order)) {
      return { ok: false, status: 409, message: ACCESS_MESSAGES.notOffered };
    }
    const [named] = order.isBuyerStudent
      ? []
      : await tx
          .select()
          .from(orderStudents)
          .where(
            and(
              eq(orderStudents.orderId, order.id),
              eq(orderStudents.position, input.position - 1),
            ),
          );
    const student =
      order.isBuyerStudent && input.position === 1
        ? { email: order.buyerEmail }
        : input.position <= order.quantity
          ? named
          : undefined;
    if (!student) return { ok: false, status: 409, message: ACCESS_MESSAGES.unknownPlace };
    const emailed = input.mode === "email";
    if (emailed) {
      await queueEmails(tx, [
        {
          kind: "access_details",
          to: student.email,
          replyTo: config.mailReplyTo,
          orderId: order.id,
          ...renderAccessDetails(order, input.text ?? ""),
        },
      ]);
    }
    const sent = { sentAt: new Date(), sentBy: admin.email, emailed };
    await tx
      .insert(accessDetails)
      .values({ orderId: order.id, position: input.position, ...sent })
      .onConflictDoUpdate({ target: [accessDetails.orderId, accessDetails.position], set: sent });
    await recordOrderEvent(tx, order.id, "access_details_sent", admin.email, {
      position: input.position,
      emailed,
    });
    await recordAudit(tx, admin, {
      action: "order.access",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      after: { place: input.position, emailed },
    });
    return { ok: true, emailed };
  });
  if (result.ok && result.emailed) nudgeOutbox();
  return result;
}

/** The access details sent for an order's places, by place. */
export async function accessDetailsOf(orderId: string): Promise<Record<number, AccessDetailsSent>> {
  const rows = await db().select().from(accessDetails).where(eq(accessDetails.orderId, orderId));
  return Object.fromEntries(
    rows.map((r) => [
      r.position,
      { sentAt: r.sentAt.toISOString(), sentBy: r.sentBy, emailed: r.emailed },
    ]),
  );
}
