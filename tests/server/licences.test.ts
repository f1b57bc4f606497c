import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { parseForm } from "#app/lib/forms.ts";
import { quoteFormSchema } from "#app/lib/quotes/quotes.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, licences, quotes } from "#server/db/schema.ts";
import {
  licenceEndsOn,
  licencesEnding,
  listLicences,
  renewLicence,
  sendLicenceReminders,
} from "#server/licences/licences.server.ts";
import { acceptQuote } from "#server/quotes/acceptance.server.ts";
import { quoteUrl } from "#server/quotes/links.server.ts";
import { saveQuoteDraft, sendQuote } from "#server/quotes/quotes.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The File Interrogator licence register (decision 0050) on both databases: an accepted licence
 * quote puts its seats on the register for a year; reminders 60, 30 and 7 days before the end go
 * once each (only the nearest when several are due at once); "Renew" drafts next year's quote
 * with the same seats and price, whose acceptance renews the licence.
 */
useFreshDatabase();

const STAFF = { id: "licence-staff", email: "sales@nightwatch.example" };
const ACCEPTED_AT = new Date("2026-12-01T10:00:00Z");
const DAY = 86_400_000;

async function licenceSold(seats = "3", startsOn = "2027-01-01") {
  const data = new FormData();
  for (const [k, v] of Object.entries({
    intent: "save",
    organisation: "Northshire Police",
    contactName: "Sam Patel",
    contactEmail: "sam.patel@northshire.example",
    supply: "on_demand",
    validUntil: "2026-12-31",
    terms: "Annual licences.",
    "lines[0].description": "File Interrogator licence, one year",
    "lines[0].quantity": seats,
    "lines[0].unitPrice": "450",
    licenceSeats: seats,
    licenceStartsOn: startsOn,
  }))
    data.append(k, v);
  const parsed = parseForm(data, quoteFormSchema);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  const saved = await saveQuoteDraft(parsed.value, null, STAFF);
  if (!saved.ok) throw new Error(saved.reason);
  const sent = await sendQuote(saved.id, STAFF, new Date("2026-11-28T10:00:00Z"), "2026-11-28");
  if (!sent.ok) throw new Error(sent.reason);
  const token = new URL(quoteUrl(saved.id, "2026-12-31")).pathname.split("/").pop()!;
  const accepted = await acceptQuote(
    token,
    { name: "Sam Patel", role: "Buyer", poNumber: "PO-1" },
    ACCEPTED_AT,
  );
  if (!accepted.ok) throw new Error(accepted.reason);
  const [licence] = await db().select().from(licences).where(eq(licences.quoteId, saved.id));
  return { quoteId: saved.id, licence: licence! };
}

const reminders = () =>
  db()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.kind, "licence_reminder"))
    .orderBy(emailOutbox.createdAt);

describe("the register", () => {
  it("a year, less a day, from the start; from 29 February to 28 February", () => {
    expect(licenceEndsOn("2027-01-01")).toBe("2027-12-31");
    expect(licenceEndsOn("2028-02-29")).toBe("2029-02-28");
    expect(licenceEndsOn("2026-03-01")).toBe("2027-02-28");
  });

  it("an accepted licence quote puts its seats on the register", async () => {
    const { licence } = await licenceSold("3");
    expect(licence).toMatchObject({
      seats: 3,
      startsOn: "2027-01-01",
      endsOn: "2027-12-31",
      annualNetCents: 135000,
      organisation: "Northshire Police",
    });
    expect(licence.reference).toMatch(/^FI-2026-0001$/);
    const [row] = await listLicences("all", ACCEPTED_AT);
    expect(row).toMatchObject({ state: "active", quote: { number: expect.stringMatching(/^Q-/) } });
    expect((await listLicences("all", new Date("2027-11-15T12:00:00Z")))[0]!.state).toBe(
      "expiring",
    );
    expect((await listLicences("all", new Date("2028-01-01T12:00:00Z")))[0]!.state).toBe("expired");
  });
});

describe("the register's state filter", () => {
  it("picks in SQL what licenceState says, at the boundary days, however long the register", async () => {
    const now = new Date("2027-06-15T12:00:00Z");
    const licence = (reference: string, endsOn: string, renewedById: string | null = null) => ({
      reference,
      organisation: "Northshire Police",
      contactName: "Sam Patel",
      contactEmail: "sam.patel@northshire.example",
      seats: 1,
      startsOn: "2026-01-01",
      endsOn,
      annualNetCents: 45_000,
      renewedById,
    });
    // More long-expired licences than one read of the register holds, all ending first.
    await db()
      .insert(licences)
      .values(
        Array.from({ length: 500 }, (_, i) =>
          licence(`FI-OLD-${String(i).padStart(4, "0")}`, "2026-01-31"),
        ),
      );
    const [next] = await db()
      .insert(licences)
      .values(licence("FI-61-DAYS", "2027-08-15"))
      .returning({ id: licences.id });
    await db()
      .insert(licences)
      .values([
        licence("FI-YESTERDAY", "2027-06-14"),
        licence("FI-TODAY", "2027-06-15"),
        licence("FI-60-DAYS", "2027-08-14"),
        licence("FI-RENEWED-SOON", "2027-07-01", next!.id),
        licence("FI-RENEWED-PAST", "2027-01-01", next!.id),
      ]);

    // Each row the query picks is in that state by licenceState too.
    const references = async (state: "active" | "expiring" | "renewed") => {
      const rows = await listLicences(state, now);
      expect(rows.map((l) => l.state)).toEqual(rows.map(() => state));
      return rows.map((l) => l.reference);
    };
    expect(await references("expiring")).toEqual(["FI-TODAY", "FI-60-DAYS"]);
    expect(await references("active")).toEqual(["FI-61-DAYS"]);
    expect(await references("renewed")).toEqual(["FI-RENEWED-PAST", "FI-RENEWED-SOON"]);
    const expired = await listLicences("expired", now);
    expect(expired).toHaveLength(500);
    expect(expired.every((l) => l.state === "expired")).toBe(true);
    expect(await db().$count(licences)).toBe(506);
  });
});

describe("reminders", () => {
  it("go 60, 30 and 7 days before the end, each once", async () => {
    const { licence } = await licenceSold();
    const end = Date.parse(`${licence.endsOn}T12:00:00Z`);
    // 61 days before: nothing yet.
    expect(await sendLicenceReminders(new Date(end - 61 * DAY))).toBe(0);
    // 59 days before (the 60-day one), then again the same day and the next: once.
    expect(await sendLicenceReminders(new Date(end - 59 * DAY))).toBe(1);
    expect(await sendLicenceReminders(new Date(end - 59 * DAY))).toBe(0);
    expect(await sendLicenceReminders(new Date(end - 58 * DAY))).toBe(0);
    expect(await sendLicenceReminders(new Date(end - 30 * DAY))).toBe(1);
    expect(await sendLicenceReminders(new Date(end - 7 * DAY))).toBe(1);
    expect(await sendLicenceReminders(new Date(end - 2 * DAY))).toBe(0);
    const sent = await reminders();
    expect(sent.map((m) => m.subject)).toEqual([
      "Your File Interrogator licence ends on 31 December 2027",
      "Your File Interrogator licence ends on 31 December 2027",
      "Your File Interrogator licence ends on 31 December 2027",
    ]);
    expect(sent[0]!.text).toContain("ends in 59 days");
    expect(sent[0]!.toAddress).toBe("sam.patel@northshire.example");
    const staff = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "licence_reminder_staff"));
    expect(staff).toHaveLength(3);
  });

  it("a licence first seen 20 days before its end gets only the 30-day reminder", async () => {
    const { licence } = await licenceSold();
    const end = Date.parse(`${licence.endsOn}T12:00:00Z`);
    expect(await sendLicenceReminders(new Date(end - 20 * DAY))).toBe(1);
    expect(await sendLicenceReminders(new Date(end - 19 * DAY))).toBe(0);
    expect(await reminders()).toHaveLength(1);
  });

  it("the Dashboard lists licences ending within 60 days and their value", async () => {
    const { licence } = await licenceSold();
    const end = Date.parse(`${licence.endsOn}T12:00:00Z`);
    expect((await licencesEnding(new Date(end - 61 * DAY))).count).toBe(0);
    expect(await licencesEnding(new Date(end - 59 * DAY))).toMatchObject({
      count: 1,
      annualNetCents: 135000,
    });
  });
});

describe("renewal", () => {
  it("drafts next year's quote with the same seats and price; accepting it renews the licence", async () => {
    const { licence } = await licenceSold();
    const renewed = await renewLicence(licence.id, STAFF, new Date("2027-11-20T10:00:00Z"));
    expect(renewed.ok).toBe(true);
    const quoteId = renewed.ok ? renewed.quoteId : "";
    // "Renew" again opens the same draft.
    expect(await renewLicence(licence.id, STAFF)).toEqual({ ok: true, quoteId });
    const [draft] = await db().select().from(quotes).where(eq(quotes.id, quoteId));
    expect(draft).toMatchObject({
      status: "draft",
      licenceSeats: 3,
      licenceStartsOn: "2028-01-01",
      renewsLicenceId: licence.id,
      netCents: 135000,
      organisation: "Northshire Police",
    });
    expect(draft!.lines).toEqual([
      {
        description: "File Interrogator licence, one year (renewal from 2028-01-01)",
        quantity: 3,
        unitNetCents: 45000,
      },
    ]);

    const now = new Date("2027-11-20T10:00:00Z");
    const sent = await sendQuote(quoteId, STAFF, now, "2027-11-20");
    expect(sent.ok).toBe(true);
    const token = new URL(quoteUrl(quoteId, draft!.validUntil)).pathname.split("/").pop()!;
    const accepted = await acceptQuote(token, { name: "Sam", role: "Buyer", poNumber: null }, now);
    expect(accepted.ok).toBe(true);
    const all = await db().select().from(licences).orderBy(licences.startsOn);
    expect(all.map((l) => [l.startsOn, l.endsOn, l.seats])).toEqual([
      ["2027-01-01", "2027-12-31", 3],
      ["2028-01-01", "2028-12-31", 3],
    ]);
    expect(all[0]!.renewedById).toBe(all[1]!.id);
    // A renewed licence is reminded no more.
    expect(await sendLicenceReminders(new Date("2027-12-24T12:00:00Z"))).toBe(0);
    expect(await renewLicence(licence.id, STAFF)).toEqual({ ok: false, reason: "renewed" });
  });
});

describe("personal data", () => {
  it("finds the contact's quotes and licences, and an erasure anonymises them, numbers kept", async () => {
    const { quoteId, licence } = await licenceSold();
    const { findPersonalData } = await import("#server/privacy/find.server.ts");
    const { erasePersonalData } = await import("#server/privacy/erase.server.ts");
    const found = await findPersonalData("sam.patel@northshire.example");
    expect(found.quotes.map((q) => q.id)).toEqual([quoteId]);
    expect(found.licences.map((l) => l.reference)).toEqual([licence.reference]);

    const outboxDir = mkdtempSync(path.join(tmpdir(), "erase-"));
    const result = await erasePersonalData("sam.patel@northshire.example", STAFF, { outboxDir });
    expect(result.counts).toMatchObject({ quotes: 1, licences: 1 });
    const [quote] = await db().select().from(quotes).where(eq(quotes.id, quoteId));
    expect(quote!.contactEmail).toMatch(/@erased\.invalid$/);
    expect(quote!.number).toMatch(/^Q-/);
    const printed = quote!.snapshot as {
      customer: { name: string; email: string; organisation: string };
    };
    expect(printed.customer.email).toMatch(/@erased\.invalid$/);
    expect(printed.customer.name).not.toContain("Sam");
    expect(printed.customer.organisation).toBe("Northshire Police");
    const [kept] = await db().select().from(licences).where(eq(licences.id, licence.id));
    expect(kept).toMatchObject({ reference: licence.reference, seats: 3 });
    expect(kept!.contactEmail).toMatch(/@erased\.invalid$/);
    expect((await findPersonalData("sam.patel@northshire.example")).quotes).toEqual([]);
  });
});
