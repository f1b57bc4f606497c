import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { ActionFunctionArgs } from "react-router";
import { describe, expect, it, vi } from "vitest";
import * as adminQuotePdfModule from "#app/routes/admin/quote-pdf.ts";
import * as quotationModule from "#app/routes/site/quotation.tsx";
import * as quotationPdfModule from "#app/routes/site/quotation-pdf.ts";
import { parseForm } from "#app/lib/forms.ts";
import { quoteFormSchema, type QuoteForm } from "#app/lib/quotes/quotes.ts";
import { db } from "#server/db/client.server.ts";
import {
  auditLog,
  emailOutbox,
  inquiries,
  inquiryNotes,
  orderDocuments,
  orders,
  quotes,
} from "#server/db/schema.ts";
import { attachmentsOf } from "#server/email/worker.server.ts";
import { customerQuote, expireQuotes } from "#server/quotes/acceptance.server.ts";
import { quoteUrl } from "#server/quotes/links.server.ts";
import { newQuoteValues } from "#server/quotes/admin.server.ts";
import { reviseQuote, saveQuoteDraft, sendQuote } from "#server/quotes/quotes.server.ts";
import type { QuoteSnapshot } from "#server/quotes/snapshot.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { freshIp } from "#tests/support/forms.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * Quotes (decision 0049) on both databases: numbered without gaps however many are sent at once;
 * a sent quote fixed, e-mailed with its PDF; the customer's link accepts it exactly once even when
 * posted twice at once, making one invoiced order carrying the PO; tampered and expired links,
 * expiry by date, declining, and revising into a quote that supersedes the first.
 */
useFreshDatabase();

const STAFF = { id: "quote-staff", email: "sales@nightwatch.example" };

function form(fields: Record<string, string>): QuoteForm {
  const data = new FormData();
  const defaults: Record<string, string> = {
    intent: "save",
    organisation: "Northshire Police",
    contactName: "Sam Patel",
    contactEmail: "sam.patel@northshire.example",
    addressLine1: "1 Station Road",
    town: "Leeds",
    postcode: "LS1 1AA",
    supply: "on_demand",
    validUntil: "2099-12-31",
    terms: "Payment within 30 days of invoice.",
    "lines[0].description": "File Interrogator licence, one year",
    "lines[0].quantity": "3",
    "lines[0].unitPrice": "450",
  };
  for (const [k, v] of Object.entries({ ...defaults, ...fields })) data.append(k, v);
  const parsed = parseForm(data, quoteFormSchema);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.value;
}

async function draft(fields: Record<string, string> = {}) {
  const saved = await saveQuoteDraft(form(fields), null, STAFF);
  if (!saved.ok) throw new Error(saved.reason);
  return saved.id;
}

async function sent(fields: Record<string, string> = {}) {
  const id = await draft(fields);
  const result = await sendQuote(id, STAFF);
  if (!result.ok) throw new Error(result.reason);
  const [row] = await db().select().from(quotes).where(eq(quotes.id, id));
  const token = new URL(quoteUrl(id, row!.validUntil)).pathname.split("/").pop()!;
  return { id, number: result.number, token, row: row! };
}

function postToQuote(token: string, fields: Record<string, string>) {
  const request = new Request(`http://localhost/quotes/${token}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  return (quotationModule.action as (args: ActionFunctionArgs) => Promise<unknown>)({
    request,
    params: { token },
    context: { clientIp: freshIp() },
  } as unknown as ActionFunctionArgs) as Promise<{
    data: Record<string, unknown>;
    init: ResponseInit | null;
  }>;
}

const ACCEPT = {
  intent: "accept",
  name: "Sam Patel",
  role: "Head of Economic Crime",
  poNumber: "PO-7781",
  confirm: "on",
};

describe("drafts and numbers", () => {
  it("works out VAT and totals on the server, from what is supplied and to whom", async () => {
    const id = await draft({
      "lines[1].description": "Set-up day",
      "lines[1].quantity": "1",
      "lines[1].unitPrice": "1,200.50",
    });
    const [row] = await db().select().from(quotes).where(eq(quotes.id, id));
    expect(row!.lines).toEqual([
      { description: "File Interrogator licence, one year", quantity: 3, unitNetCents: 45000 },
      { description: "Set-up day", quantity: 1, unitNetCents: 120050 },
    ]);
    expect(row!.netCents).toBe(255050);
    expect(row!.netCents + row!.vatCents).toBe(row!.totalCents);
    expect(row!.status).toBe("draft");
    expect(row!.number).toBeNull();
  });

  it("numbers quotes in order without gaps, however many are sent at once", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => draft()));
    const results = await Promise.all(ids.map((id) => sendQuote(id, STAFF)));
    const year = new Date().getUTCFullYear();
    const numbers = results.map((r) => (r.ok ? r.number : r.reason)).sort();
    expect(numbers).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `Q-${year}-${String(n).padStart(4, "0")}`),
    );
    // Sending again changes nothing.
    expect(await sendQuote(ids[0]!, STAFF)).toEqual({ ok: false, reason: "not_draft" });
  });

  it("sends a fixed quote with its PDF, noted on its enquiry; a sent quote no longer changes", async () => {
    const [inquiry] = await db()
      .insert(inquiries)
      .values({
        name: "Sam Patel",
        email: "sam.patel@northshire.example",
        company: "Northshire Police",
        message: "3 licences please",
        inquiryType: "file_interrogator",
      })
      .returning();
    const values = await newQuoteValues(inquiry!.id);
    expect(values).toMatchObject({ organisation: "Northshire Police", contactName: "Sam Patel" });
    expect(values.lines[0]!.description).toMatch(/File Interrogator licence/);

    const { id, number } = await sent({ inquiryId: inquiry!.id });
    const [mail] = await db().select().from(emailOutbox).where(eq(emailOutbox.quoteId, id));
    expect(mail).toMatchObject({
      kind: "quote",
      toAddress: "sam.patel@northshire.example",
      replyTo: STAFF.email,
    });
    expect(mail!.text).toContain(`/quotes/`);
    const [attachment] = await attachmentsOf(db(), mail!);
    expect(attachment!.filename).toBe(`${number}.pdf`);
    const dir = mkdtempSync(path.join(tmpdir(), "quote-"));
    const file = path.join(dir, "quote.pdf");
    writeFileSync(file, attachment!.content);
    expect(execFileSync("qpdf", ["--check", file], { encoding: "utf8" })).toMatch(
      /No syntax or stream encoding errors/,
    );
    const text = await pdfText(attachment!.content);
    expect(text).toContain(number);
    expect(text).toContain("Northshire Police");
    expect(text).toContain("£1,350.00");

    const notes = await db()
      .select()
      .from(inquiryNotes)
      .where(eq(inquiryNotes.inquiryId, inquiry!.id));
    expect(notes.map((n) => n.body)).toEqual([expect.stringContaining(`Quote ${number} sent`)]);
    expect(await saveQuoteDraft(form({ organisation: "Changed" }), id, STAFF)).toEqual({
      ok: false,
      reason: "not_draft",
    });
  });

  it("refuses to send a draft whose last valid day has passed", async () => {
    const id = await draft({ validUntil: "2020-01-31" });
    expect(await sendQuote(id, STAFF)).toEqual({ ok: false, reason: "past_validity" });
  });
});

describe("the customer's answer", () => {
  it("accepts once, even posted twice at once: one invoiced order carrying the PO", async () => {
    const { id, number, token } = await sent();
    const answers = await Promise.all([postToQuote(token, ACCEPT), postToQuote(token, ACCEPT)]);
    expect(answers.map((a) => a.init?.status ?? 200)).toEqual([200, 200]);
    expect(answers.every((a) => a.data.ok === true)).toBe(true);

    const made = await db().select().from(orders);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({
      status: "invoiced",
      paymentMethod: "invoice",
      poNumber: "PO-7781",
      buyerEmail: "sam.patel@northshire.example",
      billingOrganisation: "Northshire Police",
      totalAmountCents: made[0]!.netAmountCents + made[0]!.vatAmountCents,
      netAmountCents: 135000,
    });
    expect(made[0]!.courseTitleSnapshot).toBe(
      `Quotation ${number}: 3 × File Interrogator licence, one year`,
    );
    const invoices = await db()
      .select()
      .from(orderDocuments)
      .where(eq(orderDocuments.orderId, made[0]!.id));
    expect(invoices.map((d) => d.kind)).toEqual(["invoice"]);
    const [quote] = await db().select().from(quotes).where(eq(quotes.id, id));
    expect(quote).toMatchObject({
      status: "accepted",
      acceptedName: "Sam Patel",
      poNumber: "PO-7781",
      orderId: made[0]!.id,
    });
    const alerts = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, "quote_outcome"));
    expect(alerts).toHaveLength(1);
    expect(
      await db().select().from(auditLog).where(eq(auditLog.action, "quote.accept")),
    ).toHaveLength(1);
    // Declining an accepted quote is refused.
    expect((await postToQuote(token, { intent: "decline" })).init?.status).toBe(409);
  });

  it("refuses a changed link, and an acceptance without the confirmation", async () => {
    const { token } = await sent();
    const changed = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect((await postToQuote(changed, ACCEPT)).init?.status).toBe(404);
    expect((await customerQuote(changed)).ok).toBe(false);
    const unconfirmed = await postToQuote(token, { ...ACCEPT, confirm: "" });
    expect(unconfirmed.init?.status).toBe(400);
    expect(unconfirmed.data.values).toMatchObject({ name: "Sam Patel", poNumber: "PO-7781" });
    expect(await db().select().from(orders)).toEqual([]);
  });

  it("a quote past its last day is expired: it opens to say so and cannot be accepted", async () => {
    const { id, token } = await sent({ validUntil: "2099-01-31" });
    const later = new Date("2099-02-01T12:00:00Z");
    const { acceptQuote } = await import("#server/quotes/acceptance.server.ts");
    const refused = await acceptQuote(token, { name: "Sam", role: "Buyer", poNumber: null }, later);
    expect(refused).toMatchObject({ ok: false, reason: "closed" });
    expect(await expireQuotes(new Date())).toBe(0);
    const [row] = await db().select().from(quotes).where(eq(quotes.id, id));
    expect(row!.status).toBe("expired");
    expect(await db().select().from(orders)).toEqual([]);

    const other = await sent({ validUntil: "2099-01-31" });
    expect(await expireQuotes(later)).toBe(1);
    const view = await customerQuote(other.token, later);
    expect(view.ok && view.quote.status).toBe("expired");

    // The link itself lasts 60 days past the last valid day, then opens to nothing.
    const lastDayOfLink = new Date("2099-04-01T23:59:00Z");
    expect(await customerQuote(other.token, lastDayOfLink)).toMatchObject({ ok: true });
    const afterLink = new Date("2099-04-02T00:00:00Z");
    expect(await customerQuote(other.token, afterLink)).toEqual({
      ok: false,
      reason: "expired_link",
    });
    const late = await acceptQuote(
      other.token,
      { name: "Sam", role: "Buyer", poNumber: null },
      afterLink,
    );
    expect(late).toEqual({ ok: false, reason: "expired_link" });
    expect(await db().select().from(orders)).toEqual([]);
  });

  it("records a decline and its reason, and tells staff", async () => {
    const { id, token } = await sent();
    const answer = await postToQuote(token, {
      intent: "decline",
      reason: "Budget moved to next year.",
    });
    expect(answer.data.ok).toBe(true);
    const [row] = await db().select().from(quotes).where(eq(quotes.id, id));
    expect(row).toMatchObject({ status: "declined", declineReason: "Budget moved to next year." });
    expect((await postToQuote(token, ACCEPT)).init?.status).toBe(409);
  });
});

describe("the PDF downloads", () => {
  const customerPdf = (token: string) =>
    quotationPdfModule.loader({ params: { token } } as never) as Promise<Response>;
  const adminPdf = (quoteId: string) =>
    adminQuotePdfModule.loader({ params: { quoteId } } as never) as Promise<Response>;

  it("gives the sent PDF to the customer's link and to staff, never cached; nothing for a draft or a bad link", async () => {
    const { id, number, token } = await sent();
    for (const [response, robots] of [
      [await customerPdf(token), "noindex"],
      [await adminPdf(id), null],
    ] as const) {
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toEqual({
        "cache-control": "private, no-store",
        "content-disposition": `attachment; filename="${number}.pdf"`,
        "content-type": "application/pdf",
        ...(robots ? { "x-robots-tag": robots } : {}),
      });
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
    }

    const changed = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    const draftId = await draft();
    for (const response of [
      await customerPdf(changed),
      await adminPdf(draftId),
      await adminPdf("not-a-quote"),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("Not found");
    }
  });

  it("answers 410 to a link past its 60 days", async () => {
    const { token } = await sent({ validUntil: "2099-01-31" });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2099-04-02T00:00:00Z") });
    try {
      const response = await customerPdf(token);
      expect(response.status).toBe(410);
      expect(await response.text()).toBe("Not found");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("revisions", () => {
  it("a revision is a new draft that supersedes the quote when it is sent", async () => {
    const first = await sent();
    const revised = await reviseQuote(first.id, STAFF);
    expect(revised.ok).toBe(true);
    const revisedId = revised.ok ? revised.id : "";
    const result = await sendQuote(revisedId, STAFF);
    expect(result.ok).toBe(true);
    const rows = await db().select().from(quotes);
    const old = rows.find((r) => r.id === first.id)!;
    const fresh = rows.find((r) => r.id === revisedId)!;
    expect(old.status).toBe("superseded");
    expect(fresh.supersedesId).toBe(first.id);
    expect((fresh.snapshot as QuoteSnapshot).supersedes?.number).toBe(first.number);
    // The old link now says it was replaced, and accepts nothing.
    expect((await postToQuote(first.token, ACCEPT)).init?.status).toBe(409);
    expect(await reviseQuote(revisedId, STAFF)).toMatchObject({ ok: true });
  });
});
