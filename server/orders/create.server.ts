import { and, eq, inArray, or, sql } from "drizzle-orm";
import {
  isBlankStudent,
  validateCheckout,
  type CheckoutMessage,
  type CheckoutValues,
} from "#app/lib/checkout.ts";
import type { PaymentMethod } from "#app/lib/orders/orders.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import { confirmationAllowed } from "../abuse.server.ts";
import { db } from "../db/client.server.ts";
import { courses, orderStudents, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { hasUpcomingDates, markOfferBooked, takePlaces } from "../catalogue/course-dates.server.ts";
import type { courseDates } from "../db/schema.ts";
import { invoiceRequestEmails } from "./emails.server.ts";
import {
  isPurchasable,
  MAX_TOTAL_CENTS,
  orderTotal,
  priceToPence,
  supplyOf,
  vatFor,
} from "./pricing.server.ts";
import { recordOrderEvent } from "./events.server.ts";
import type { OrderRow } from "./records.server.ts";

/**
 * Placing an order from the checkout (decision 0005; docs/rules.md, Checkout and orders), tying it
 * to its Stripe Checkout Session, and finding it again when the buyer or Stripe comes back.
 */

export interface CreateOrderInput {
  courseId: string;
  /** The dated places booked; absent for an on-demand course (one with no dates to come). */
  courseDateId?: string | null;
  paymentMethod: PaymentMethod;
  /** Exactly what the buyer typed; prices are never taken from here. */
  values: CheckoutValues;
  /** The honeypot's mark: the order is stored held, with no e-mails (decision 0012). */
  suspected?: SpamReason | null;
  /** A waiting list offer's link token: its held places may be booked (decision 0034). */
  offerToken?: string | null;
}

export type CreateOrderResult =
  | { ok: true; order: OrderRow; courseSlug: string }
  | { ok: false; reason: "invalid"; message: CheckoutMessage }
  /** Unknown, unpublished or unpriced course, or a total too large to store. */
  | { ok: false; reason: "unavailable" }
  /**
   * The date has fewer places left than asked for, or its booking has closed, or a course with
   * dates was booked without one: nothing is stored (decision 0033).
   */
  | { ok: false; reason: "full" | "closed" | "date_required"; placesLeft: number };

/**
 * Creates a pending order with the billing details and the time the
 * terms were accepted: the course is read by id inside the transaction and must be published,
 * priced and not a partner's; unit price from the database, total = unit ×
 * quantity; the students in order_students. An invoice request also queues the admin alert and
 * the buyer's confirmation in the same transaction — unless it is held as suspected spam
 * (decision 0012): a honeypot order queues nothing; an invoice request whose buyer address has
 * had its hourly confirmations is marked 'recipient_limit' and only staff are told.
 */
export async function createOrder(input: CreateOrderInput): Promise<CreateOrderResult> {
  const problem = validateCheckout(
    input.values,
    input.paymentMethod === "stripe" ? "card" : "invoice",
  );
  if (problem) return { ok: false, reason: "invalid", message: problem };
  if (!isUuid(input.courseId)) return { ok: false, reason: "unavailable" };
  const { buyer, billing, studentMode } = input.values;
  const isBuyerStudent = studentMode === "self";
  const quantity = isBuyerStudent ? 1 : input.values.quantity;
  const students = isBuyerStudent ? [] : input.values.students.slice(0, quantity);
  // Each place keeps its number; a blank one (names to follow) is named later on the booking page.
  const named = students
    .map((s, position) => ({ ...s, position }))
    .filter((s) => !isBlankStudent(s));

  const result = await db().transaction(async (tx): Promise<CreateOrderResult> => {
    // FOR SHARE: an admin's price change waits for this order rather than racing it.
    const [course] = await tx
      .select({
        id: courses.id,
        slug: courses.slug,
        title: courses.title,
        price: courses.price,
        status: courses.status,
        partnerId: courses.partnerId,
      })
      .from(courses)
      .where(eq(courses.id, input.courseId))
      .for("share");
    if (!course || !isPurchasable(course)) return { ok: false, reason: "unavailable" };
    let unitPriceCents = priceToPence(course.price)!;
    let bookedDate: typeof courseDates.$inferSelect | null = null;
    let offerEntryId: string | null = null;
    if (input.courseDateId) {
      const places = await takePlaces(
        tx,
        course.id,
        input.courseDateId,
        quantity,
        input.offerToken,
      );
      if (!places.ok) {
        return places.reason === "unknown"
          ? { ok: false, reason: "unavailable" }
          : { ok: false, reason: places.reason, placesLeft: places.placesLeft };
      }
      bookedDate = places.date;
      offerEntryId = places.offerEntryId;
      unitPriceCents = places.unitPriceCents ?? unitPriceCents;
    } else if (await hasUpcomingDates(tx, course.id)) {
      return { ok: false, reason: "date_required", placesLeft: 0 };
    }
    // UK VAT, or none by place of supply: decided now, from what is bought and by whom.
    const vat = vatFor(supplyOf(bookedDate), billing, unitPriceCents);
    unitPriceCents = vat.unitPriceCents;
    const lineCents = orderTotal(unitPriceCents, quantity);
    if (lineCents === null) return { ok: false, reason: "unavailable" };
    const amounts = lineAmounts(lineCents, vat.terms);
    if (amounts.totalCents > MAX_TOTAL_CENTS) return { ok: false, reason: "unavailable" };
    let spamReason: SpamReason | null = input.suspected ?? null;
    if (
      spamReason === null &&
      input.paymentMethod === "invoice" &&
      !(await confirmationAllowed(tx, buyer.email))
    ) {
      spamReason = "recipient_limit";
    }
    const [order] = await tx
      .insert(orders)
      .values({
        status: "pending",
        paymentMethod: input.paymentMethod,
        buyerFirstName: buyer.firstName,
        buyerLastName: buyer.lastName,
        buyerEmail: buyer.email,
        buyerPhone: buyer.phone || null,
        buyerCompany: buyer.company || null,
        // Where the invoice goes; the checkout's rules required all but line 2, PO and VAT.
        billingOrganisation: buyer.company || null,
        billingAddressLine1: billing.addressLine1 || null,
        billingAddressLine2: billing.addressLine2 || null,
        billingTown: billing.town || null,
        billingPostcode: billing.postcode || null,
        billingCountry: billing.country || null,
        poNumber: billing.poNumber || null,
        buyerVatNumber: billing.vatNumber || null,
        // validateCheckout above refuses a booking whose terms were not accepted.
        termsAcceptedAt: sql`now()`,
        courseId: course.id,
        courseTitleSnapshot: course.title,
        courseDateId: bookedDate?.id ?? null,
        unitPriceCents,
        quantity,
        netAmountCents: amounts.netCents,
        vatAmountCents: amounts.vatCents,
        totalAmountCents: amounts.totalCents,
        vatRateBasisPoints: vat.terms.rateBasisPoints,
        pricesIncludeVat: vat.terms.pricesIncludeVat,
        vatTreatment: vat.treatment,
        currency: "GBP",
        isBuyerStudent,
        spamReason,
      })
      .returning();
    if (offerEntryId) await markOfferBooked(tx, offerEntryId, order!.id);
    await recordOrderEvent(tx, order!.id, "created", "buyer", {
      method: input.paymentMethod,
      ...(spamReason ? { spamReason } : {}),
    });
    if (named.length > 0) {
      await tx.insert(orderStudents).values(
        named.map((s) => ({
          orderId: order!.id,
          position: s.position,
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
        })),
      );
    }
    if (input.paymentMethod === "invoice" && spamReason !== "honeypot") {
      const [alert, confirmation] = invoiceRequestEmails(order!, named, {
        held: spamReason === "recipient_limit",
        date: bookedDate,
      });
      await queueEmails(tx, spamReason === null ? [alert!, confirmation!] : [alert!]);
    }
    return { ok: true, order: order!, courseSlug: course.slug };
  });
  if (result.ok) {
    log.info(
      {
        orderId: result.order.id,
        method: result.order.paymentMethod,
        quantity: result.order.quantity,
        totalAmountCents: result.order.totalAmountCents,
        spamReason: result.order.spamReason,
      },
      result.order.spamReason ? "order created, held as suspected spam" : "order created",
    );
    if (input.paymentMethod === "invoice" && result.order.spamReason !== "honeypot") nudgeOutbox();
  }
  return result;
}

/** Stores the Stripe Checkout Session id on its order (once; a different id is never overwritten).
 */
export async function attachCheckoutSession(orderId: string, sessionId: string): Promise<boolean> {
  const updated = await db()
    .update(orders)
    .set({ stripeCheckoutSessionId: sessionId, updatedAt: sql`now()` })
    .where(
      and(
        eq(orders.id, orderId),
        or(
          sql`${orders.stripeCheckoutSessionId} is null`,
          eq(orders.stripeCheckoutSessionId, sessionId),
        ),
      ),
    )
    .returning({ id: orders.id });
  return updated.length === 1;
}

/** An order with the slug of its course (the success page checks the two belong together). */
export async function findOrderWithCourse(
  orderId: string,
): Promise<(OrderRow & { courseSlug: string | null }) | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await db()
    .select({ order: orders, courseSlug: courses.slug })
    .from(orders)
    .leftJoin(courses, eq(orders.courseId, courses.id))
    .where(eq(orders.id, orderId));
  return row ? { ...row.order, courseSlug: row.courseSlug } : null;
}

/** Orders with the slug of their course, in the order of `orderIds` (unknown ids left out). */
export async function findOrdersWithCourse(
  orderIds: readonly string[],
): Promise<(OrderRow & { courseSlug: string | null })[]> {
  const ids = orderIds.filter(isUuid);
  if (ids.length === 0) return [];
  const rows = await db()
    .select({ order: orders, courseSlug: courses.slug })
    .from(orders)
    .leftJoin(courses, eq(orders.courseId, courses.id))
    .where(inArray(orders.id, ids));
  const byId = new Map(
    rows.map((row) => [row.order.id, { ...row.order, courseSlug: row.courseSlug }]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findOrderByCheckoutSession(sessionId: string): Promise<OrderRow | null> {
  const [row] = await db()
    .select()
    .from(orders)
    .where(eq(orders.stripeCheckoutSessionId, sessionId));
  return row ?? null;
}
