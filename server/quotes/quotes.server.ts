import * as orm from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { formatPence } from "#app/lib/format.ts";
import { lineAmounts } from "#app/lib/orders/vat.ts";
import { VAT_TREATMENT_WORDING, type Supply } from "#app/lib/orders/place-of-supply.ts";
import {
  quoteLinesOf,
  type AdminQuotePage,
  type QuoteForm,
  type QuoteStatus,
} from "#app/lib/quotes/quotes.ts";
import { auditSnapshot, recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { inquiries, inquiryNotes, quotes } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderQuoteSent } from "../email/templates/quote.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { allocateDocumentNumber, sellerOf } from "../invoices/documents.server.ts";
import { log } from "../log.server.ts";
import { MAX_TOTAL_CENTS, vatTreatmentFor } from "../orders/pricing.server.ts";
import { quoteUrl } from "./links.server.ts";
import type { QuoteSnapshot } from "./snapshot.server.ts";

/**
 * Quotes built by staff (decision 0049): a draft is edited freely; sending it numbers it
 * (Q-YYYY-NNNN, from the same gapless sequences as invoices), fixes what it prints as a snapshot
 * and e-mails it with its PDF and the link where the customer accepts or declines it; a revision
 * is a new draft that supersedes the sent quote once it is sent in turn. Each change is audited,
 * and a quote made from an enquiry is noted on the enquiry's page. The customer's side:
 * acceptance.server.ts.
 */

export type QuoteRow = typeof quotes.$inferSelect;

/** The customer's answer, as the admin page and the customer's page show it. */
export function quoteAnswer(q: QuoteRow): Pick<AdminQuotePage, "accepted" | "declined"> {
  return {
    accepted:
      q.acceptedAt && q.acceptedName
        ? {
            at: q.acceptedAt.toISOString(),
            name: q.acceptedName,
            role: q.acceptedRole ?? "",
            poNumber: q.poNumber,
          }
        : null,
    declined: q.declinedAt ? { at: q.declinedAt.toISOString(), reason: q.declineReason } : null,
  };
}

/** VAT and totals of a quote's lines, by place of supply; prices are net of VAT. */
export function quoteAmounts(
  lines: { quantity: number; unitNetCents: number }[],
  supply: Supply,
  billing: { country: string | null; vatNumber: string | null },
) {
  const treatment = vatTreatmentFor(supply, billing);
  const rateBasisPoints = treatment === "uk_vat" ? config.seller.vat.rateBasisPoints : 0;
  const net = lines.reduce((sum, l) => sum + l.quantity * l.unitNetCents, 0);
  const amounts = lineAmounts(net, { rateBasisPoints, pricesIncludeVat: false });
  return {
    vatTreatment: treatment,
    vatRateBasisPoints: rateBasisPoints,
    netCents: amounts.netCents,
    vatCents: amounts.vatCents,
    totalCents: amounts.totalCents,
  };
}

/** A note on the quote's enquiry, so its page tells the story (from the actor, or the customer). */
export async function noteOnInquiry(
  tx: Transaction,
  inquiryId: string | null,
  body: string,
  actor: AuditActor | null,
) {
  if (!inquiryId) return;
  await tx.insert(inquiryNotes).values({
    inquiryId,
    authorId: actor?.id ?? null,
    author: actor?.email ?? "the customer",
    body,
  });
}

export type SaveQuoteResult =
  | { ok: true; id: string }
  | { ok: false; reason: "not_found" | "not_draft" | "too_large" | "no_inquiry" };

/** Creates a draft, or changes one (only a draft changes). */
export async function saveQuoteDraft(
  form: QuoteForm,
  id: string | null,
  actor: AuditActor,
): Promise<SaveQuoteResult> {
  const lines = quoteLinesOf(form);
  const billing = { country: form.country, vatNumber: form.vatNumber };
  const amounts = quoteAmounts(lines, form.supply, billing);
  if (amounts.totalCents > MAX_TOTAL_CENTS) return { ok: false, reason: "too_large" };
  const fields = {
    organisation: form.organisation,
    contactName: form.contactName,
    contactEmail: form.contactEmail,
    addressLine1: form.addressLine1,
    addressLine2: form.addressLine2,
    town: form.town,
    postcode: form.postcode,
    country: form.country,
    vatNumber: form.vatNumber,
    supply: form.supply,
    lines,
    validUntil: form.validUntil,
    terms: form.terms,
    licenceSeats: form.licenceSeats ? Number(form.licenceSeats) : null,
    licenceStartsOn: form.licenceSeats ? form.licenceStartsOn : null,
    ...amounts,
  };
  return db().transaction(async (tx): Promise<SaveQuoteResult> => {
    if (!id) {
      const inquiryId = form.inquiryId && isUuid(form.inquiryId) ? form.inquiryId : null;
      if (form.inquiryId && !inquiryId) return { ok: false, reason: "no_inquiry" };
      if (inquiryId) {
        const [inquiry] = await tx
          .select({ id: inquiries.id })
          .from(inquiries)
          .where(orm.eq(inquiries.id, inquiryId));
        if (!inquiry) return { ok: false, reason: "no_inquiry" };
      }
      const [added] = await tx
        .insert(quotes)
        .values({ ...fields, inquiryId, createdBy: actor.email })
        .returning();
      await recordAudit(tx, actor, {
        action: "quote.create",
        subjectType: "quote",
        subjectId: added!.id,
        summary: form.organisation,
        after: { organisation: form.organisation, totalCents: amounts.totalCents, inquiryId },
      });
      return { ok: true, id: added!.id };
    }
    if (!isUuid(id)) return { ok: false, reason: "not_found" };
    const [before] = await tx.select().from(quotes).where(orm.eq(quotes.id, id)).for("update");
    if (!before) return { ok: false, reason: "not_found" };
    if (before.status !== "draft") return { ok: false, reason: "not_draft" };
    await tx
      .update(quotes)
      .set({ ...fields, updatedAt: new Date() })
      .where(orm.eq(quotes.id, id));
    await recordAudit(tx, actor, {
      action: "quote.update",
      subjectType: "quote",
      subjectId: id,
      summary: form.organisation,
      before: { totalCents: before.totalCents },
      after: { totalCents: amounts.totalCents },
    });
    return { ok: true, id };
  });
}

/** Deletes a draft (a sent quote is kept: it was given to a customer). */
export async function deleteQuoteDraft(id: string, actor: AuditActor): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db().transaction(async (tx) => {
    const [gone] = await tx
      .delete(quotes)
      .where(orm.and(orm.eq(quotes.id, id), orm.eq(quotes.status, "draft")))
      .returning();
    if (!gone) return false;
    await recordAudit(tx, actor, {
      action: "quote.delete",
      subjectType: "quote",
      subjectId: id,
      summary: gone.organisation,
      before: auditSnapshot(gone, ["organisation", "contactEmail", "totalCents"]),
    });
    return true;
  });
}

function addressLines(q: QuoteRow): string[] {
  return [q.addressLine1, q.addressLine2, q.town, q.postcode, q.country].filter((v): v is string =>
    Boolean(v),
  );
}

function snapshotOf(q: QuoteRow, number: string, sentAt: Date, replaced: QuoteRow | null) {
  const seller = config.seller;
  const vatRegistered = seller.vat.rateBasisPoints > 0 || Boolean(seller.vatNumber);
  const snapshot: QuoteSnapshot = {
    number,
    title: "Quotation",
    issuedAt: sentAt.toISOString(),
    validUntil: q.validUntil,
    currency: "GBP",
    vatRegistered,
    seller: { ...sellerOf(seller), email: null },
    customer: {
      organisation: q.organisation,
      name: q.contactName,
      email: q.contactEmail,
      addressLines: addressLines(q),
      vatNumber: q.vatNumber,
    },
    lines: q.lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitNetCents: l.unitNetCents,
      netCents: l.quantity * l.unitNetCents,
    })),
    vatRateBasisPoints: q.vatRateBasisPoints,
    netCents: q.netCents,
    vatCents: q.vatCents,
    totalCents: q.totalCents,
    vatNote: vatRegistered
      ? VAT_TREATMENT_WORDING[q.vatTreatment as keyof typeof VAT_TREATMENT_WORDING]
      : null,
    terms: q.terms,
    acceptUrl: quoteUrl(q.id, q.validUntil),
    supersedes:
      replaced?.number && replaced.sentAt
        ? { number: replaced.number, issuedAt: replaced.sentAt.toISOString() }
        : null,
  };
  return snapshot;
}

export type SendQuoteResult =
  { ok: true; number: string } | { ok: false; reason: "not_found" | "not_draft" | "past_validity" };

/**
 * "Send": numbers the draft, fixes its snapshot, marks the quote it revises superseded, and
 * queues the e-mail with its PDF and link, all in one transaction. A draft whose last valid day
 * has passed is refused (change the date first).
 */
export async function sendQuote(
  id: string,
  actor: AuditActor,
  now: Date = new Date(),
  today: string = londonDate(now),
): Promise<SendQuoteResult> {
  if (!isUuid(id)) return { ok: false, reason: "not_found" };
  const result = await db().transaction(async (tx): Promise<SendQuoteResult> => {
    const [draft] = await tx.select().from(quotes).where(orm.eq(quotes.id, id)).for("update");
    if (!draft) return { ok: false, reason: "not_found" };
    if (draft.status !== "draft") return { ok: false, reason: "not_draft" };
    if (draft.validUntil < today) return { ok: false, reason: "past_validity" };
    const [replaced] = draft.supersedesId
      ? await tx.select().from(quotes).where(orm.eq(quotes.id, draft.supersedesId)).for("update")
      : [];
    const number = await allocateDocumentNumber(tx, "Q", now.getUTCFullYear());
    const snapshot = snapshotOf(draft, number, now, replaced ?? null);
    await tx
      .update(quotes)
      .set({ status: "sent", number, snapshot, sentAt: now, updatedAt: now })
      .where(orm.eq(quotes.id, id));
    if (replaced && replaced.status === "sent") {
      await tx
        .update(quotes)
        .set({ status: "superseded", updatedAt: now })
        .where(orm.eq(quotes.id, replaced.id));
    }
    const email = renderQuoteSent(snapshot);
    await queueEmails(tx, [
      {
        kind: "quote",
        to: draft.contactEmail,
        replyTo: actor.email,
        quoteId: id,
        inquiryId: draft.inquiryId,
        ...email,
      },
    ]);
    await noteOnInquiry(
      tx,
      draft.inquiryId,
      `Quote ${number} sent to ${draft.contactEmail}: ${formatPence(draft.totalCents)}, valid until ${draft.validUntil}.`,
      actor,
    );
    await recordAudit(tx, actor, {
      action: "quote.send",
      subjectType: "quote",
      subjectId: id,
      summary: number,
      before: { status: "draft" },
      after: {
        status: "sent",
        number,
        totalCents: draft.totalCents,
        ...(replaced ? { supersedes: replaced.number } : {}),
      },
    });
    return { ok: true, number };
  });
  if (result.ok) {
    log.info({ quoteId: id, number: result.number }, "quote sent");
    nudgeOutbox();
  }
  return result;
}

export type ReviseResult =
  { ok: true; id: string } | { ok: false; reason: "not_found" | "not_revisable" };

/**
 * "Revise": a new draft with the same customer, lines and terms, which supersedes this quote
 * when it is sent. Only a quote still open or turned down is revised: not a draft or an
 * accepted one.
 */
export async function reviseQuote(id: string, actor: AuditActor): Promise<ReviseResult> {
  if (!isUuid(id)) return { ok: false, reason: "not_found" };
  return db().transaction(async (tx): Promise<ReviseResult> => {
    const [quote] = await tx.select().from(quotes).where(orm.eq(quotes.id, id));
    if (!quote) return { ok: false, reason: "not_found" };
    const revisable: QuoteStatus[] = ["sent", "expired", "declined"];
    if (!revisable.includes(quote.status)) return { ok: false, reason: "not_revisable" };
    const {
      id: _id,
      number: _number,
      status: _status,
      snapshot: _snapshot,
      sentAt: _sentAt,
      acceptedAt: _a,
      acceptedName: _n,
      acceptedRole: _r,
      poNumber: _p,
      declinedAt: _d,
      declineReason: _dr,
      orderId: _o,
      createdAt: _c,
      updatedAt: _u,
      ...kept
    } = quote;
    const [draft] = await tx
      .insert(quotes)
      .values({ ...kept, supersedesId: quote.id, createdBy: actor.email })
      .returning({ id: quotes.id });
    await recordAudit(tx, actor, {
      action: "quote.revise",
      subjectType: "quote",
      subjectId: draft!.id,
      summary: quote.number ?? quote.organisation,
      after: { supersedes: quote.number },
    });
    return { ok: true, id: draft!.id };
  });
}
