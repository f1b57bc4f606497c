import { sql } from "drizzle-orm";
import { db } from "#server/db/client.server.ts";
import { orderEvents, orderStudents, orders } from "#server/db/schema.ts";
import { recordOrderEvent } from "#server/orders/events.server.ts";

/**
 * Orders for the admin order page's tests (tests/server/order-page*.test.ts), written straight
 * to the database the test made current (`useFreshDatabase`), without the checkout.
 */

export interface OrderSeed {
  id?: string;
  first?: string;
  last?: string;
  email?: string;
  company?: string | null;
  organisation?: string | null;
  method?: "invoice" | "stripe";
  students?: { firstName: string; lastName: string; email: string }[];
}

/** An order as the checkout stores it (with its 'created' event), inserted directly. */
export async function insertOrder(seed: OrderSeed = {}) {
  const students = seed.students ?? [];
  const quantity = Math.max(1, students.length);
  return db().transaction(async (tx) => {
    const [order] = await tx
      .insert(orders)
      .values({
        ...(seed.id ? { id: seed.id } : {}),
        status: "pending",
        paymentMethod: seed.method ?? "invoice",
        buyerFirstName: seed.first ?? "Ada",
        buyerLastName: seed.last ?? "Lovelace",
        buyerEmail: seed.email ?? "ada@example.com",
        buyerPhone: "+44 20 7946 0000",
        buyerCompany: seed.company === undefined ? "Analytical Engines Ltd" : seed.company,
        courseTitleSnapshot: "OSINT Investigations Masterclass",
        unitPriceCents: 100_000,
        quantity,
        isBuyerStudent: students.length === 0,
        netAmountCents: 100_000 * quantity,
        vatAmountCents: 20_000 * quantity,
        vatRateBasisPoints: 2000,
        totalAmountCents: 120_000 * quantity,
        billingOrganisation:
          seed.organisation === undefined ? "Engines Group plc" : seed.organisation,
        billingAddressLine1: "1 Difference Street",
        billingAddressLine2: "Floor 2",
        billingTown: "London",
        billingPostcode: "EC1A 1BB",
        billingCountry: "United Kingdom",
        poNumber: "PO-7781",
        buyerVatNumber: "GB123456789",
      })
      .returning();
    if (students.length) {
      await tx
        .insert(orderStudents)
        .values(students.map((s, i) => ({ ...s, orderId: order!.id, position: i + 1 })));
    }
    await recordOrderEvent(tx, order!.id, "created", "buyer", { paymentMethod: "invoice" });
    return order!;
  });
}

/** How many staff notes an order's timeline holds. */
export async function noteCount(orderId: string) {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(orderEvents)
    .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.kind} = 'note'`);
  return Number(row!.n);
}
