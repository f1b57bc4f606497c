import {
  checkCheckout,
  MESSAGES,
  readCheckoutForm,
  type BuyerOrderSummary,
  type CheckoutCourse,
  type CheckoutMessage,
} from "#app/lib/checkout.ts";
import {
  COURSE_DATE_FIELD,
  DATE_MESSAGES,
  notEnoughPlaces,
  type PublicCourseDate,
} from "#app/lib/catalogue/course-dates.ts";
import { OFFER_FIELD } from "#app/lib/catalogue/waiting-list.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import type { FieldErrors } from "#app/lib/forms.ts";
import type { VatTerms } from "#app/lib/orders/vat.ts";
import { hitRateLimit, honeypotMark, RATE_LIMIT_MESSAGE } from "../abuse.server.ts";
import { config } from "../config.server.ts";
import { findUpcomingDate, hasUpcomingDates } from "../catalogue/course-dates.server.ts";
import { findCheckoutCourse, findPublishedCourseTitle } from "../catalogue/courses.server.ts";
import { findCheckoutOffer, type CheckoutOffer } from "../catalogue/waiting-list.server.ts";
import { db } from "../db/client.server.ts";
import { SUBMISSION_IN_PROGRESS, submitOnce } from "../forms/submit-once.server.ts";
import { log } from "../log.server.ts";
import { logFailure } from "../db/errors.server.ts";
import { createOrder, findOrdersWithCourse } from "../orders/create.server.ts";
import type { OrderRow } from "../orders/records.server.ts";
import { rememberedOrderIds } from "./buyer-orders.server.ts";
import {
  isCardPaymentEnabled,
  startCheckout,
  verifyCheckoutReturn,
  type PaymentVerification,
} from "./stripe.server.ts";

/**
 * The checkout page's post (decision 0005): read and check the form, create the order,
 * then either start the Stripe Checkout Session (card) or confirm the invoice request.
 *
 * A post with the honeypot filled is stored as an invoice request held as suspected spam
 * (decision 0012), whichever button sent it: no e-mail, no Stripe session, and the visitor gets
 * the invoice answer ('Invoice Requested') — true, since the booking is kept for staff to
 * release (which sends the invoice request's e-mails) or cancel.
 */

/** Orders one client may place per minute (each card order also creates a Stripe session). */
export const CHECKOUT_RATE_LIMIT_PER_MINUTE = 20;

export type CheckoutOutcome =
  | { kind: "not_found" }
  /** Without JavaScript: the page is drawn again for the chosen student mode and quantity. */
  | { kind: "update" }
  | { kind: "card"; url: string; orderId: string }
  | { kind: "invoice"; orderId: string }
  | { kind: "problem"; status: number; message: CheckoutMessage; fieldErrors?: FieldErrors };

/**
 * The checkout page: the course (only one that can be bought online: published, priced, not a
 * partner's), whether cards are taken, and how VAT is charged (the prices say 'excl. VAT' or
 * 'incl. VAT', the summary shows net, VAT and total).
 */
export async function loadCheckout(
  slug: string,
  dateId: string | null = null,
  offerToken: string | null = null,
): Promise<
  | {
      kind: "checkout";
      course: CheckoutCourse;
      cardPaymentsEnabled: boolean;
      vat: VatTerms;
      /** A waiting list offer's link (decision 0034): what it fills in, or that it is spent. */
      offer: CheckoutOffer | null;
    }
  /** A course with dates is booked by date: its page lists them (decision 0033). */
  | { kind: "choose_date"; slug: string }
  | null
> {
  const found = await findCheckoutCourse(slug);
  if (!found) return null;
  const { coursePrice, ...course } = found;
  let date: PublicCourseDate | null = null;
  let offer: CheckoutOffer | null = null;
  if (dateId) {
    date = await findUpcomingDate(course.id, dateId, coursePrice);
    if (!date) return { kind: "choose_date", slug: course.slug };
    offer = await findCheckoutOffer(date.id, offerToken);
    if (offer?.kind === "open") {
      // The holder of an open offer also has the places it holds.
      const placesLeft = date.placesLeft + offer.places;
      date = { ...date, placesLeft, bookable: placesLeft > 0 && date.unitPriceCents > 0 };
    }
  } else if (await hasUpcomingDates(db(), course.id)) {
    return { kind: "choose_date", slug: course.slug };
  }
  return {
    kind: "checkout",
    course: date ? { ...course, unitPriceCents: date.unitPriceCents, date } : course,
    cardPaymentsEnabled: isCardPaymentEnabled(),
    vat: { ...config.seller.vat },
    offer,
  };
}

export async function submitCheckout(
  courseSlug: string,
  form: FormData,
  client: string,
): Promise<CheckoutOutcome> {
  const course = await findCheckoutCourse(courseSlug);
  if (!course) return { kind: "not_found" };
  const { intent, values } = readCheckoutForm(form);
  const problem = (status: number, message: CheckoutMessage): CheckoutOutcome => ({
    kind: "problem",
    status,
    message,
  });
  if (intent === "update") return { kind: "update" };
  if (intent === "card" && !isCardPaymentEnabled()) return problem(409, MESSAGES.cardUnavailable);
  const invalid = checkCheckout(values, intent);
  if (invalid) {
    return {
      kind: "problem",
      status: 400,
      message: invalid.toast,
      fieldErrors: invalid.fieldErrors,
    };
  }
  const place = async (): Promise<CheckoutOutcome> => {
    // Counted only for complete forms, so a visitor correcting typos is never locked out.
    const limit = await hitRateLimit("checkout", client, CHECKOUT_RATE_LIMIT_PER_MINUTE);
    if (!limit.allowed) {
      log.warn({ courseSlug }, "checkout rate limit reached");
      return problem(429, { title: "Too Many Requests", description: RATE_LIMIT_MESSAGE });
    }
    const suspected = honeypotMark(form);
    const paymentMethod = intent === "card" && !suspected ? "stripe" : "invoice";
    const courseDateId = form.get(COURSE_DATE_FIELD);
    const offerToken = form.get(OFFER_FIELD);
    const created = await createOrder({
      courseId: course.id,
      courseDateId: typeof courseDateId === "string" && courseDateId ? courseDateId : null,
      paymentMethod,
      values,
      suspected,
      offerToken: typeof offerToken === "string" && offerToken ? offerToken : null,
    });
    if (!created.ok) {
      switch (created.reason) {
        case "invalid":
          return problem(400, created.message);
        case "full":
          return problem(
            409,
            created.placesLeft > 0 ? notEnoughPlaces(created.placesLeft) : DATE_MESSAGES.full,
          );
        case "date_required":
          return problem(409, DATE_MESSAGES.chooseDate);
        case "closed":
          return problem(409, DATE_MESSAGES.closed);
        default:
          return problem(409, MESSAGES.paymentError);
      }
    }
    if (paymentMethod === "invoice") return { kind: "invoice", orderId: created.order.id };
    const started = await startCheckout(created.order, created.courseSlug);
    return started.ok
      ? { kind: "card", url: started.url, orderId: created.order.id }
      : problem(502, MESSAGES.paymentError);
  };
  try {
    // One order per submission: a double click or a repeated post gets the first post's order
    // (the same success page, the same Stripe page) — server/forms/submit-once.server.ts.
    const once = await submitOnce(`checkout:${course.id}`, form, place, {
      keep: (outcome) => outcome.kind === "invoice" || outcome.kind === "card",
      store: (outcome) => outcome,
    });
    if (once.kind === "first") return once.answer;
    if (once.kind === "repeat")
      return placedOutcome(once.stored) ?? problem(500, MESSAGES.paymentError);
    return problem(409, { title: "Please Wait", description: SUBMISSION_IN_PROGRESS });
  } catch (error) {
    logFailure(error, { courseSlug }, "checkout failed");
    return problem(500, MESSAGES.paymentError);
  }
}

/** A stored first outcome read back: an order placed (by invoice or card), or null. */
function placedOutcome(stored: unknown): CheckoutOutcome | null {
  const o = (typeof stored === "object" && stored !== null ? stored : {}) as Record<
    string,
    unknown
  >;
  if (typeof o.orderId !== "string") return null;
  if (o.kind === "invoice") return { kind: "invoice", orderId: o.orderId };
  if (o.kind === "card" && typeof o.url === "string") {
    return { kind: "card", url: o.url, orderId: o.orderId };
  }
  return null;
}

export type SuccessPage =
  /** `order`: the buyer's latest invoice request for this course, when this browser placed one. */
  | { kind: "invoice"; course: { slug: string; title: string }; order: BuyerOrderSummary | null }
  /** `outcome` is left pending: the page streams 'Verifying payment...' until it settles. */
  | {
      kind: "card";
      course: { slug: string; title: string };
      outcome: Promise<CardOutcome>;
    }
  | { kind: "none"; course: { slug: string; title: string } };

/** What verifying a card payment found; `order` only for the browser that placed it. */
export interface CardOutcome {
  verification: PaymentVerification;
  order: BuyerOrderSummary | null;
}

/**
 * The success page: ?invoice=true, or ?session_id= to verify with Stripe.
 * The order's reference and summary are shown only to the browser that placed it (its signed
 * cookie names the order, buyer-orders.server.ts); anyone else sees the page without them.
 */
export async function loadSuccessPage(
  courseSlug: string,
  request: Request,
): Promise<SuccessPage | null> {
  const found = await findPublishedCourseTitle(courseSlug);
  if (!found) return null;
  const query = new URL(request.url).searchParams;
  const course = { slug: found.slug, title: found.title };
  if (query.get("invoice") === "true") {
    const mine = await findOrdersWithCourse(await rememberedOrderIds(request));
    const latest = mine.find((o) => o.courseSlug === found.slug && o.paymentMethod === "invoice");
    return { kind: "invoice", course, order: latest ? buyerSummary(latest) : null };
  }
  const sessionId = query.get("session_id");
  if (sessionId) {
    const mine = rememberedOrderIds(request);
    const outcome = verifyCheckoutReturn(courseSlug, sessionId).then(
      async (verification): Promise<CardOutcome> => {
        if (verification.kind !== "paid" || !(await mine).includes(verification.orderId)) {
          return { verification, order: null };
        }
        const [order] = await findOrdersWithCourse([verification.orderId]);
        return { verification, order: order ? buyerSummary(order) : null };
      },
    );
    return { kind: "card", course, outcome };
  }
  return { kind: "none", course };
}

function buyerSummary(order: OrderRow): BuyerOrderSummary {
  return {
    reference: orderReference(order.id),
    courseTitle: order.courseTitleSnapshot,
    places: order.quantity,
    totalCents: order.totalAmountCents,
    vatCents: order.vatAmountCents,
  };
}

/** The canceled page names the course: a published one (others are not found). */
export async function loadCanceledPage(
  courseSlug: string,
): Promise<{ slug: string; title: string } | null> {
  const found = await findPublishedCourseTitle(courseSlug);
  return found ? { slug: found.slug, title: found.title } : null;
}
