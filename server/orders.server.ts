import { and, asc, eq, inArray, isNotNull, or, sql, type SQL } from "drizzle-orm";
import { validateCheckout, type CheckoutMessage, type CheckoutValues } from "#app/lib/checkout.ts";
import {
  ORDERS_PAGE_SIZE,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  orderReference,
  type AdminOrder,
  type OrderFilters,
  type OrderStats,
  type OrderStatus,
  type PaymentMethod,
} from "#app/lib/orders.ts";
import { formatPence } from "#app/lib/format.ts";
import type { SpamReason } from "#app/lib/suspected-spam.ts";
import { confirmationAllowed } from "./abuse.server.ts";
import { config } from "./config.server.ts";
import { csvResponse, type CsvValue } from "./csv.server.ts";
import { db, type Transaction } from "./db/client.server.ts";
import { courses, emailOutbox, orderStudents, orders, stripeEvents } from "./db/schema.ts";
import { queueEmails, type OutgoingEmail } from "./email/outbox.server.ts";
import { nudgeOutbox } from "./email/worker.server.ts";
import { containsPattern, isUuid } from "./db/sql.server.ts";
import { log } from "./log.server.ts";
import { isPurchasable, orderTotal, priceToPence } from "./orders/pricing.server.ts";
import {
  renderInvoiceRequestAlert,
  renderInvoiceRequestConfirmation,
  renderJoiningDetails,
  renderReceipt,
  type OrderEmailData,
} from "./payments/order-emails.server.ts";

/**
 * Orders (spec §3 Order, §4 Order/Checkout, §7 create-payment): creating one from the checkout
 * (price from the database, never from the browser), the order state machine — the one function
 * through which the Stripe webhook, the success page and the admin change a status — the e-mails
 * each step queues, and the admin Payments screen's queries.
 */

export type OrderRow = typeof orders.$inferSelect;
export type { OrderStatus, PaymentMethod };

/* ------------------------------------------------------------------------------------------ */
/* The order state machine                                                                      */

/** Who asks for a transition. 'checkout': the checkout itself, when Stripe refused to start. */
export type TransitionSource = "webhook" | "success_page" | "admin" | "checkout";

export interface OrderTransitionRule {
  from: OrderStatus;
  to: OrderStatus;
  /** The payment methods of the orders this rule applies to. */
  methods: readonly PaymentMethod[];
  /** Who may apply it. */
  sources: readonly TransitionSource[];
}

/**
 * Every allowed transition; anything not listed is refused. Card orders are settled by Stripe
 * (webhook or the verified success page) — an admin cannot mark one paid; invoice orders are
 * settled by an admin: pending → invoiced → paid. Either may be canceled while unsettled.
 * paid, failed and canceled are final.
 */
export const ORDER_TRANSITIONS: readonly OrderTransitionRule[] = [
  { from: "pending", to: "paid", methods: ["stripe"], sources: ["webhook", "success_page"] },
  { from: "pending", to: "failed", methods: ["stripe"], sources: ["webhook", "checkout"] },
  { from: "pending", to: "canceled", methods: ["stripe"], sources: ["webhook", "admin"] },
  { from: "pending", to: "invoiced", methods: ["invoice"], sources: ["admin"] },
  { from: "pending", to: "canceled", methods: ["invoice"], sources: ["admin"] },
  { from: "invoiced", to: "paid", methods: ["invoice"], sources: ["admin"] },
  { from: "invoiced", to: "canceled", methods: ["invoice"], sources: ["admin"] },
];

export function canTransition(
  order: { status: OrderStatus; paymentMethod: PaymentMethod },
  to: OrderStatus,
  source: TransitionSource,
): boolean {
  return ORDER_TRANSITIONS.some(
    (rule) =>
      rule.from === order.status &&
      rule.to === to &&
      rule.methods.includes(order.paymentMethod) &&
      rule.sources.includes(source),
  );
}

/** The statuses an admin may move an order to now (the Payments screen's buttons). */
export function adminActions(order: {
  status: OrderStatus;
  paymentMethod: PaymentMethod;
}): OrderStatus[] {
  const targets = ORDER_TRANSITIONS.filter(
    (rule) =>
      rule.from === order.status &&
      rule.methods.includes(order.paymentMethod) &&
      rule.sources.includes("admin"),
  ).map((rule) => rule.to);
  return [...new Set(targets)];
}

/** The WHERE condition matching the orders a source may move to `to`: (status, method) pairs. */
function allowedFromCondition(to: OrderStatus, source: TransitionSource): SQL | undefined {
  const rules = ORDER_TRANSITIONS.filter((r) => r.to === to && r.sources.includes(source));
  if (rules.length === 0) return undefined;
  return or(
    ...rules.map((r) =>
      and(eq(orders.status, r.from), inArray(orders.paymentMethod, [...r.methods])),
    ),
  );
}

export type TransitionResult =
  /** This call moved the order; its e-mails are queued. */
  | { kind: "transitioned"; order: OrderRow }
  /** Not allowed from the order's current status (or already there, e.g. a lost race). */
  | { kind: "unchanged"; order: OrderRow }
  /** The webhook event was applied before; nothing was done. */
  | { kind: "duplicate_event" }
  | { kind: "not_found" };

/**
 * Moves an order along the state machine, or does nothing. One transaction holds: the webhook
 * event id (when given — inserted first, so a replay stops here), a conditional UPDATE … WHERE
 * status IN (allowed) (so of concurrent callers exactly one changes the row; the others see 0
 * rows), and the e-mails of the new status. Safe to call any number of times, concurrently.
 */
export async function transitionOrder(
  orderId: string,
  to: OrderStatus,
  options: { source: TransitionSource; eventId?: string; eventType?: string },
): Promise<TransitionResult> {
  if (!isUuid(orderId)) return { kind: "not_found" };
  const result = await db().transaction(async (tx): Promise<TransitionResult> => {
    const [exists] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
    if (options.eventId) {
      const recorded = await tx
        .insert(stripeEvents)
        .values({
          eventId: options.eventId,
          type: options.eventType ?? "unknown",
          orderId: exists ? orderId : null,
        })
        .onConflictDoNothing()
        .returning({ eventId: stripeEvents.eventId });
      if (recorded.length === 0) return { kind: "duplicate_event" };
    }
    if (!exists) return { kind: "not_found" };
    const allowed = allowedFromCondition(to, options.source);
    const [updated] = allowed
      ? await tx
          .update(orders)
          .set({ status: to, updatedAt: sql`now()` })
          .where(and(eq(orders.id, orderId), allowed))
          .returning()
      : [];
    if (!updated) {
      const [current] = await tx.select().from(orders).where(eq(orders.id, orderId));
      return current ? { kind: "unchanged", order: current } : { kind: "not_found" };
    }
    if (to === "paid") await queueEmails(tx, await paidEmails(tx, updated));
    return { kind: "transitioned", order: updated };
  });
  if (result.kind === "transitioned") {
    log.info(
      { orderId, status: to, source: options.source, eventId: options.eventId },
      "order status changed",
    );
    if (to === "paid") nudgeOutbox();
  } else if (result.kind === "unchanged" && result.order.status !== to) {
    log.warn(
      { orderId, status: result.order.status, wanted: to, source: options.source },
      "order transition refused",
    );
  }
  return result;
}

/* ------------------------------------------------------------------------------------------ */
/* Checkout                                                                                     */

export interface CreateOrderInput {
  courseId: string;
  paymentMethod: PaymentMethod;
  /** Exactly what the buyer typed; prices are never taken from here. */
  values: CheckoutValues;
  /** The honeypot's mark: the order is stored held, with no e-mails (decision 0012). */
  suspected?: SpamReason | null;
}

export type CreateOrderResult =
  | { ok: true; order: OrderRow; courseSlug: string }
  | { ok: false; reason: "invalid"; message: CheckoutMessage }
  /** Unknown, unpublished or unpriced course, or a total too large to store. */
  | { ok: false; reason: "unavailable" };

/**
 * Creates a pending order (spec §7 create-payment): the course is read by id inside the
 * transaction and must be published and priced; unit price from the database, total = unit ×
 * quantity; the students in order_students. An invoice request also queues the admin alert and
 * the buyer's confirmation in the same transaction — unless it is held as suspected spam
 * (decision 0012): a honeypot order queues nothing; an invoice request whose buyer address has
 * had its hourly confirmations is marked 'recipient_limit' and only staff are told.
 */
export async function createOrder(input: CreateOrderInput): Promise<CreateOrderResult> {
  const problem = validateCheckout(input.values);
  if (problem) return { ok: false, reason: "invalid", message: problem };
  if (!isUuid(input.courseId)) return { ok: false, reason: "unavailable" };
  const { buyer, studentMode } = input.values;
  const isBuyerStudent = studentMode === "self";
  const quantity = isBuyerStudent ? 1 : input.values.quantity;
  const students = isBuyerStudent ? [] : input.values.students.slice(0, quantity);

  const result = await db().transaction(async (tx): Promise<CreateOrderResult> => {
    // FOR SHARE: an admin's price change waits for this order rather than racing it.
    const [course] = await tx
      .select({
        id: courses.id,
        slug: courses.slug,
        title: courses.title,
        price: courses.price,
        status: courses.status,
      })
      .from(courses)
      .where(eq(courses.id, input.courseId))
      .for("share");
    if (!course || !isPurchasable(course)) return { ok: false, reason: "unavailable" };
    const unitPriceCents = priceToPence(course.price)!;
    const totalAmountCents = orderTotal(unitPriceCents, quantity);
    if (totalAmountCents === null) return { ok: false, reason: "unavailable" };
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
        courseId: course.id,
        courseTitleSnapshot: course.title,
        unitPriceCents,
        quantity,
        totalAmountCents,
        currency: "GBP",
        isBuyerStudent,
        spamReason,
      })
      .returning();
    if (students.length > 0) {
      await tx.insert(orderStudents).values(
        students.map((s, position) => ({
          orderId: order!.id,
          position,
          firstName: s.firstName,
          lastName: s.lastName,
          email: s.email,
        })),
      );
    }
    if (input.paymentMethod === "invoice" && spamReason !== "honeypot") {
      const [alert, confirmation] = invoiceRequestEmails(order!, students, {
        held: spamReason === "recipient_limit",
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

/** Stores the Stripe Checkout Session id on its order (once; a different id is never overwritten). */
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

export async function findOrderByCheckoutSession(sessionId: string): Promise<OrderRow | null> {
  const [row] = await db()
    .select()
    .from(orders)
    .where(eq(orders.stripeCheckoutSessionId, sessionId));
  return row ?? null;
}

/* ------------------------------------------------------------------------------------------ */
/* E-mails                                                                                      */

type StudentLike = { firstName: string; lastName: string; email: string };

function emailData(order: OrderRow, students: StudentLike[]): OrderEmailData {
  return {
    id: order.id,
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
    createdAt: order.createdAt,
    students: order.isBuyerStudent
      ? [
          {
            firstName: order.buyerFirstName,
            lastName: order.buyerLastName,
            email: order.buyerEmail,
          },
        ]
      : students,
  };
}

/** An invoice request's two e-mails: the alert to staff and the confirmation to the buyer. */
function invoiceRequestEmails(
  order: OrderRow,
  students: StudentLike[],
  options: { held?: boolean } = {},
): OutgoingEmail[] {
  const data = emailData(order, students);
  return [
    {
      kind: "invoice_request_alert",
      to: config.adminEmails,
      replyTo: order.buyerEmail,
      orderId: order.id,
      ...renderInvoiceRequestAlert(data, `${config.publicUrl}/admin/payments`, options),
    },
    {
      kind: "invoice_request_confirmation",
      to: order.buyerEmail,
      replyTo: config.mailReplyTo,
      orderId: order.id,
      ...renderInvoiceRequestConfirmation(data),
    },
  ];
}

/** One order's named students, in the order they were entered. */
function studentsOfOrder(tx: Transaction, orderId: string): Promise<StudentLike[]> {
  return tx
    .select({
      firstName: orderStudents.firstName,
      lastName: orderStudents.lastName,
      email: orderStudents.email,
    })
    .from(orderStudents)
    .where(eq(orderStudents.orderId, orderId))
    .orderBy(asc(orderStudents.position));
}

/** The receipt to the buyer and joining details to every student, for an order just paid. */
async function paidEmails(tx: Transaction, order: OrderRow): Promise<OutgoingEmail[]> {
  const students = await studentsOfOrder(tx, order.id);
  const [course] = order.courseId
    ? await tx.select({ slug: courses.slug }).from(courses).where(eq(courses.id, order.courseId))
    : [];
  const courseUrl = course
    ? `${config.publicUrl}/courses/${encodeURIComponent(course.slug)}`
    : null;
  const data = emailData(order, students);
  return [
    {
      kind: "order_receipt",
      to: order.buyerEmail,
      replyTo: config.mailReplyTo,
      orderId: order.id,
      ...renderReceipt(data, new Date()),
    },
    ...data.students.map((student) => ({
      kind: "course_joining_details",
      to: student.email,
      replyTo: config.mailReplyTo,
      orderId: order.id,
      ...renderJoiningDetails(data, student, courseUrl),
    })),
  ];
}

/* ------------------------------------------------------------------------------------------ */
/* Admin: Payments screen                                                                       */

/**
 * Newest first, as the index `orders_created_at_id_idx` (created_at desc nulls last, id desc nulls
 * last) is sorted — a plain DESC means NULLS FIRST and would not match it — so any page of the
 * list is an index walk, and `id` breaks ties so pages never overlap.
 */
const NEWEST_FIRST = [sql`${orders.createdAt} desc nulls last`, sql`${orders.id} desc nulls last`];

/**
 * What the Payments search looks in: buyer name (first, last, full), e-mail, company and course
 * title, lower-cased in one string. Exactly the expression of the trigram index
 * `orders_search_trgm_idx` (migration 0004), so PostgreSQL with pg_trgm answers from the index.
 */
const orderSearchText = sql`lower(${orders.buyerFirstName} || ' ' || ${orders.buyerLastName} || ' ' || ${orders.buyerEmail} || ' ' || coalesce(${orders.buyerCompany}, '') || ' ' || ${orders.courseTitleSnapshot})`;

function filterCondition(filters: Omit<OrderFilters, "page">): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.method) conditions.push(eq(orders.paymentMethod, filters.method));
  if (filters.search) {
    conditions.push(sql`${orderSearchText} like lower(${containsPattern(filters.search)})`);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** Counters for the stat cards, in one aggregate query (no rows are loaded). */
export async function orderStats(): Promise<OrderStats> {
  const [row] = await db()
    .select({
      total: sql<number>`count(*)::int`,
      pending: sql<number>`(count(*) filter (where ${orders.status} = 'pending'))::int`,
      invoiced: sql<number>`(count(*) filter (where ${orders.status} = 'invoiced'))::int`,
      paid: sql<number>`(count(*) filter (where ${orders.status} = 'paid'))::int`,
      failed: sql<number>`(count(*) filter (where ${orders.status} = 'failed'))::int`,
      canceled: sql<number>`(count(*) filter (where ${orders.status} = 'canceled'))::int`,
      // bigint as text: a sum of many totals may exceed 2^31; pence stay exact up to 2^53.
      revenueCents: sql<string>`coalesce(sum(${orders.totalAmountCents}) filter (where ${orders.status} = 'paid'), 0)::text`,
    })
    .from(orders);
  return {
    total: Number(row?.total ?? 0),
    pending: Number(row?.pending ?? 0),
    invoiced: Number(row?.invoiced ?? 0),
    paid: Number(row?.paid ?? 0),
    failed: Number(row?.failed ?? 0),
    canceled: Number(row?.canceled ?? 0),
    revenueCents: Number(row?.revenueCents ?? 0),
  };
}

export interface OrderPage {
  orders: AdminOrder[];
  /** Orders matching the filters (all pages). */
  matching: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

function toAdminOrder(order: OrderRow, students: StudentLike[]): AdminOrder {
  return {
    id: order.id,
    reference: orderReference(order.id),
    status: order.status,
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
    currency: order.currency,
    isBuyerStudent: order.isBuyerStudent,
    spamReason: order.spamReason,
    createdAt: order.createdAt.toISOString(),
    students,
    actions: adminActions(order),
  };
}

async function studentsOf(orderIds: string[]): Promise<Map<string, StudentLike[]>> {
  const byOrder = new Map<string, StudentLike[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await db()
    .select({
      orderId: orderStudents.orderId,
      firstName: orderStudents.firstName,
      lastName: orderStudents.lastName,
      email: orderStudents.email,
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

/** One page of orders, newest first, filtered and searched in the database. */
export async function listOrders(
  filters: OrderFilters,
  pageSize = ORDERS_PAGE_SIZE,
): Promise<OrderPage> {
  const where = filterCondition(filters);
  const [{ matching } = { matching: 0 }] = await db()
    .select({ matching: sql<number>`count(*)::int` })
    .from(orders)
    .where(where);
  const pageCount = Math.max(1, Math.ceil(Number(matching) / pageSize));
  const page = Math.min(filters.page, pageCount);
  const rows = await db()
    .select()
    .from(orders)
    .where(where)
    .orderBy(...NEWEST_FIRST)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const students = await studentsOf(rows.map((r) => r.id));
  return {
    orders: rows.map((r) => toAdminOrder(r, students.get(r.id) ?? [])),
    matching: Number(matching),
    page,
    pageCount,
    pageSize,
  };
}

export type AdminStatusChange =
  | { ok: true; order: AdminOrder }
  | { ok: false; reason: "not_found" | "not_allowed"; status?: OrderStatus };

/** An admin's 'Mark Invoiced' / 'Mark Paid' / 'Cancel'; anything the state machine forbids is refused. */
export async function changeOrderStatusByAdmin(
  orderId: string,
  to: OrderStatus,
): Promise<AdminStatusChange> {
  const result = await transitionOrder(orderId, to, { source: "admin" });
  if (result.kind === "not_found" || result.kind === "duplicate_event") {
    return { ok: false, reason: "not_found" };
  }
  if (result.kind === "unchanged")
    return { ok: false, reason: "not_allowed", status: result.order.status };
  const students = await studentsOf([result.order.id]);
  return { ok: true, order: toAdminOrder(result.order, students.get(result.order.id) ?? []) };
}

/**
 * 'Release' on a suspected-spam order: clears the mark and queues, in the same transaction, the
 * invoice request's e-mails that have not gone yet (a 'recipient_limit' order's staff alert went
 * at the time; the buyer's confirmation goes now). Card orders held by the honeypot never
 * reached Stripe, and are stored as invoice requests (decision 0012). Null when no such order
 * is held.
 */
export async function releaseOrder(orderId: string): Promise<AdminOrder | null> {
  if (!isUuid(orderId)) return null;
  const released = await db().transaction(async (tx) => {
    const [order] = await tx
      .update(orders)
      .set({ spamReason: null, updatedAt: sql`now()` })
      .where(and(eq(orders.id, orderId), isNotNull(orders.spamReason)))
      .returning();
    if (!order) return null;
    if (order.paymentMethod === "invoice") {
      const students = await studentsOfOrder(tx, order.id);
      const queued = await tx
        .select({ kind: emailOutbox.kind })
        .from(emailOutbox)
        .where(eq(emailOutbox.orderId, order.id));
      const already = new Set(queued.map((q) => q.kind));
      await queueEmails(
        tx,
        invoiceRequestEmails(order, students).filter((m) => !already.has(m.kind)),
      );
    }
    return order;
  });
  if (!released) return null;
  log.info({ orderId }, "suspected-spam order released");
  nudgeOutbox();
  const students = await studentsOf([released.id]);
  return toAdminOrder(released, students.get(released.id) ?? []);
}

/* ------------------------------------------------------------------------------------------ */
/* CSV export                                                                                   */

export const ORDER_CSV_HEADER = [
  "Reference",
  "Order ID",
  "Created (UTC)",
  "Status",
  "Method",
  "Buyer first name",
  "Buyer last name",
  "Buyer email",
  "Buyer phone",
  "Buyer company",
  "Course",
  "Unit price (GBP)",
  "Quantity",
  "Total (GBP)",
  "Currency",
  "Buyer attends",
  "Students",
] as const;

function csvValues(order: OrderRow, students: StudentLike[]): CsvValue[] {
  return [
    orderReference(order.id),
    order.id,
    order.createdAt,
    ORDER_STATUS_LABELS[order.status],
    PAYMENT_METHOD_LABELS[order.paymentMethod],
    order.buyerFirstName,
    order.buyerLastName,
    order.buyerEmail,
    order.buyerPhone,
    order.buyerCompany,
    order.courseTitleSnapshot,
    formatPence(order.unitPriceCents, { plain: true }),
    order.quantity,
    formatPence(order.totalAmountCents, { plain: true }),
    order.currency,
    order.isBuyerStudent ? "Yes" : "No",
    students.map((s) => `${s.firstName} ${s.lastName} <${s.email}>`).join("; "),
  ];
}

/**
 * The orders matching the filters (every page), newest first, as batches of CSV rows, read by
 * keyset so memory stays flat however many orders there are.
 */
export async function* orderCsvRows(
  filters: Omit<OrderFilters, "page">,
  batchSize = 1000,
): AsyncGenerator<CsvValue[][]> {
  const where = filterCondition(filters);
  let afterId: string | null = null;
  for (;;) {
    // Compared with the stored values (microseconds), not a JavaScript Date (milliseconds).
    const cursor: SQL | undefined = afterId
      ? sql`(${orders.createdAt}, ${orders.id}) < (select o.created_at, o.id from orders o where o.id = ${afterId})`
      : undefined;
    const rows = await db()
      .select()
      .from(orders)
      .where(and(where, cursor))
      .orderBy(...NEWEST_FIRST)
      .limit(batchSize);
    if (rows.length === 0) return;
    const students = await studentsOf(rows.map((r) => r.id));
    yield rows.map((r) => csvValues(r, students.get(r.id) ?? []));
    afterId = rows[rows.length - 1]!.id;
    if (rows.length < batchSize) return;
  }
}

/** The CSV download of the Payments screen's current filters. */
export function ordersCsvResponse(filters: Omit<OrderFilters, "page">, fileName: string): Response {
  return csvResponse(fileName, ORDER_CSV_HEADER, orderCsvRows(filters));
}
