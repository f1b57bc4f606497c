import { asc, eq } from "drizzle-orm";
import {
  ORDER_NOTE_MAX_LENGTH,
  ORDER_STATUS_LABELS,
  orderDocumentHref,
  orderReference,
  type AdminOrderPage,
  type OrderDocumentKind,
  type OrderTimelineEntry,
} from "#app/lib/orders/orders.ts";
import { formatPence } from "#app/lib/format.ts";
import { londonDate, ukDate } from "#app/lib/admin/time.ts";
import {
  MONEY_METHOD_LABELS,
  paymentLine,
  type BankRefundMethod,
  type PaymentReceivedMethod,
  type ReceivedPayment,
} from "#app/lib/orders/payments.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { emailOutbox, orders } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { documentsOfOrder, type DocumentRow } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { accessDetailsOf, offersAccessDetails } from "./access-details.server.ts";
import { storedBilling } from "./billing.server.ts";
import { eventsOfOrder, recordOrderEvent, type OrderEventRow } from "./events.server.ts";
import { toAdminOrder } from "./admin.server.ts";
import { studentsOfOrders, type OrderRow, type OrderStudent } from "./records.server.ts";
import { dateWhere } from "#app/lib/catalogue/course-dates.ts";
import type { MoveOptions } from "#app/lib/orders/moves.ts";
import { bookedDateOf } from "../catalogue/course-dates.server.ts";
import { holdersOf } from "./booking-rules.server.ts";
import { moveRefusal, moveTargets } from "./moves.server.ts";
import { openMoveRequest } from "./move-requests.server.ts";
import { balanceOf, bankRefundRefusal, paymentsOf } from "./payments.server.ts";

/**
 * The admin order page (decisions 0015, 0016): one order with its buyer, billing details, students,
 * amounts, documents and timeline, and the internal notes admins add to it. The timeline merges the
 * order's recorded events (who did what) with its e-mails as the outbox holds them (queued, sent,
 * failed), so it shows what really went out, not what was meant to.
 */

type OutboxRow = Pick<
  typeof emailOutbox.$inferSelect,
  | "id"
  | "kind"
  | "toAddress"
  | "subject"
  | "status"
  | "attempts"
  | "lastError"
  | "createdAt"
  | "sentAt"
  | "nextAttemptAt"
>;

/** What each recorded event kind is called on the timeline (unknown kinds by their name). */
const EVENT_TITLES: Record<string, string> = {
  created: "Order placed",
  invoiced: `Marked ${ORDER_STATUS_LABELS.invoiced}`,
  paid: `Marked ${ORDER_STATUS_LABELS.paid}`,
  failed: "Payment failed",
  canceled: ORDER_STATUS_LABELS.canceled,
  released: "Released (not spam)",
  invoice_issued: "Invoice issued",
  receipt_issued: "Receipt issued",
  credit_note_issued: "Credit note issued",
  refunded: "Refunded",
  payment_received: "Payment received",
  paid_after_cancellation: "Paid after cancellation",
  moved: "Moved to another date",
  places_moved: "Places moved to another date",
  move_requested: "The booker asked to move places",
  move_declined: "Request to move places declined",
  billing_corrected: "Billing details corrected",
  access_details_sent: "Access details sent",
  student_changed: "Student changed by the booker",
  booking_link_sent: "Booking link sent to the buyer",
  invoice_reminder: "Invoice reminder sent",
  reminders_paused: "Invoice reminders paused",
  reminders_resumed: "Invoice reminders resumed",
  note: "Note",
};

/** The billing details' names, as the timeline lists what a correction changed. */
const BILLING_LABELS: Record<string, string> = {
  organisation: "organisation",
  addressLine1: "address",
  addressLine2: "address",
  town: "town",
  postcode: "postcode",
  country: "country",
  poNumber: "PO number",
  vatNumber: "VAT number",
};

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** The line under an event's title: a note's text, a document's number, a refund's amount. */
function eventDetail(event: OrderEventRow): string | null {
  const detail = event.detail ?? {};
  if (event.kind === "note") return text(detail.text);
  if (event.kind === "billing_corrected" && Array.isArray(detail.changed)) {
    const names = new Set(detail.changed.map((key) => BILLING_LABELS[String(key)] ?? String(key)));
    const reissued = detail.reissued as Record<string, unknown> | undefined;
    const documents = reissued
      ? ` · Invoice ${text(reissued.invoice)} issued in place of ${text(reissued.replaced)} (credited by ${text(reissued.creditNote)})`
      : "";
    return `Changed: ${[...names].join(", ")}${documents}`;
  }
  if (event.kind === "invoice_reminder" && typeof detail.daysAfterDue === "number") {
    const days = detail.daysAfterDue;
    return `${text(detail.number) ?? "Invoice"} · ${days === 0 ? "on the due date" : `${days} ${days === 1 ? "day" : "days"} after the due date`}`;
  }
  if (event.kind === "payment_received" && typeof detail.amountCents === "number") {
    const line = paymentLine({
      amountCents: detail.amountCents,
      receivedOn: text(detail.receivedOn) ?? "",
      method: (text(detail.method) ?? "other") as PaymentReceivedMethod,
      reference: text(detail.reference),
    });
    const balance = typeof detail.balanceCents === "number" ? detail.balanceCents : null;
    const left =
      balance === null
        ? ""
        : balance > 0
          ? ` · ${formatPence(balance)} still owed`
          : balance < 0
            ? ` · overpaid by ${formatPence(-balance)}`
            : " · paid in full";
    return line + left;
  }
  if (event.kind === "refunded" && text(detail.method) && text(detail.refundedOn)) {
    const how = MONEY_METHOD_LABELS[detail.method as BankRefundMethod] ?? "Other";
    const ref = text(detail.reference) ? ` (ref ${text(detail.reference)})` : "";
    const parts = [
      `${formatPence(Number(detail.amountCents))} by ${how.toLowerCase()} on ${ukDate(String(detail.refundedOn))}${ref}`,
      text(detail.creditNote),
      text(detail.note),
    ].filter(Boolean);
    return parts.join(" · ");
  }
  if (event.kind === "access_details_sent" && typeof detail.position === "number") {
    return `Place ${detail.position} · ${detail.emailed ? "by e-mail" : "recorded as sent another way"}`;
  }
  const parts: string[] = [];
  const number = text(detail.number) ?? text(detail.documentNumber);
  if (number) parts.push(number);
  const amount = detail.amountCents;
  if (typeof amount === "number" && Number.isFinite(amount)) parts.push(formatPence(amount));
  const reason = text(detail.reason) ?? text(detail.cancelReason);
  if (reason) parts.push(reason);
  if (event.kind === "canceled" && typeof detail.notifyBuyer === "boolean") {
    parts.push(detail.notifyBuyer ? "Buyer notified by e-mail" : "Buyer not notified");
  }
  return parts.length ? parts.join(" · ") : null;
}

function eventEntry(event: OrderEventRow): OrderTimelineEntry {
  return {
    key: `event:${event.id}`,
    at: event.createdAt.toISOString(),
    kind: event.kind,
    title: EVENT_TITLES[event.kind] ?? event.kind.replace(/_/g, " "),
    detail: eventDetail(event),
    actor: event.actor,
  };
}

/** An e-mail's lines: queued (with the order's change), then sent or failed. */
function emailEntries(mail: OutboxRow): OrderTimelineEntry[] {
  const what = `“${mail.subject}” to ${mail.toAddress}`;
  const entries: OrderTimelineEntry[] = [
    {
      key: `email:${mail.id}:queued`,
      at: mail.createdAt.toISOString(),
      kind: "email_queued",
      title: "E-mail queued",
      detail: what,
      actor: null,
    },
  ];
  if (mail.status === "sent" && mail.sentAt) {
    entries.push({
      key: `email:${mail.id}:sent`,
      at: mail.sentAt.toISOString(),
      kind: "email_sent",
      title: "E-mail sent",
      detail: what,
      actor: null,
    });
  } else if (mail.status === "failed") {
    entries.push({
      key: `email:${mail.id}:failed`,
      // The worker keeps no failure time: the last attempt was made at its scheduled time.
      at: mail.nextAttemptAt.toISOString(),
      kind: "email_failed",
      title: `E-mail failed after ${mail.attempts} ${mail.attempts === 1 ? "attempt" : "attempts"}`,
      detail: mail.lastError ? `${what}: ${mail.lastError}` : what,
      actor: null,
    });
  } else if (mail.lastError) {
    entries.push({
      key: `email:${mail.id}:retrying`,
      at: mail.nextAttemptAt.toISOString(),
      kind: "email_retrying",
      title: "E-mail not sent yet, will retry",
      detail: `${what}: ${mail.lastError}`,
      actor: null,
    });
  }
  return entries;
}

/**
 * How far apart an e-mail's queueing and the event of the same transaction may be stamped: the
 * outbox stamps a row with the transaction's start (now()), the event with the clock
 * (clock_timestamp()), so the e-mail an event caused looks a little older than the event.
 */
const SAME_TRANSACTION_MS = 1000;

/**
 * Events and e-mails in the order they happened: an e-mail queued by a change is shown just after
 * the event of that change (the first event stamped at most a second after the e-mail's
 * transaction began), then sends and failures at their own times.
 */
export function mergeTimeline(events: OrderEventRow[], mails: OutboxRow[]): OrderTimelineEntry[] {
  const eventEntries = events.map(eventEntry);
  const eventTimes = eventEntries.map((e) => Date.parse(e.at)).sort((a, b) => a - b);
  const sortTime = (entry: OrderTimelineEntry) => {
    const at = Date.parse(entry.at);
    if (entry.kind !== "email_queued") return at;
    const cause = eventTimes.find((t) => t >= at && t - at <= SAME_TRANSACTION_MS);
    return cause ?? at;
  };
  const entries = [...eventEntries, ...mails.flatMap(emailEntries)];
  const rank = (entry: OrderTimelineEntry) => (entry.key.startsWith("event:") ? 0 : 1);
  return entries
    .map((entry, index) => ({ entry, index, time: sortTime(entry) }))
    .sort((a, b) => a.time - b.time || rank(a.entry) - rank(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
}

function documentLink(document: DocumentRow) {
  return {
    id: document.id,
    kind: document.kind as OrderDocumentKind,
    number: document.number,
    issuedAt: document.issuedAt.toISOString(),
    totalCents: document.totalAmountCents,
    issuedBy: document.issuedBy,
    href: orderDocumentHref(document.orderId, document.id),
  };
}

function orderMails(orderId: string): Promise<OutboxRow[]> {
  return db()
    .select({
      id: emailOutbox.id,
      kind: emailOutbox.kind,
      toAddress: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      status: emailOutbox.status,
      attempts: emailOutbox.attempts,
      lastError: emailOutbox.lastError,
      createdAt: emailOutbox.createdAt,
      sentAt: emailOutbox.sentAt,
      nextAttemptAt: emailOutbox.nextAttemptAt,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.orderId, orderId))
    .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id));
}

/**
 * The invoice prints the billing details: before it is issued they are edited; after, an unpaid
 * invoice never credited is corrected by re-issuing it (decision 0015); else they stay as they
 * were.
 */
function correctableBilling(
  order: OrderRow,
  documents: DocumentRow[],
): AdminOrderPage["billingForm"] {
  if (order.anonymisedAt !== null) return null;
  const replaced = new Set(documents.map((d) => d.replacesDocumentId));
  const invoice = documents.find((d) => d.kind === "invoice" && !replaced.has(d.id));
  if (!invoice) return { stored: storedBilling(order), reissues: null };
  const credited = documents.some((d) => d.creditsDocumentId === invoice.id);
  return order.paymentMethod === "invoice" && order.status === "invoiced" && !credited
    ? { stored: storedBilling(order), reissues: invoice.number }
    : null;
}

function pageOf(
  order: OrderRow,
  students: OrderStudent[],
  documents: DocumentRow[],
  events: OrderEventRow[],
  mails: OutboxRow[],
  access: AdminOrderPage["access"],
  booked: Pick<AdminOrderPage, "date" | "move" | "moveRequest">,
  received: ReceivedPayment[] | null,
): AdminOrderPage {
  return {
    order: toAdminOrder(order, students),
    billing: {
      organisation: order.billingOrganisation,
      addressLines: [order.billingAddressLine1, order.billingAddressLine2].filter(
        (line): line is string => Boolean(line),
      ),
      town: order.billingTown,
      postcode: order.billingPostcode,
      country: order.billingCountry,
      poNumber: order.poNumber,
      vatNumber: order.buyerVatNumber,
    },
    amounts: {
      unitPriceCents: order.unitPriceCents,
      quantity: order.quantity,
      netCents: order.netAmountCents,
      vatCents: order.vatAmountCents,
      vatRateBasisPoints: order.vatRateBasisPoints,
      pricesIncludeVat: order.pricesIncludeVat,
      totalCents: order.totalAmountCents,
      refundedCents: order.refundedAmountCents,
      currency: order.currency,
    },
    refundable:
      order.paymentMethod === "stripe" &&
      (order.status === "paid" || order.paidAfterCancellationAt !== null) &&
      // A payment from before the PaymentIntent was stored is found through its session.
      (order.stripePaymentIntentId !== null || order.stripeCheckoutSessionId !== null) &&
      order.refundedAmountCents < order.totalAmountCents,
    paidAfterCancellationAt: order.paidAfterCancellationAt?.toISOString() ?? null,
    payments: received
      ? {
          received,
          receivedCents: order.receivedAmountCents,
          balanceCents: balanceOf(order),
          recordable: order.status === "invoiced" || order.status === "paid",
        }
      : null,
    today: londonDate(),
    bankRefundableCents: bankRefundRefusal(order)
      ? null
      : order.totalAmountCents - order.refundedAmountCents,
    billingForm: correctableBilling(order, documents),
    access,
    documents: documents.map(documentLink),
    timeline: mergeTimeline(events, mails),
    ...booked,
  };
}

/** The order's date, and the dates with room its places could move to (decision 0038). */
async function bookedAndMoves(
  order: OrderRow,
): Promise<Pick<AdminOrderPage, "date" | "move" | "moveRequest">> {
  const from = await bookedDateOf(db(), order.courseDateId);
  if (!from) return { date: null, move: null, moveRequest: null };
  const date = {
    startsAt: from.startsAt.toISOString(),
    endsAt: from.endsAt.toISOString(),
    where: dateWhere(from),
    cancelled: from.state === "cancelled",
  };
  const refusal = moveRefusal(order, from, new Date());
  if (refusal) return { date, move: { open: false, reason: refusal }, moveRequest: null };
  const [targets, holders, moveRequest] = await Promise.all([
    moveTargets(db(), order),
    holdersOf(db(), order),
    openMoveRequest(db(), order),
  ]);
  const move: MoveOptions = {
    open: true,
    targets,
    places: Array.from({ length: order.quantity }, (_, i) => {
      const holder = holders.get(i + 1);
      return { position: i + 1, name: holder ? `${holder.firstName} ${holder.lastName}` : null };
    }),
  };
  return { date, move, moveRequest };
}

/** Everything the order page shows, or null when there is no such order (or the id is not one). */
export async function orderPage(orderId: string): Promise<AdminOrderPage | null> {
  if (!isUuid(orderId)) return null;
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  if (!order) return null;
  const [students, documents, events, mails, access, booked, received] = await Promise.all([
    studentsOfOrders([order.id]),
    documentsOfOrder(order.id),
    eventsOfOrder(order.id),
    orderMails(order.id),
    offersAccessDetails(order) ? accessDetailsOf(order.id) : null,
    bookedAndMoves(order),
    order.paymentMethod === "invoice" ? paymentsOf(order.id) : null,
  ]);
  return pageOf(
    order,
    students.get(order.id) ?? [],
    documents,
    events,
    mails,
    access,
    booked,
    received,
  );
}

export type AddNoteResult =
  | { ok: true }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "invalid"; message: string };

/**
 * An admin's internal note on an order, kept as an order event of kind 'note' with its text and
 * the admin's e-mail. The text was checked by the form's schema; it is checked again here (the
 * rule that counts): non-empty once trimmed, at most ORDER_NOTE_MAX_LENGTH characters.
 */
export async function addOrderNote(
  orderId: string,
  text: string,
  admin: AuditActor,
): Promise<AddNoteResult> {
  const note = text.trim();
  if (note.length === 0) return { ok: false, reason: "invalid", message: "empty" };
  if (note.length > ORDER_NOTE_MAX_LENGTH) {
    return { ok: false, reason: "invalid", message: "too long" };
  }
  if (!isUuid(orderId)) return { ok: false, reason: "not_found" };
  const added = await db().transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
    if (!order) return false;
    await recordOrderEvent(tx, order.id, "note", admin.email, { text: note });
    await recordAudit(tx, admin, {
      action: "order.note",
      subjectType: "order",
      subjectId: order.id,
      summary: orderReference(order.id),
      after: { note },
    });
    return true;
  });
  if (!added) return { ok: false, reason: "not_found" };
  log.info({ orderId }, "order note added");
  return { ok: true };
}
