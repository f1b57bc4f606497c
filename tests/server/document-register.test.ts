import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { describe, expect, it, vi } from "vitest";
import { parseRegisterFilters } from "#app/lib/orders/register.ts";
import { db } from "#server/db/client.server.ts";
import {
  issueCreditNote,
  issueInvoice,
  type DocumentRow,
} from "#server/invoices/documents.server.ts";
import { type DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { drawDocumentPdf } from "#server/invoices/pdf.server.ts";
import {
  REGISTER_CSV_HEADER,
  registerCsvResponse,
  registerDocuments,
  registerMonths,
  registerTotals,
  registerZip,
  xeroCsvResponse,
} from "#server/invoices/register.server.ts";
import type { OrderRow } from "#server/orders/records.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { placeOrder } from "#tests/support/invoices.ts";

/**
 * The document register on a real database (PGlite, and PostgreSQL when DATABASE_URL is set):
 * London date ranges at their edges, sums by kind and by month to the penny, and the three
 * exports read back — the register CSV, Xero's sales-invoice import, the ZIP of PDFs. The seller
 * is VAT-registered here.
 */
await vi.hoisted(async () =>
  Object.assign(process.env, (await import("../support/seller-env.ts")).VAT_SELLER_ENV),
);

useFreshDatabase();

/** Xero's sales-invoice import template, as Xero publishes it (SalesInvoiceTemplate.csv). */
const XERO_TEMPLATE_HEADER =
  "*ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,InventoryItemCode,*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,Currency,BrandingTheme";

const issue = (order: OrderRow, kind: "invoice" | "receipt", at: string) =>
  db().transaction((tx) =>
    issueInvoice(tx, order, [], { kind, actor: "system", now: new Date(at), paidAt: new Date(at) }),
  ) as Promise<DocumentRow>;

const credit = (order: OrderRow, amountCents: number, at: string) =>
  db().transaction((tx) =>
    issueCreditNote(tx, order, {
      amountCents,
      reason: "Refund",
      actor: "system",
      now: new Date(at),
    }),
  ) as Promise<DocumentRow | null>;

const range = (from: string, to: string) => ({ from, to });

const pence = (figure: string) => Math.round(Number(figure) * 100);

async function csvOf(response: Response): Promise<string[][]> {
  expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  return parse(await response.text(), { bom: true }) as string[][];
}

/**
 * Four documents around two London month ends: 00:30 BST on 1 October is still 30 September in
 * UTC; 23:59 GMT on 30 November is November either way; midnight on 1 December is the next month.
 */
async function aMonthOfDocuments() {
  const a = await placeOrder({ email: "a@example.com" });
  const b = await placeOrder({ method: "stripe", quantity: 1, email: "b@example.com" });
  const c = await placeOrder({ quantity: 2, email: "c@example.com" });
  const d = await placeOrder({ quantity: 1, email: "d@example.com" });
  const invoiceA = await issue(a, "invoice", "2026-09-30T23:30:00Z");
  const receiptB = await issue(b, "receipt", "2026-11-05T10:00:00Z");
  const creditA = (await credit(a, 10_000, "2026-11-10T12:00:00Z"))!;
  const invoiceC = await issue(c, "invoice", "2026-11-30T23:59:00Z");
  const invoiceD = await issue(d, "invoice", "2026-12-01T00:00:00Z");
  return { invoiceA, receiptB, creditA, invoiceC, invoiceD };
}

describe("the document register", () => {
  it("a range is London days, both included; its sums match its documents and its months to the penny", async () => {
    const { invoiceA, receiptB, creditA, invoiceC, invoiceD } = await aMonthOfDocuments();
    const autumn = range("2026-10-01", "2026-11-30");
    const listed = await registerDocuments(autumn, new Date("2026-12-15T12:00:00Z"));
    expect(listed.map((d) => d.number)).toEqual([
      invoiceA.number,
      receiptB.number,
      creditA.number,
      invoiceC.number,
    ]);
    expect(listed.map((d) => d.number)).not.toContain(invoiceD.number);
    expect((await registerDocuments(range("2026-09-01", "2026-09-30"))).length).toBe(0);
    expect(
      (await registerDocuments(range("2026-12-01", "2026-12-01"))).map((d) => d.number),
    ).toEqual([invoiceD.number]);

    const totals = await registerTotals(autumn);
    const sumOf = (kind: string, key: "netCents" | "vatCents" | "totalCents") =>
      listed.filter((d) => d.kind === kind).reduce((sum, d) => sum + d[key], 0);
    expect(totals.invoices).toEqual({
      count: 2,
      netCents: sumOf("invoice", "netCents"),
      vatCents: sumOf("invoice", "vatCents"),
      totalCents: invoiceA.totalAmountCents + invoiceC.totalAmountCents,
    });
    expect(totals.receipts.totalCents).toBe(receiptB.totalAmountCents);
    expect(totals.credits).toMatchObject({ count: 1, totalCents: 10_000 });
    for (const key of ["netCents", "vatCents", "totalCents"] as const) {
      expect(totals.net[key]).toBe(
        sumOf("invoice", key) + sumOf("receipt", key) - sumOf("credit_note", key),
      );
    }
    expect(totals.net.netCents + totals.net.vatCents).toBe(totals.net.totalCents);

    const months = await registerMonths(autumn);
    expect(months.map((m) => m.month)).toEqual(["2026-10", "2026-11"]);
    expect(months[0]!.invoices.count).toBe(1);
    expect(months[1]).toMatchObject({
      invoices: { count: 1 },
      receipts: { count: 1 },
      credits: { count: 1 },
    });
    for (const key of ["netCents", "vatCents", "totalCents"] as const) {
      expect(months.reduce((sum, m) => sum + m.net[key], 0)).toBe(totals.net[key]);
      expect(months.reduce((sum, m) => sum + m.credits[key], 0)).toBe(totals.credits[key]);
    }

    // Where each one's money stands in mid-December: A is past due, C (due 30 December) not yet.
    expect(Object.fromEntries(listed.map((d) => [d.number, d.payment]))).toEqual({
      [invoiceA.number]: "overdue",
      [receiptB.number]: "paid",
      [creditA.number]: "credit",
      [invoiceC.number]: "awaiting_payment",
    });
    expect(listed.find((d) => d.kind === "credit_note")).toMatchObject({
      credits: invoiceA.number,
      title: "Credit note",
    });
  });

  it("the register CSV lists each document with credits negative, and adds up to the screen's total", async () => {
    const { invoiceA, creditA } = await aMonthOfDocuments();
    const autumn = range("2026-10-01", "2026-11-30");
    const [header, ...rows] = await csvOf(registerCsvResponse(autumn));
    expect(header).toEqual([...REGISTER_CSV_HEADER]);
    expect(rows).toHaveLength(4);
    const column = (name: (typeof REGISTER_CSV_HEADER)[number]) =>
      rows.map((row) => row[REGISTER_CSV_HEADER.indexOf(name)]!);
    const totals = await registerTotals(autumn);
    expect(column("Total (GBP)").reduce((sum, v) => sum + pence(v), 0)).toBe(totals.net.totalCents);
    expect(column("VAT (GBP)").reduce((sum, v) => sum + pence(v), 0)).toBe(totals.net.vatCents);
    const creditRow = rows.find((row) => row[0] === creditA.number)!;
    expect(creditRow).toEqual(
      expect.arrayContaining(["Credit note", "-100.00", invoiceA.number, "Credit"]),
    );
    const invoiceRow = rows.find((row) => row[0] === invoiceA.number)!;
    // The London day of issue: 1 October, though it was still 30 September in UTC.
    expect(invoiceRow.slice(1, 3)).toEqual(["VAT invoice", "2026-10-01"]);
    expect(invoiceRow).toEqual(
      expect.arrayContaining(["Analytical Engines Ltd", "GB987654321", "PO-77812"]),
    );
  });

  it("the Xero CSV has the import template's columns, a row per line, and the same money", async () => {
    const { invoiceA, creditA, invoiceC } = await aMonthOfDocuments();
    const autumn = range("2026-10-01", "2026-11-30");
    const [header, ...rows] = await csvOf(xeroCsvResponse(autumn, "4000"));
    expect(header!.join(",")).toBe(XERO_TEMPLATE_HEADER);
    const at = (row: string[], name: string) => row[header!.indexOf(name)]!;
    expect(rows.map((row) => at(row, "*InvoiceNumber"))).toEqual(
      (await registerDocuments(autumn)).map((d) => d.number),
    );
    const lineNet = (row: string[]) => Number(at(row, "*Quantity")) * pence(at(row, "*UnitAmount"));
    expect(rows.reduce((sum, row) => sum + lineNet(row), 0)).toBe(
      (await registerTotals(autumn)).net.netCents,
    );
    const a = rows.find((row) => at(row, "*InvoiceNumber") === invoiceA.number)!;
    expect(at(a, "*ContactName")).toBe("Analytical Engines Ltd");
    expect(at(a, "*InvoiceDate")).toBe("01/10/2026");
    // As the invoice prints it: 30 days after it was issued, a London day after the clocks went back.
    expect(at(a, "*DueDate")).toBe("30/10/2026");
    expect(at(a, "*AccountCode")).toBe("4000");
    expect(at(a, "*TaxType")).toBe("20% (VAT on Income)");
    expect(at(a, "Reference")).toBe(
      `${(invoiceA.snapshot as DocumentSnapshot).orderReference} PO PO-77812`,
    );
    const creditRow = rows.find((row) => at(row, "*InvoiceNumber") === creditA.number)!;
    expect(pence(at(creditRow, "*UnitAmount"))).toBeLessThan(0);
    expect(at(creditRow, "*Description")).toContain(invoiceA.number);
    const c = rows.find((row) => at(row, "*InvoiceNumber") === invoiceC.number)!;
    expect(at(c, "*InvoiceDate")).toBe("30/11/2026");
    expect(at(c, "Currency")).toBe("GBP");
  });

  it("the ZIP holds each document's PDF, named after its number, as the order page serves it", async () => {
    const { invoiceA, receiptB, creditA, invoiceC } = await aMonthOfDocuments();
    const files = unzipSync((await registerZip(range("2026-10-01", "2026-11-30")))!);
    expect(Object.keys(files).sort()).toEqual(
      [invoiceA, receiptB, creditA, invoiceC].map((d) => `${d.number}.pdf`).sort(),
    );
    const drawn = await drawDocumentPdf(creditA.snapshot as DocumentSnapshot);
    expect(Buffer.from(files[`${creditA.number}.pdf`]!).equals(drawn)).toBe(true);
  });

  it("the range from the URL: this London month so far by default, UK or ISO dates, never backwards", () => {
    const now = new Date("2026-11-01T00:30:00Z");
    expect(parseRegisterFilters(new URLSearchParams(""), now)).toEqual({
      from: "2026-11-01",
      to: "2026-11-01",
      page: 1,
    });
    expect(parseRegisterFilters(new URLSearchParams("from=01/10/2026&to=2026-10-31"), now)).toEqual(
      { from: "2026-10-01", to: "2026-10-31", page: 1 },
    );
    expect(parseRegisterFilters(new URLSearchParams("from=2026-10-05&to=2026-10-01"), now)).toEqual(
      { from: "2026-10-05", to: "2026-10-05", page: 1 },
    );
    expect(parseRegisterFilters(new URLSearchParams("from=31/02/2026&to=x"), now)).toEqual({
      from: "2026-11-01",
      to: "2026-11-01",
      page: 1,
    });
  });
});
