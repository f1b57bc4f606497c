import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { drawQuotePdf, quoteFilename } from "#server/quotes/pdf.server.ts";
import type { QuoteSnapshot } from "#server/quotes/snapshot.server.ts";
import { pdfPageCount, pdfText } from "#tests/support/pdf-text.ts";

/**
 * The quotation PDF drawn from a snapshot (no database): a structurally valid PDF (qpdf), what
 * it says read back with PDF.js, long text wrapped onto a second page, the same bytes each time.
 */

const LONG_DESCRIPTION =
  "OSINT Investigations Masterclass, delivered in-house at your offices for up to twelve " +
  "analysts: two days of instructor-led exercises on open-source collection, verification of " +
  "images and video, company and people research, and operational security, with course " +
  "materials, certificates of attendance and a follow-up call.";

const LAST_TERM =
  "This quotation is governed by the law of England and Wales, and nothing in it limits any " +
  "right you have as a customer that cannot be limited by law.";

const TERMS = [
  ...Array.from(
    { length: 10 },
    (_, i) =>
      `${i + 1}. Clause ${i + 1}: the prices above exclude travel outside the M25, which is ` +
      "charged at cost and agreed with you in advance. Dates are held for fourteen days from " +
      "acceptance and confirmed in writing; a date moved at your request more than thirty days " +
      "before it is free, and a later move is charged at half the day rate, as set out in our " +
      "booking conditions, which apply to this quotation alongside these terms.",
  ),
  LAST_TERM,
].join("\n\n");

const ACCEPT_URL = "https://nightwatch.example/quotes/accept/Q-2026-0007.sig-4f9a2c";

function sample(overrides: Partial<QuoteSnapshot> = {}): QuoteSnapshot {
  return {
    number: "Q-2026-0007",
    title: "Quotation",
    issuedAt: "2026-03-02T10:15:00.000Z",
    validUntil: "2026-04-01",
    currency: "GBP",
    vatRegistered: true,
    seller: {
      legalName: "NightWatch Intelligence Ltd",
      addressLines: ["1 High Street", "Cambridge", "CB1 1AA"],
      companyNumber: "01234567",
      vatNumber: "GB123456789",
      email: "training@nightwatch.example",
    },
    customer: {
      organisation: "Analytical Engines Ltd",
      name: "Ada Lovelace",
      email: "ada@engines.example",
      addressLines: ["2 Babbage Row", "Cambridge", "CB2 1TN"],
      vatNumber: "GB987654321",
    },
    lines: [
      { description: LONG_DESCRIPTION, quantity: 1, unitNetCents: 100_000, netCents: 100_000 },
      {
        description: "Advanced geolocation workshop",
        quantity: 2,
        unitNetCents: 12_500,
        netCents: 25_000,
      },
      { description: "Printed workbooks", quantity: 4, unitNetCents: 2_500, netCents: 10_000 },
    ],
    vatRateBasisPoints: 2000,
    netCents: 135_000,
    vatCents: 27_000,
    totalCents: 162_000,
    vatNote: null,
    terms: TERMS,
    acceptUrl: ACCEPT_URL,
    supersedes: { number: "Q-2026-0003", issuedAt: "2026-02-10T09:00:00.000Z" },
    ...overrides,
  };
}

const dir = mkdtempSync(path.join(tmpdir(), "quote-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** qpdf's structural check of the PDF: exit status and what it said. */
function qpdfCheck(pdf: Buffer, name: string): { status: number | null; output: string } {
  const file = path.join(dir, name);
  writeFileSync(file, pdf);
  const result = spawnSync("qpdf", ["--check", file], { encoding: "utf8" });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the quotation PDF", () => {
  it("is a valid PDF holding the quote, its totals, its terms and how to accept it", async () => {
    const pdf = await drawQuotePdf(sample());
    expect(quoteFilename(sample())).toBe("Q-2026-0007.pdf");
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const check = qpdfCheck(pdf, "quote.pdf");
    expect(check.output).toContain("No syntax or stream encoding errors");
    expect(check.status).toBe(0);
    expect(await pdfPageCount(pdf)).toBeGreaterThanOrEqual(2);

    const text = await pdfText(pdf);
    for (const expected of [
      "Quotation",
      "Q-2026-0007",
      "Date of issue",
      "2 March 2026",
      "Valid until",
      "1 April 2026",
      "Replaces quotation",
      "Q-2026-0003",
      "NightWatch Intelligence Ltd",
      "Company no. 01234567",
      "VAT registration no. GB123456789",
      "training@nightwatch.example",
      "Analytical Engines Ltd",
      "Ada Lovelace",
      "CB2 1TN",
      "ada@engines.example",
      "VAT no. GB987654321",
      "OSINT Investigations Masterclass",
      "Advanced geolocation workshop",
      "Printed workbooks",
      "£1,000.00",
      "£125.00",
      "£25.00",
      "Total excl. VAT (net)",
      "£1,350.00",
      "VAT at 20%",
      "£270.00",
      "£1,620.00",
      "Terms",
      LAST_TERM,
      "How to accept",
      ACCEPT_URL,
      "by 1 April 2026. Please quote your purchase order number when you accept.",
      "Page 1 of 2",
      "Page 2 of 2",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("prints the VAT note in place of the VAT line when no UK VAT is charged", async () => {
    const note = "Reverse charge: the customer is to account for the VAT to its own tax authority.";
    const pdf = await drawQuotePdf(
      sample({
        vatRateBasisPoints: 0,
        vatCents: 0,
        totalCents: 135_000,
        vatNote: note,
        supersedes: null,
      }),
    );
    expect(qpdfCheck(pdf, "reverse-charge.pdf").status).toBe(0);
    const text = await pdfText(pdf);
    expect(text).toContain(note);
    expect(text).toContain("£1,350.00");
    expect(text).not.toContain("VAT at");
    expect(text).not.toMatch(/VAT\s+(at\s+)?20%/);
    expect(text).not.toContain("£270.00");
    expect(text).not.toContain("Replaces quotation");
  });

  it("draws the same snapshot as the same bytes", async () => {
    const [first, second] = await Promise.all([drawQuotePdf(sample()), drawQuotePdf(sample())]);
    expect(first.equals(second)).toBe(true);
  });
});
