import { formatPence } from "#app/lib/format.ts";
import { creditedDocumentName } from "#app/lib/orders/orders.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";
import type { DocumentLine, DocumentSnapshot } from "./snapshot.server.ts";
import {
  BODY_BOTTOM,
  CONTENT_WIDTH,
  DocumentDrawing,
  drawPdf,
  INK,
  LINK,
  MARGIN,
  MUTED,
  type TableHeading,
} from "../pdf.server.ts";
import { formatDocumentDate, winAnsiText } from "./pdf-text.server.ts";
import { invoicePayment, totalsRows } from "./pdf-totals.server.ts";

/**
 * An invoice, VAT receipt or credit note drawn as a PDF (decision 0015), from the snapshot stored
 * when it was issued (documents.server.ts), so the PDF drawn today or in six years is the one
 * that was sent. It prints what HMRC asks of a full VAT invoice (VAT Notice 700 §16.3): number,
 * date of issue, time of supply, the seller's name, address and VAT number, the customer's name
 * and address, the description, unit price excluding VAT, quantity, VAT rate and amount, and the
 * totals; and, as finance teams need them, the PO number, the due date and how to pay.
 *
 * The standard PDF fonts (Helvetica) are used: nothing to embed, small files. They cover
 * Windows-1252 (WinAnsi: '£', '€', accented Latin letters, typographic quotes); anything else a
 * buyer typed is shown by its nearest WinAnsi letter, or '?'. Output is the same bytes for the
 * same snapshot: the PDF's creation date (and the file id made from it) is the date of issue.
 */

const NUMBER_LABELS: Record<DocumentSnapshot["kind"], string> = {
  invoice: "Invoice number",
  receipt: "Receipt number",
  credit_note: "Credit note number",
};

/**
 * A credit note's rows naming what it credits, by the credited document's own title ("Credits:
 * VAT receipt INV-…"). Credit notes kept without that title credited invoices, and are drawn as
 * they were sent.
 */
function creditsRows(credits: DocumentSnapshot["credits"]): [string, string | null][] {
  if (!credits) return [];
  const dated = formatDocumentDate(credits.issuedAt);
  if (!credits.title)
    return [
      ["Credits invoice", credits.number],
      ["Invoice dated", dated],
    ];
  return [
    ["Credits", `${credits.title} ${credits.number}`],
    [`${credits.title} dated`, dated],
  ];
}

interface Column extends TableHeading {
  cell: (line: DocumentLine) => string;
}

function columns(snapshot: DocumentSnapshot): Column[] {
  const money = (cents: number) => formatPence(cents);
  if (!snapshot.vatRegistered) {
    return [
      { header: "Description", width: 265, align: "left", cell: (l) => l.description },
      { header: "Quantity", width: 60, align: "right", cell: (l) => String(l.quantity) },
      { header: "Unit price", width: 85, align: "right", cell: (l) => money(l.unitNetCents) },
      { header: "Amount", width: 85, align: "right", cell: (l) => money(l.netCents) },
    ];
  }
  return [
    { header: "Description", width: 175, align: "left", cell: (l) => l.description },
    { header: "Qty", width: 35, align: "right", cell: (l) => String(l.quantity) },
    {
      header: "Unit price excl. VAT",
      width: 75,
      align: "right",
      cell: (l) => money(l.unitNetCents),
    },
    { header: "Net", width: 75, align: "right", cell: (l) => money(l.netCents) },
    {
      header: "VAT rate",
      width: 55,
      align: "right",
      cell: (l) => formatVatRate(l.vatRateBasisPoints),
    },
    { header: "VAT", width: 80, align: "right", cell: (l) => money(l.vatCents) },
  ];
}

/** Draws the document's pages onto `doc`. */
class InvoiceDrawing extends DocumentDrawing {
  constructor(
    doc: PDFKit.PDFDocument,
    private readonly s: DocumentSnapshot,
  ) {
    super(doc);
  }

  draw(): void {
    this.heading();
    this.parties();
    this.lines();
    this.totals();
    this.closing();
    this.footers(this.s.seller, this.s.number);
  }

  /** The seller (left) and the document's title, number and dates (right). */
  private heading(): void {
    const s = this.s;
    const leftWidth = 250;
    let left = MARGIN;
    this.font(true, 14);
    left += this.put(s.seller.legalName, MARGIN, left, leftWidth) + 4;
    this.font(false, 9, MUTED);
    for (const line of s.seller.addressLines) left += this.put(line, MARGIN, left, leftWidth);
    left += 4;
    if (s.seller.companyNumber) {
      left += this.put(`Company no. ${s.seller.companyNumber}`, MARGIN, left, leftWidth);
    }
    if (s.seller.vatNumber) {
      left += this.put(`VAT registration no. ${s.seller.vatNumber}`, MARGIN, left, leftWidth);
    }

    const rightX = MARGIN + 270;
    const rightWidth = CONTENT_WIDTH - 270;
    let right = MARGIN;
    this.font(true, 22);
    right += this.put(s.title, rightX, right, rightWidth, "right") + 8;
    const meta: [string, string | null][] = [
      [NUMBER_LABELS[s.kind], s.number],
      ["Date of issue", formatDocumentDate(s.issuedAt)],
      ["Time of supply", s.kind === "credit_note" ? null : formatDocumentDate(s.timeOfSupply)],
      ["Due date", s.dueDate ? formatDocumentDate(s.dueDate) : null],
      ...creditsRows(s.credits),
      [
        /receipt/i.test(s.replaces?.title ?? "") ? "Replaces receipt" : "Replaces invoice",
        s.replaces?.number ?? null,
      ],
      ["Order reference", s.orderReference],
      ["Your PO number", s.customer.poNumber],
    ];
    const labelWidth = 95;
    for (const [label, value] of meta) {
      if (!value) continue;
      this.font(false, 9, MUTED);
      this.put(label, rightX, right, labelWidth);
      this.font(true, 9);
      right += this.put(value, rightX + labelWidth, right, rightWidth - labelWidth, "right") + 2;
    }
    this.y = Math.max(left, right) + 24;
  }

  /** Who is billed. */
  private parties(): void {
    const c = this.s.customer;
    const width = 260;
    const lines = [
      c.organisation,
      ...c.addressLines,
      c.email,
      c.vatNumber ? `VAT no. ${c.vatNumber}` : null,
    ].filter((l): l is string => Boolean(l));
    this.font(true, 8, MUTED);
    this.y +=
      this.put(this.s.kind === "credit_note" ? "CREDITED TO" : "BILL TO", MARGIN, this.y, width) +
      3;
    this.font(true, 10);
    this.y += this.put(c.name, MARGIN, this.y, width) + 1;
    this.font(false, 9.5);
    for (const line of lines) this.y += this.put(line, MARGIN, this.y, width);
    this.y += 22;
  }

  /** The table of lines: description and students, quantity, unit price, net, VAT. */
  private lines(): void {
    const cols = columns(this.s);
    const pad = 5;
    this.ensureSpace(60);
    this.tableHeader(cols, pad);
    for (const line of this.s.lines) {
      const descWidth = cols[0]!.width - 2 * pad;
      this.font(true, 9.5);
      const descHeight = this.height(line.description, descWidth);
      this.font(false, 8.5);
      const detailHeight = line.detail.reduce((h, d) => h + this.height(d, descWidth) + 2, 0);
      const height = descHeight + detailHeight + 2 * pad + 2;
      if (this.y + height > BODY_BOTTOM) {
        this.ensureSpace(height + 40);
        this.tableHeader(cols, pad);
      }
      let x = MARGIN;
      for (const [i, col] of cols.entries()) {
        if (i === 0) {
          this.font(true, 9.5);
          let y = this.y + pad + this.put(line.description, x + pad, this.y + pad, descWidth) + 2;
          this.font(false, 8.5, MUTED);
          for (const d of line.detail) y += this.put(d, x + pad, y, descWidth) + 2;
        } else {
          this.font(false, 9.5);
          this.put(col.cell(line), x + pad, this.y + pad, col.width - 2 * pad, col.align);
        }
        x += col.width;
      }
      this.y += height;
      this.rule(this.y);
    }
    this.y += 12;
  }

  /** Net, VAT and the total (and what was received), right-aligned under the table. */
  private totals(): void {
    const rows = totalsRows(this.s);
    this.ensureSpace(rows.length * 18 + 10);
    const x = MARGIN + CONTENT_WIDTH - 250;
    for (const [label, value, strong] of rows) {
      if (strong) {
        this.rule(this.y - 3, INK);
        this.y += 3;
      }
      this.font(strong, strong ? 11 : 9.5, strong ? INK : MUTED);
      this.put(label, x, this.y, 160);
      this.font(strong, strong ? 11 : 9.5);
      this.y += this.put(value, x + 160, this.y, 90, "right") + 5;
    }
    this.y += 18;
  }

  private section(title: string, paragraphs: string[], rows: [string, string | undefined][] = []) {
    const width = CONTENT_WIDTH;
    this.font(false, 9.5);
    const needed =
      20 +
      paragraphs.reduce((h, p) => h + this.height(p, width) + 4, 0) +
      rows.filter((r) => r[1]).length * 14;
    this.ensureSpace(needed);
    this.font(true, 10.5);
    this.y += this.put(title, MARGIN, this.y, width) + 4;
    for (const paragraph of paragraphs) {
      this.font(false, 9.5);
      this.y += this.put(paragraph, MARGIN, this.y, width) + 4;
    }
    for (const [label, value] of rows) {
      if (!value) continue;
      this.font(false, 9.5, MUTED);
      this.put(label, MARGIN, this.y, 110);
      this.font(true, 9.5);
      this.y += this.put(value, MARGIN + 110, this.y, width - 110) + 2;
    }
    this.y += 12;
  }

  /** "Pay by card online", a link to the booker's page (the address is too long to print). */
  private cardLink(url: string): void {
    this.ensureSpace(30);
    this.font(false, 9.5);
    const lead = "Or pay by card online: ";
    this.doc.text(winAnsiText(lead), MARGIN, this.y, { continued: true, lineGap: 1 });
    this.doc
      .fillColor(LINK)
      .text("open your booking and choose Pay by card", { link: url, underline: true });
    this.doc.fillColor(INK);
    this.y += this.height(lead, CONTENT_WIDTH) + 16;
  }

  /** How to pay (invoice), when it was paid (receipt), or what is credited and why. */
  private closing(): void {
    const s = this.s;
    const payment = invoicePayment(s);
    if (payment) {
      this.section(payment.title, payment.paragraphs, payment.rows);
      if (payment.cardUrl) this.cardLink(payment.cardUrl);
    } else if (s.kind === "receipt" && s.paid) {
      this.section("Payment received", [
        `Paid in full on ${formatDocumentDate(s.paid.at)} by ${s.paid.method.toLowerCase()}. Thank you; nothing more is due.`,
      ]);
    } else if (s.kind === "credit_note" && s.credits) {
      this.section("Credit", [
        `This credit note credits ${creditedDocumentName(s.credits)} of ${formatDocumentDate(s.credits.issuedAt)} by ${formatPence(s.totalCents)}${s.vatRegistered ? `, of which VAT ${formatPence(s.vatCents)}` : ""}.`,
        ...(s.reason ? [`Reason: ${s.reason}`] : []),
      ]);
    }
    if (s.vatNote) this.section("VAT", [s.vatNote]);
    if (s.vatRegistered && s.pricesIncludeVat && s.kind !== "credit_note") {
      this.font(false, 8.5, MUTED);
      this.ensureSpace(20);
      this.y +=
        this.put(
          "Course prices include VAT; the unit price excluding VAT is rounded to the penny.",
          MARGIN,
          this.y,
          CONTENT_WIDTH,
        ) + 6;
    }
  }
}

/** The document as PDF bytes. */
export function drawDocumentPdf(snapshot: DocumentSnapshot): Promise<Buffer> {
  const issuedAt = new Date(snapshot.issuedAt);
  return drawPdf(
    {
      margin: MARGIN,
      displayTitle: true,
      info: {
        Title: winAnsiText(`${snapshot.title} ${snapshot.number}`),
        Author: winAnsiText(snapshot.seller.legalName),
        Subject: winAnsiText(
          `${snapshot.title} ${snapshot.number} for order ${snapshot.orderReference}`,
        ),
        Creator: winAnsiText(snapshot.seller.legalName),
        Producer: "PDFKit",
        CreationDate: issuedAt,
        ModDate: issuedAt,
      },
    },
    (doc) => new InvoiceDrawing(doc, snapshot).draw(),
  );
}
