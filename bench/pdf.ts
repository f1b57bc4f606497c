import { performance } from "node:perf_hooks";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { drawDocumentPdf } from "#server/invoices/pdf.server.ts";
import { percentile, round, table } from "./lib.ts";

/**
 * PDF documents (decision 0015): how long drawing one invoice, receipt or credit note takes in this
 * process (what the outbox worker and the admin download spend per document) and how large the
 * file is. No server or database: the snapshot is what order_documents stores.
 */

const issuedAt = "2026-11-23T10:00:00.000Z";

const invoice: DocumentSnapshot = {
  kind: "invoice",
  number: "INV-2026-0001",
  title: "VAT invoice",
  issuedAt,
  timeOfSupply: issuedAt,
  dueDate: "2026-12-23T10:00:00.000Z",
  orderId: "0b8f2c1e-1111-4222-8333-444455556666",
  orderReference: "NW-0B8F2C1E",
  currency: "GBP",
  vatRegistered: true,
  pricesIncludeVat: false,
  seller: {
    legalName: "NightWatch Intelligence Ltd",
    addressLines: ["1 High Street", "London", "EC1A 1AA"],
    companyNumber: "01234567",
    vatNumber: "GB123456789",
  },
  customer: {
    name: "Ada Lovelace",
    organisation: "Analytical Engines Ltd",
    addressLines: ["2 Babbage Row", "Floor 3", "Cambridge", "CB2 1TN", "United Kingdom"],
    email: "ada@example.com",
    vatNumber: "GB987654321",
    poNumber: "PO-77812",
  },
  lines: [
    {
      description: "OSINT Investigations Masterclass",
      detail: ["Students: Grace Hopper, Alan Turing, Katherine Johnson"],
      quantity: 3,
      unitNetCents: 145_000,
      netCents: 435_000,
      vatRateBasisPoints: 2000,
      vatCents: 87_000,
    },
  ],
  netCents: 435_000,
  vatCents: 87_000,
  totalCents: 522_000,
  payment: {
    termsDays: 30,
    reference: "NW-0B8F2C1E",
    bank: {
      accountName: "NightWatch Intelligence Ltd",
      sortCode: "12-34-56",
      accountNumber: "12345678",
    },
  },
  paid: null,
  credits: null,
  reason: null,
};

/** Ten named students: the largest order the checkout takes. */
const tenPlaces: DocumentSnapshot = {
  ...invoice,
  lines: [
    {
      ...invoice.lines[0]!,
      detail: [
        `Students: ${Array.from({ length: 10 }, (_, i) => `Student${i + 1} Surname-Longer`).join(", ")}`,
      ],
      quantity: 10,
      netCents: 1_450_000,
      vatCents: 290_000,
    },
  ],
  netCents: 1_450_000,
  vatCents: 290_000,
  totalCents: 1_740_000,
};

const creditNote: DocumentSnapshot = {
  ...invoice,
  kind: "credit_note",
  number: "CN-2026-0001",
  title: "Credit note",
  dueDate: null,
  payment: null,
  credits: { number: "INV-2026-0001", issuedAt },
  reason: "Order canceled",
  lines: [
    {
      ...invoice.lines[0]!,
      description: "Credit for INV-2026-0001: OSINT Investigations Masterclass",
      detail: ["Reason: Order canceled"],
      quantity: 1,
      unitNetCents: 435_000,
    },
  ],
};

export interface PdfBenchRow {
  document: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  bytes: number;
}

export async function runPdfBench(options: {
  runs: number;
}): Promise<{ documents: PdfBenchRow[] }> {
  const cases: [string, DocumentSnapshot][] = [
    ["invoice, 3 places", invoice],
    ["invoice, 10 places", tenPlaces],
    ["credit note", creditNote],
  ];
  const rows: PdfBenchRow[] = [];
  for (const [name, snapshot] of cases) {
    // Warm-up: font metrics loaded, code compiled.
    for (let i = 0; i < 5; i++) await drawDocumentPdf(snapshot);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < options.runs; i++) {
      const started = performance.now();
      const pdf = await drawDocumentPdf(snapshot);
      times.push(performance.now() - started);
      bytes = pdf.length;
    }
    times.sort((a, b) => a - b);
    rows.push({
      document: name,
      runs: options.runs,
      medianMs: round(percentile(times, 50), 2),
      p95Ms: round(percentile(times, 95), 2),
      bytes,
    });
  }
  console.log(
    table(
      ["document", "runs", "median ms", "p95 ms", "bytes"],
      rows.map((r) => [r.document, r.runs, r.medianMs, r.p95Ms, r.bytes]),
    ),
  );
  return { documents: rows };
}
