import * as orm from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import { orderReference } from "#app/lib/orders/orders.ts";
import {
  DEFAULT_QUOTE_TERMS,
  QUOTE_VALID_DAYS,
  quoteHref,
  type AdminQuotePage,
  type AdminQuoteRow,
  type QuoteEditorValues,
  type QuoteStatus,
} from "#app/lib/quotes/quotes.ts";
import { db } from "../db/client.server.ts";
import { inquiries, quotes } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { quoteUrl } from "./links.server.ts";
import { quoteAnswer, type QuoteRow } from "./quotes.server.ts";

/**
 * The quote screens' reads (decision 0049): the list, one quote's page, and the editor's values
 * for a draft or a new quote (from its enquiry). The changes: quotes.server.ts.
 */

/** A quote as the list and its page head show it. */
function adminQuoteRow(q: QuoteRow): AdminQuoteRow {
  return {
    id: q.id,
    number: q.number,
    status: q.status,
    organisation: q.organisation,
    contactName: q.contactName,
    contactEmail: q.contactEmail,
    totalCents: q.totalCents,
    validUntil: q.validUntil,
    createdAt: q.createdAt.toISOString(),
    sentAt: q.sentAt?.toISOString() ?? null,
  };
}

/** The admin list: newest first, by status or all. */
export async function listQuotes(status: QuoteStatus | "all"): Promise<AdminQuoteRow[]> {
  const rows = await db()
    .select()
    .from(quotes)
    .where(status === "all" ? undefined : orm.eq(quotes.status, status))
    .orderBy(orm.desc(quotes.createdAt), orm.desc(quotes.id))
    .limit(200);
  return rows.map(adminQuoteRow);
}

/** One quote by id, for its admin page; null for anything that names none. */
export async function findQuote(id: string): Promise<QuoteRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db().select().from(quotes).where(orm.eq(quotes.id, id));
  return row ?? null;
}

function pounds(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A draft's values as the editor shows them. */
export function editorValuesOf(q: QuoteRow): QuoteEditorValues {
  return {
    inquiryId: q.inquiryId,
    organisation: q.organisation,
    contactName: q.contactName,
    contactEmail: q.contactEmail,
    addressLine1: q.addressLine1 ?? "",
    addressLine2: q.addressLine2 ?? "",
    town: q.town ?? "",
    postcode: q.postcode ?? "",
    country: q.country ?? "",
    vatNumber: q.vatNumber ?? "",
    supply: q.supply,
    validUntil: q.validUntil,
    terms: q.terms,
    lines: q.lines.map((l) => ({
      description: l.description,
      quantity: String(l.quantity),
      unitPrice: pounds(l.unitNetCents),
    })),
    licenceSeats: q.licenceSeats ? String(q.licenceSeats) : "",
    licenceStartsOn: q.licenceStartsOn ?? "",
  };
}

/**
 * A new quote's values: its enquiry's person and organisation when made from one (a licence
 * enquiry starts with a licence line), valid for QUOTE_VALID_DAYS, the default terms.
 */
export async function newQuoteValues(
  inquiryId: string | null,
  now: Date = new Date(),
): Promise<QuoteEditorValues> {
  const [inquiry] =
    inquiryId && isUuid(inquiryId)
      ? await db().select().from(inquiries).where(orm.eq(inquiries.id, inquiryId))
      : [];
  const validUntil = londonDate(new Date(now.getTime() + QUOTE_VALID_DAYS * 86_400_000));
  return {
    inquiryId: inquiry?.id ?? null,
    organisation: inquiry?.company ?? "",
    contactName: inquiry?.name ?? "",
    contactEmail: inquiry?.email ?? "",
    addressLine1: "",
    addressLine2: "",
    town: "",
    postcode: "",
    country: "",
    vatNumber: "",
    supply: inquiry?.inquiryType === "training" ? "classroom" : "on_demand",
    validUntil,
    terms: DEFAULT_QUOTE_TERMS,
    lines:
      inquiry?.inquiryType === "file_interrogator"
        ? [{ description: "File Interrogator licence, one year", quantity: "1", unitPrice: "" }]
        : [],
    licenceSeats: "",
    licenceStartsOn: "",
  };
}

/** One quote's admin page; null for an id that names none. */
export async function adminQuotePage(id: string): Promise<AdminQuotePage | null> {
  const q = await findQuote(id);
  if (!q) return null;
  const [replaced] = q.supersedesId
    ? await db()
        .select({ number: quotes.number })
        .from(quotes)
        .where(orm.eq(quotes.id, q.supersedesId))
    : [];
  return {
    quote: adminQuoteRow(q),
    href: quoteHref(q.id),
    inquiryId: q.inquiryId,
    editor: q.status === "draft" ? editorValuesOf(q) : null,
    lines: q.lines,
    sentAt: q.sentAt?.toISOString() ?? null,
    supersedes: replaced?.number ?? null,
    customerUrl: q.status === "draft" ? "" : quoteUrl(q.id, q.validUntil),
    ...quoteAnswer(q),
    order: q.orderId ? { id: q.orderId, reference: orderReference(q.orderId) } : null,
  };
}
