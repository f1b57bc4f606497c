import * as orm from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import { quoteHref, type QuoteStatus } from "#app/lib/quotes/quotes.ts";
import { recordAudit } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { orders, quotes } from "../db/schema.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderQuoteOutcome } from "../email/templates/quote.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { licenceFromQuote } from "../licences/licences.server.ts";
import { transitionInTransaction } from "../orders/state-machine.server.ts";
import { readQuoteToken } from "./links.server.ts";
import { noteOnInquiry, quoteAnswer, type QuoteRow } from "./quotes.server.ts";
import type { QuoteSnapshot } from "./snapshot.server.ts";

/**
 * The customer's side of a quote (decision 0049), reached by its signed link: the quote as sent,
 * "Accept" with their name, role and PO number, or "Decline" with a reason. Acceptance makes one
 * invoice order from the quote — its lines as the order's description, its totals and VAT, the
 * PO carried over — and invoices it at once through the order state machine, in the transaction
 * that marks the quote accepted; the quote's row lock makes a second acceptance (a double post,
 * two tabs) find it accepted and make nothing. A quote past its last valid day is expired.
 */

/** What the customer's page shows. */
export interface CustomerQuote {
  status: QuoteStatus;
  snapshot: QuoteSnapshot;
  accepted: { at: string; name: string; role: string; poNumber: string | null } | null;
  declined: { at: string; reason: string | null } | null;
}

export type QuoteLinkRefusal = { ok: false; reason: "invalid" | "expired_link" | "not_found" };

/** Sent and past its last valid day (UK): expired, whether or not the hourly pass has said so. */
function effectiveStatus(q: QuoteRow, today: string): QuoteStatus {
  return q.status === "sent" && q.validUntil < today ? "expired" : q.status;
}

function viewOf(q: QuoteRow, today: string): CustomerQuote {
  return {
    status: effectiveStatus(q, today),
    snapshot: q.snapshot as QuoteSnapshot,
    ...quoteAnswer(q),
  };
}

async function quoteOfLink(
  token: string,
  now: Date,
  tx?: Transaction,
): Promise<{ ok: true; quote: QuoteRow } | QuoteLinkRefusal> {
  const link = readQuoteToken(token, now);
  if (!link.ok)
    return { ok: false, reason: link.reason === "expired" ? "expired_link" : "invalid" };
  const query = (tx ?? db()).select().from(quotes).where(orm.eq(quotes.id, link.id));
  const [quote] = tx ? await query.for("update") : await query;
  // A draft has no link; one deleted since has nothing to show.
  if (!quote || quote.status === "draft" || !quote.snapshot)
    return { ok: false, reason: "not_found" };
  return { ok: true, quote };
}

export async function customerQuote(
  token: string,
  now: Date = new Date(),
): Promise<{ ok: true; quote: CustomerQuote } | QuoteLinkRefusal> {
  const found = await quoteOfLink(token, now);
  return found.ok ? { ok: true, quote: viewOf(found.quote, londonDate(now)) } : found;
}

export interface Acceptance {
  name: string;
  role: string;
  poNumber: string | null;
}

export type AnswerResult =
  | { ok: true; quote: CustomerQuote; orderReference?: string }
  | QuoteLinkRefusal
  /** Not open any more: the quote's state says why (accepted, declined, expired, superseded). */
  | { ok: false; reason: "closed"; quote: CustomerQuote };

/** The order an accepted quote makes: one line naming the quote, its totals, invoice terms. */
async function orderFromQuote(tx: Transaction, q: QuoteRow, a: Acceptance, number: string) {
  const [first = q.contactName, ...rest] = q.contactName.split(/\s+/);
  const summary = q.lines.map((l) => `${l.quantity} × ${l.description}`).join("; ");
  const description = `Quotation ${number}: ${summary}`;
  const [order] = await tx
    .insert(orders)
    .values({
      status: "pending",
      paymentMethod: "invoice",
      buyerFirstName: first,
      buyerLastName: rest.join(" "),
      buyerEmail: q.contactEmail,
      buyerCompany: q.organisation,
      billingOrganisation: q.organisation,
      billingAddressLine1: q.addressLine1,
      billingAddressLine2: q.addressLine2,
      billingTown: q.town,
      billingPostcode: q.postcode,
      billingCountry: q.country,
      buyerVatNumber: q.vatNumber,
      poNumber: a.poNumber,
      termsAcceptedAt: new Date(),
      courseTitleSnapshot: description.length > 500 ? `${description.slice(0, 499)}…` : description,
      isBuyerStudent: false,
      unitPriceCents: q.netCents,
      quantity: 1,
      netAmountCents: q.netCents,
      vatAmountCents: q.vatCents,
      totalAmountCents: q.totalCents,
      vatRateBasisPoints: q.vatRateBasisPoints,
      pricesIncludeVat: false,
      vatTreatment: q.vatTreatment,
    })
    .returning();
  await transitionInTransaction(tx, order!.id, "invoiced", { source: "quote", actor: "buyer" });
  return order!;
}

function staffAlert(q: QuoteRow, outcome: Parameters<typeof renderQuoteOutcome>[0]) {
  return {
    kind: "quote_outcome",
    to: config.adminEmails,
    replyTo: q.contactEmail,
    inquiryId: q.inquiryId,
    ...renderQuoteOutcome(outcome),
  };
}

/**
 * "Accept": makes the order and its invoice (e-mailed to the customer by the state machine),
 * tells staff, and notes it on the enquiry. Accepting an accepted quote again answers as the
 * first acceptance did and makes nothing.
 */
export async function acceptQuote(
  token: string,
  acceptance: Acceptance,
  now: Date = new Date(),
): Promise<AnswerResult> {
  const today = londonDate(now);
  const result = await db().transaction(async (tx): Promise<AnswerResult & { made?: boolean }> => {
    const found = await quoteOfLink(token, now, tx);
    if (!found.ok) return found;
    const q = found.quote;
    if (q.status === "accepted") return { ok: true, quote: viewOf(q, today) };
    const status = effectiveStatus(q, today);
    if (status !== "sent") {
      if (status !== q.status) {
        await tx.update(quotes).set({ status, updatedAt: now }).where(orm.eq(quotes.id, q.id));
      }
      return { ok: false, reason: "closed", quote: viewOf({ ...q, status }, today) };
    }
    const number = q.number!;
    const order = await orderFromQuote(tx, q, acceptance, number);
    // A licence quote puts its licences on the register (decision 0050).
    const licence = await licenceFromQuote(tx, q, order.id, now);
    const [accepted] = await tx
      .update(quotes)
      .set({
        status: "accepted",
        acceptedAt: now,
        acceptedName: acceptance.name,
        acceptedRole: acceptance.role,
        poNumber: acceptance.poNumber,
        orderId: order.id,
        updatedAt: now,
      })
      .where(orm.eq(quotes.id, q.id))
      .returning();
    const reference = orderReference(order.id);
    await queueEmails(tx, [
      staffAlert(q, {
        number,
        organisation: q.organisation,
        contactEmail: q.contactEmail,
        totalCents: q.totalCents,
        accepted: { ...acceptance, orderReference: reference },
        adminUrl: `${config.publicUrl}${quoteHref(q.id)}`,
      }),
    ]);
    await noteOnInquiry(
      tx,
      q.inquiryId,
      `Quote ${number} accepted online by ${acceptance.name} (${acceptance.role})${acceptance.poNumber ? `, PO ${acceptance.poNumber}` : ""}: order ${reference} invoiced.${licence ? ` Licence ${licence.reference} on the register.` : ""}`,
      null,
    );
    await recordAudit(tx, null, {
      action: "quote.accept",
      subjectType: "quote",
      subjectId: q.id,
      summary: number,
      before: { status: "sent" },
      after: { status: "accepted", ...acceptance, order: reference },
    });
    return { ok: true, quote: viewOf(accepted!, today), orderReference: reference, made: true };
  });
  if (result.ok && result.made) {
    log.info({ quoteId: result.quote.snapshot.number }, "quote accepted");
    nudgeOutbox();
  }
  return result;
}

/** "Decline": records why (if said), tells staff and notes it on the enquiry. */
export async function declineQuote(
  token: string,
  reason: string | null,
  now: Date = new Date(),
): Promise<AnswerResult> {
  const today = londonDate(now);
  const result = await db().transaction(async (tx): Promise<AnswerResult & { made?: boolean }> => {
    const found = await quoteOfLink(token, now, tx);
    if (!found.ok) return found;
    const q = found.quote;
    if (q.status === "declined") return { ok: true, quote: viewOf(q, today) };
    const status = effectiveStatus(q, today);
    if (status !== "sent") return { ok: false, reason: "closed", quote: viewOf(q, today) };
    const [declined] = await tx
      .update(quotes)
      .set({ status: "declined", declinedAt: now, declineReason: reason, updatedAt: now })
      .where(orm.eq(quotes.id, q.id))
      .returning();
    await queueEmails(tx, [
      staffAlert(q, {
        number: q.number!,
        organisation: q.organisation,
        contactEmail: q.contactEmail,
        totalCents: q.totalCents,
        declined: { reason },
        adminUrl: `${config.publicUrl}${quoteHref(q.id)}`,
      }),
    ]);
    await noteOnInquiry(
      tx,
      q.inquiryId,
      `Quote ${q.number} declined online${reason ? `: ${reason}` : "."}`,
      null,
    );
    await recordAudit(tx, null, {
      action: "quote.decline",
      subjectType: "quote",
      subjectId: q.id,
      summary: q.number!,
      before: { status: "sent" },
      after: { status: "declined", reason },
    });
    return { ok: true, quote: viewOf(declined!, today), made: true };
  });
  if (result.ok && result.made) nudgeOutbox();
  return result;
}

/** The hourly pass: quotes sent and past their last valid day are marked expired. */
export async function expireQuotes(now: Date = new Date()): Promise<number> {
  const rows = await db()
    .update(quotes)
    .set({ status: "expired", updatedAt: now })
    .where(orm.and(orm.eq(quotes.status, "sent"), orm.lt(quotes.validUntil, londonDate(now))))
    .returning({ id: quotes.id });
  return rows.length;
}
