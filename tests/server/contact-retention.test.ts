import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseForm } from "#app/lib/forms.ts";
import { quoteFormSchema } from "#app/lib/quotes/quotes.ts";
import { db } from "#server/db/client.server.ts";
import { auditLog, emailOutbox, licences, quotes } from "#server/db/schema.ts";
import { acceptQuote } from "#server/quotes/acceptance.server.ts";
import { quoteUrl } from "#server/quotes/links.server.ts";
import { saveQuoteDraft, sendQuote } from "#server/quotes/quotes.server.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { anonymiseOldContacts } from "#server/privacy/retention.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The retention period for the contacts of quotes and licences (decision 0051), on both
 * databases: a quote never accepted loses its contact (row, printed snapshot, the e-mails that
 * sent it) once its last valid day is the period past; a licence once its end is; an accepted
 * quote keeps its contact with its order; numbers, amounts and organisation stay; a second run
 * changes nothing, and neither does one over what an erasure already did.
 */
useFreshDatabase();

const STAFF = { id: "retention-staff", email: "sales@nightwatch.example" };
const SENT_AT = new Date("2026-11-28T10:00:00Z");

async function draft(contactEmail: string, licenceSeats = "") {
  const data = new FormData();
  for (const [k, v] of Object.entries({
    intent: "save",
    organisation: "Northshire Police",
    contactName: "Sam Patel",
    contactEmail,
    supply: "on_demand",
    validUntil: "2026-12-31",
    terms: "Annual licences.",
    "lines[0].description": "File Interrogator licence, one year",
    "lines[0].quantity": "2",
    "lines[0].unitPrice": "450",
    licenceSeats,
    licenceStartsOn: licenceSeats ? "2027-01-01" : "",
  }))
    data.append(k, v);
  const parsed = parseForm(data, quoteFormSchema);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  const saved = await saveQuoteDraft(parsed.value, null, STAFF);
  if (!saved.ok) throw new Error(saved.reason);
  return saved.id;
}

async function sent(contactEmail: string, licenceSeats = "") {
  const id = await draft(contactEmail, licenceSeats);
  const result = await sendQuote(id, STAFF, SENT_AT, "2026-11-28");
  if (!result.ok) throw new Error(result.reason);
  return id;
}

async function accepted(contactEmail: string) {
  const id = await sent(contactEmail, "2");
  const token = new URL(quoteUrl(id, "2026-12-31")).pathname.split("/").pop()!;
  const answer = await acceptQuote(
    token,
    { name: "Sam Patel", role: "Buyer", poNumber: null },
    new Date("2026-12-01T10:00:00Z"),
  );
  if (!answer.ok) throw new Error(answer.reason);
  const [licence] = await db().select().from(licences).where(eq(licences.quoteId, id));
  return { id, licence: licence! };
}

const quoteRow = async (id: string) =>
  (await db().select().from(quotes).where(eq(quotes.id, id)))[0]!;
const quoteMails = async (id: string) =>
  db().select().from(emailOutbox).where(eq(emailOutbox.quoteId, id));

describe("the contacts of quotes and licences", () => {
  it("go the period after a quote's last day or a licence's end; accepted quotes stay", async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), "contact-retention-"));
    const unanswered = await sent("unanswered@northshire.example");
    const neverSent = await draft("draft@northshire.example");
    const sale = await accepted("buyer@northshire.example");
    expect(await quoteMails(unanswered)).toHaveLength(1);
    expect((await quoteMails(sale.id)).length).toBeGreaterThan(0);

    // 24 months after the quotes' last day (31 December 2026), not yet after the licence's end.
    const early = new Date("2028-12-31T12:00:00Z");
    expect(await anonymiseOldContacts(early, { months: 24, outboxDir })).toEqual({
      quotes: 0,
      licences: 0,
      emails: 0,
    });
    const later = new Date("2029-01-15T12:00:00Z");
    expect(await anonymiseOldContacts(later, { months: 24, outboxDir })).toEqual({
      quotes: 2,
      licences: 0,
      emails: 1,
    });
    for (const id of [unanswered, neverSent]) {
      const row = await quoteRow(id);
      expect(row).toMatchObject({
        contactName: "Anonymised",
        contactEmail: `quote-${id}@erased.invalid`,
        organisation: "Northshire Police",
        anonymisedAt: later,
      });
    }
    const printed = (await quoteRow(unanswered)).snapshot as {
      customer: { name: string; email: string; organisation: string };
    };
    expect(printed.customer).toMatchObject({
      name: "Anonymised",
      email: `quote-${unanswered}@erased.invalid`,
      organisation: "Northshire Police",
    });
    expect((await quoteRow(unanswered)).number).toMatch(/^Q-2026-\d{4}$/);
    expect(await quoteMails(unanswered)).toEqual([]);
    // The accepted quote is part of the order's record: untouched, its e-mails too.
    expect(await quoteRow(sale.id)).toMatchObject({
      contactEmail: "buyer@northshire.example",
      anonymisedAt: null,
    });
    expect((await quoteMails(sale.id)).length).toBeGreaterThan(0);
    // Done once.
    expect(await anonymiseOldContacts(later, { months: 24, outboxDir })).toEqual({
      quotes: 0,
      licences: 0,
      emails: 0,
    });

    // The licence ends on 31 December 2027: its contact goes 24 months later.
    const afterLicence = new Date("2030-01-02T12:00:00Z");
    expect(await anonymiseOldContacts(afterLicence, { months: 24, outboxDir })).toEqual({
      quotes: 0,
      licences: 1,
      emails: 0,
    });
    const [licence] = await db().select().from(licences).where(eq(licences.id, sale.licence.id));
    expect(licence).toMatchObject({
      reference: sale.licence.reference,
      seats: 2,
      organisation: "Northshire Police",
      contactName: "Anonymised",
      contactEmail: `licence-${sale.licence.id}@erased.invalid`,
    });
    const audit = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "privacy.retention"));
    expect(audit.map((a) => a.summary).sort()).toEqual([
      "Retention: the contacts of 0 quotes and 1 licence ended over 24 months ago anonymised",
      "Retention: the contacts of 2 quotes and 0 licences ended over 24 months ago anonymised",
    ]);
  });

  it("an erasure marks them anonymised, and 0 months keeps everything", async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), "contact-retention-"));
    const quote = await sent("erase.me@northshire.example");
    const far = new Date("2035-01-01T12:00:00Z");
    expect(await anonymiseOldContacts(far, { months: 0, outboxDir })).toEqual({
      quotes: 0,
      licences: 0,
      emails: 0,
    });
    expect((await quoteRow(quote)).anonymisedAt).toBeNull();
    await erasePersonalData("erase.me@northshire.example", STAFF, { outboxDir });
    expect(await quoteRow(quote)).toMatchObject({
      contactName: "Erased",
      contactEmail: `quote-${quote}@erased.invalid`,
    });
    expect((await quoteRow(quote)).anonymisedAt).toBeInstanceOf(Date);
    expect(await anonymiseOldContacts(far, { months: 24, outboxDir })).toEqual({
      quotes: 0,
      licences: 0,
      emails: 0,
    });
    expect((await quoteRow(quote)).contactName).toBe("Erased");
  });
});
