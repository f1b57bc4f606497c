import { lineAmounts, type VatTerms } from "#app/lib/orders/vat.ts";
import type { Transaction } from "./client.server.ts";
import { orderEvents, orderStudents, orders } from "./schema.ts";

/**
 * The demo content's bookings: invoice requests from fictional organisations that take places on
 * the demo dates, so a fresh install shows a nearly full date and a fully booked one (with its
 * waiting list) at once. Only ever written with the rest of the demo content, into an empty
 * database.
 *
 * Each is an invoice request not yet invoiced ('pending'): it has no invoice number, sent no
 * e-mail, and cancelling it in Payments gives its places back. Every address is on example.com
 * (reserved: nothing can be delivered there), and each order's timeline says it is demo content.
 */

export type DemoBooking = {
  organisation: string;
  buyer: { firstName: string; lastName: string };
  places: number;
  poNumber?: string;
};

/** The note on each demo booking's timeline. */
export const DEMO_NOTE =
  "Demo booking, created with the demo content: cancel it to give its places back.";

const STUDENT_NAMES = [
  ["Amira", "Khan"],
  ["Ben", "Adeyemi"],
  ["Chloe", "Walsh"],
  ["Dev", "Patel"],
  ["Erin", "McLeod"],
  ["Femi", "Okoro"],
  ["Grace", "Lindqvist"],
  ["Harry", "Nowak"],
  ["Isla", "Grant"],
  ["Jonah", "Reid"],
] as const;

/** A lower-case slug of an organisation's name, for its people's example.com addresses. */
function mailDomain(organisation: string): string {
  const slug = organisation
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `${slug}.example.com`;
}

/** Inserts one date's demo bookings (unit price in pence, the seller's VAT terms). */
export async function insertDemoBookings(
  tx: Transaction,
  date: { id: string; courseId: string; courseTitle: string; unitPriceCents: number },
  bookings: readonly DemoBooking[],
  vat: VatTerms,
  createdAt: (daysAgo: number) => Date,
): Promise<void> {
  for (const [n, booking] of bookings.entries()) {
    const domain = mailDomain(booking.organisation);
    const amounts = lineAmounts(date.unitPriceCents * booking.places, vat);
    const placedAt = createdAt(6 - n);
    const [order] = await tx
      .insert(orders)
      .values({
        status: "pending",
        paymentMethod: "invoice",
        buyerFirstName: booking.buyer.firstName,
        buyerLastName: booking.buyer.lastName,
        buyerEmail: `${booking.buyer.firstName.toLowerCase()}@${domain}`,
        buyerCompany: booking.organisation,
        billingOrganisation: booking.organisation,
        billingAddressLine1: "1 Example Street",
        billingTown: "London",
        billingPostcode: "EC1A 1AA",
        billingCountry: "United Kingdom",
        poNumber: booking.poNumber ?? null,
        termsAcceptedAt: placedAt,
        courseId: date.courseId,
        courseTitleSnapshot: date.courseTitle,
        courseDateId: date.id,
        unitPriceCents: date.unitPriceCents,
        quantity: booking.places,
        netAmountCents: amounts.netCents,
        vatAmountCents: amounts.vatCents,
        totalAmountCents: amounts.totalCents,
        vatRateBasisPoints: vat.rateBasisPoints,
        pricesIncludeVat: vat.pricesIncludeVat,
        currency: "GBP",
        isBuyerStudent: false,
        createdAt: placedAt,
        updatedAt: placedAt,
      })
      .returning({ id: orders.id });
    await tx.insert(orderStudents).values(
      Array.from({ length: booking.places }, (_, position) => {
        const [firstName, lastName] = STUDENT_NAMES[position % STUDENT_NAMES.length]!;
        return {
          orderId: order!.id,
          position,
          firstName,
          lastName,
          email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@${domain}`,
        };
      }),
    );
    await tx.insert(orderEvents).values([
      {
        orderId: order!.id,
        kind: "created",
        actor: "system",
        detail: { method: "invoice" },
        createdAt: placedAt,
      },
      {
        orderId: order!.id,
        kind: "note",
        actor: "system",
        detail: { text: DEMO_NOTE },
        createdAt: placedAt,
      },
    ]);
  }
}
