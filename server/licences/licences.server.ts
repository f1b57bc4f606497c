import * as orm from "drizzle-orm";
import { londonDate } from "#app/lib/admin/time.ts";
import {
  LICENCE_EXPIRING_DAYS,
  type LicenceRow,
  type LicenceState,
  type LicencesEnding,
} from "#app/lib/licences/licences.ts";
import type { Supply } from "#app/lib/orders/place-of-supply.ts";
import { DEFAULT_QUOTE_TERMS, QUOTE_VALID_DAYS } from "#app/lib/quotes/quotes.ts";
import { recordAudit, type AuditActor } from "../audit.server.ts";
import { config } from "../config.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { licenceReminders, licences, quotes } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderLicenceReminder } from "../email/templates/licence.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { allocateDocumentNumber } from "../invoices/documents.server.ts";
import { quoteAmounts } from "../quotes/quotes.server.ts";

/**
 * The File Interrogator licence register (decision 0050): a licence is put on it when the quote
 * that sells it is accepted (in that transaction), runs a year, is reminded of its end to the
 * customer and staff on the configured days (each once), and is renewed by a renewal quote that
 * "Renew" drafts with the same seats and price; accepting that quote starts the next year's
 * licence and marks this one renewed.
 */

type LicenceRecord = typeof licences.$inferSelect;
type QuoteRecord = typeof quotes.$inferSelect;

const DAY_MS = 86_400_000;

function dayNumber(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / DAY_MS;
}

function dayOf(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** The last day of a licence starting on `start`: a year on, less a day (29 Feb → 28 Feb). */
export function licenceEndsOn(start: string): string {
  const [y, m, d] = start.split("-").map(Number) as [number, number, number];
  // Date.UTC rolls 29 February of a common year over to 1 March.
  return dayOf(Date.UTC(y + 1, m - 1, d) / DAY_MS - 1);
}

export function licenceState(
  l: Pick<LicenceRecord, "endsOn" | "renewedById">,
  today: string,
): LicenceState {
  if (l.renewedById) return "renewed";
  if (l.endsOn < today) return "expired";
  return dayNumber(l.endsOn) - dayNumber(today) <= LICENCE_EXPIRING_DAYS ? "expiring" : "active";
}

/**
 * licenceState as a condition on the licences table, so a filtered register is read by the
 * query itself (a filter after the read's limit would miss rows): the same day rules.
 */
function stateCondition(state: LicenceState, today: string): orm.SQL | undefined {
  if (state === "renewed") return orm.isNotNull(licences.renewedById);
  const lastExpiring = dayOf(dayNumber(today) + LICENCE_EXPIRING_DAYS);
  const ends = {
    expired: orm.lt(licences.endsOn, today),
    expiring: orm.and(orm.gte(licences.endsOn, today), orm.lte(licences.endsOn, lastExpiring)),
    active: orm.gt(licences.endsOn, lastExpiring),
  }[state];
  return orm.and(orm.isNull(licences.renewedById), ends);
}

/**
 * In the acceptance's transaction: the licence an accepted quote sells, if it sells any. A
 * renewal starts the day after the licence it renews ends (unless the quote says otherwise), and
 * marks that one renewed.
 */
export async function licenceFromQuote(
  tx: Transaction,
  quote: QuoteRecord,
  orderId: string,
  now: Date,
): Promise<LicenceRecord | null> {
  if (!quote.licenceSeats) return null;
  const [renewed] = quote.renewsLicenceId
    ? await tx
        .select()
        .from(licences)
        .where(orm.eq(licences.id, quote.renewsLicenceId))
        .for("update")
    : [];
  const startsOn =
    quote.licenceStartsOn ?? (renewed ? dayOf(dayNumber(renewed.endsOn) + 1) : londonDate(now));
  const reference = await allocateDocumentNumber(tx, "FI", now.getUTCFullYear());
  const [licence] = await tx
    .insert(licences)
    .values({
      reference,
      organisation: quote.organisation,
      contactName: quote.contactName,
      contactEmail: quote.contactEmail,
      seats: quote.licenceSeats,
      startsOn,
      endsOn: licenceEndsOn(startsOn),
      annualNetCents: quote.netCents,
      quoteId: quote.id,
      orderId,
    })
    .returning();
  if (renewed) {
    await tx
      .update(licences)
      .set({ renewedById: licence!.id, updatedAt: now })
      .where(orm.eq(licences.id, renewed.id));
  }
  await recordAudit(tx, null, {
    action: "licence.create",
    subjectType: "licence",
    subjectId: licence!.id,
    summary: reference,
    after: { seats: licence!.seats, startsOn, endsOn: licence!.endsOn, quote: quote.number },
  });
  return licence!;
}

async function rowsOf(records: LicenceRecord[], today: string): Promise<LicenceRow[]> {
  const quoteIds = records.map((l) => l.quoteId).filter((id): id is string => Boolean(id));
  const numbers = quoteIds.length
    ? await db()
        .select({ id: quotes.id, number: quotes.number })
        .from(quotes)
        .where(orm.inArray(quotes.id, quoteIds))
    : [];
  return records.map((l) => ({
    id: l.id,
    reference: l.reference,
    organisation: l.organisation,
    contactName: l.contactName,
    contactEmail: l.contactEmail,
    seats: l.seats,
    startsOn: l.startsOn,
    endsOn: l.endsOn,
    annualNetCents: l.annualNetCents,
    state: licenceState(l, today),
    quote: l.quoteId ? (numbers.find((q) => q.id === l.quoteId) ?? null) : null,
    orderId: l.orderId,
    renewalQuoteId: l.renewalQuoteId,
  }));
}

/** The register, soonest ending first; by state, or all. */
export async function listLicences(
  state: LicenceState | "all",
  now: Date = new Date(),
): Promise<LicenceRow[]> {
  const today = londonDate(now);
  const records = await db()
    .select()
    .from(licences)
    .where(state === "all" ? undefined : stateCondition(state, today))
    .orderBy(orm.asc(licences.endsOn))
    .limit(500);
  return rowsOf(records, today);
}

/** The Dashboard's licences ending within LICENCE_EXPIRING_DAYS and not renewed, with their value. */
export async function licencesEnding(now: Date = new Date(), limit = 10): Promise<LicencesEnding> {
  const today = londonDate(now);
  const where = stateCondition("expiring", today);
  const [records, [totals]] = await Promise.all([
    db().select().from(licences).where(where).orderBy(orm.asc(licences.endsOn)).limit(limit),
    db()
      .select({
        count: orm.sql<number>`count(*)::int`,
        value: orm.sql<number>`coalesce(sum(${licences.annualNetCents}), 0)::bigint`,
      })
      .from(licences)
      .where(where),
  ]);
  return {
    items: await rowsOf(records, today),
    count: Number(totals?.count ?? 0),
    annualNetCents: Number(totals?.value ?? 0),
  };
}

/**
 * The hourly pass: each licence not renewed whose end is within a reminder's days is reminded
 * once, customer and staff in one e-mail each. Only the nearest reminder due goes (a licence put
 * on the register 20 days before its end gets the 30-day one, not the 60-day one as well); the
 * ones it stands for are marked sent with it.
 */
export async function sendLicenceReminders(now: Date = new Date()): Promise<number> {
  const days = config.licenceReminderDays;
  if (days.length === 0) return 0;
  const today = londonDate(now);
  const furthest = dayOf(dayNumber(today) + days[0]!);
  const due = await db()
    .select()
    .from(licences)
    .where(
      orm.and(
        orm.isNull(licences.renewedById),
        orm.gte(licences.endsOn, today),
        orm.lte(licences.endsOn, furthest),
      ),
    );
  let sent = 0;
  for (const licence of due) {
    const left = dayNumber(licence.endsOn) - dayNumber(today);
    const reached = days.filter((d) => d >= left);
    if (reached.length === 0) continue;
    const nearest = Math.min(...reached);
    const queued = await db().transaction(async (tx) => {
      const marked = await tx
        .insert(licenceReminders)
        .values(reached.map((daysBefore) => ({ licenceId: licence.id, daysBefore, sentAt: now })))
        .onConflictDoNothing()
        .returning({ daysBefore: licenceReminders.daysBefore });
      // Already sent (by an earlier run, or another instance): the nearest one is taken.
      if (!marked.some((m) => m.daysBefore === nearest)) return false;
      const email = renderLicenceReminder({
        reference: licence.reference,
        organisation: licence.organisation,
        contactName: licence.contactName,
        seats: licence.seats,
        endsOn: licence.endsOn,
        daysLeft: left,
      });
      await queueEmails(tx, [
        { kind: "licence_reminder", to: licence.contactEmail, ...email.customer },
        {
          kind: "licence_reminder_staff",
          to: config.adminEmails,
          replyTo: licence.contactEmail,
          ...email.staff,
        },
      ]);
      return true;
    });
    if (queued) sent += 1;
  }
  if (sent) nudgeOutbox();
  return sent;
}

export type RenewResult =
  { ok: true; quoteId: string } | { ok: false; reason: "not_found" | "renewed" };

/**
 * "Renew": a draft quote for the next year, to the same organisation and contact, with the same
 * seats and lines (prices as last year's; staff edit it before sending), starting the day after
 * this one ends. A draft already made for it is opened again rather than made twice.
 */
export async function renewLicence(
  id: string,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<RenewResult> {
  if (!isUuid(id)) return { ok: false, reason: "not_found" };
  return db().transaction(async (tx): Promise<RenewResult> => {
    const [licence] = await tx.select().from(licences).where(orm.eq(licences.id, id)).for("update");
    if (!licence) return { ok: false, reason: "not_found" };
    if (licence.renewedById) return { ok: false, reason: "renewed" };
    if (licence.renewalQuoteId) {
      const [existing] = await tx
        .select({ id: quotes.id, status: quotes.status })
        .from(quotes)
        .where(orm.eq(quotes.id, licence.renewalQuoteId));
      if (existing && existing.status === "draft") return { ok: true, quoteId: existing.id };
    }
    const [original] = licence.quoteId
      ? await tx.select().from(quotes).where(orm.eq(quotes.id, licence.quoteId))
      : [];
    const startsOn = dayOf(dayNumber(licence.endsOn) + 1);
    const lines = original?.lines ?? [
      {
        description: "File Interrogator licence, one year",
        quantity: licence.seats,
        unitNetCents: Math.round(licence.annualNetCents / licence.seats),
      },
    ];
    const validUntil = londonDate(new Date(now.getTime() + QUOTE_VALID_DAYS * DAY_MS));
    const [quote] = await tx
      .insert(quotes)
      .values({
        organisation: licence.organisation,
        contactName: licence.contactName,
        contactEmail: licence.contactEmail,
        addressLine1: original?.addressLine1 ?? null,
        addressLine2: original?.addressLine2 ?? null,
        town: original?.town ?? null,
        postcode: original?.postcode ?? null,
        country: original?.country ?? null,
        vatNumber: original?.vatNumber ?? null,
        supply: original?.supply ?? "on_demand",
        lines: lines.map((l) => ({
          ...l,
          description:
            l.description.replace(/\s*\(renewal.*\)$/, "") + ` (renewal from ${startsOn})`,
        })),
        validUntil,
        terms: original?.terms ?? DEFAULT_QUOTE_TERMS,
        // Worked out again: this year's VAT rate, and the customer's country and number.
        ...quoteAmounts(lines, (original?.supply ?? "on_demand") as Supply, {
          country: original?.country ?? null,
          vatNumber: original?.vatNumber ?? null,
        }),
        licenceSeats: licence.seats,
        licenceStartsOn: startsOn,
        renewsLicenceId: licence.id,
        inquiryId: original?.inquiryId ?? null,
        createdBy: actor.email,
      })
      .returning({ id: quotes.id });
    await tx
      .update(licences)
      .set({ renewalQuoteId: quote!.id, updatedAt: now })
      .where(orm.eq(licences.id, licence.id));
    await recordAudit(tx, actor, {
      action: "licence.renew",
      subjectType: "licence",
      subjectId: licence.id,
      summary: licence.reference,
      after: { renewalQuote: quote!.id, startsOn },
    });
    return { ok: true, quoteId: quote!.id };
  });
}
