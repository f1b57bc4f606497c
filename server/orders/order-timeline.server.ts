import { asc, eq } from "drizzle-orm";
import { formatPence } from "#app/lib/format.ts";
import { ORDER_STATUS_LABELS, type OrderTimelineEntry } from "#app/lib/orders/orders.ts";
import {
  paymentLine,
  type BankRefundMethod,
  type StoredPaymentMethod,
} from "#app/lib/orders/payments.ts";
import { db } from "../db/client.server.ts";
import { emailOutbox } from "../db/schema.ts";
import { eventsOfOrder, type OrderEventRow } from "./events.server.ts";

/**
 * An order's timeline on the admin order page: its recorded events (who did what), each with a
 * line of detail, merged with its e-mails as the outbox holds them (queued, sent, failed), so it
 * shows what really went out, not what was meant to.
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
  payment_moved: "Payment moved with places",
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
  if (
    (event.kind === "payment_received" || event.kind === "payment_moved") &&
    typeof detail.amountCents === "number"
  ) {
    const line = paymentLine({
      amountCents: detail.amountCents,
      receivedOn: text(detail.receivedOn) ?? "",
      method: (text(detail.method) ?? "other") as StoredPaymentMethod,
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
    // A refund paid by bank: told as a payment is, then its credit note and staff's note.
    const line = paymentLine({
      amountCents: Number(detail.amountCents),
      receivedOn: text(detail.refundedOn)!,
      method: detail.method as BankRefundMethod,
      reference: text(detail.reference),
    });
    return [line, text(detail.creditNote), text(detail.note)].filter(Boolean).join(" · ");
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

async function orderMails(orderId: string): Promise<OutboxRow[]> {
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

/** The order's timeline, oldest first. */
export async function orderTimeline(orderId: string): Promise<OrderTimelineEntry[]> {
  const [events, mails] = await Promise.all([eventsOfOrder(orderId), orderMails(orderId)]);
  return mergeTimeline(events, mails);
}
