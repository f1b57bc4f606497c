import { formatPence } from "#app/lib/format.ts";
import { formatVatRate } from "#app/lib/orders/vat.ts";
import { documentFilename, formatDocumentDate, winAnsiText } from "../invoices/pdf-text.server.ts";
import type { TotalsRow } from "../invoices/pdf-totals.server.ts";
import {
  A4,
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
import type { QuoteLine, QuoteSnapshot } from "./snapshot.server.ts";

/**
 * A quotation drawn as a PDF from the snapshot stored when it was sent (snapshot.server.ts), so a
 * PDF drawn later is the one the customer received. Laid out like an invoice, with the invoice
 * PDF's text helpers: seller and customer, the lines with unit prices excluding VAT, the totals,
 * the quote's terms, and how to accept it online before it lapses.
 *
 * Standard PDF fonts (Helvetica), so text is WinAnsi (winAnsiText). The same snapshot gives the
 * same bytes: the PDF's creation date (and the file id made from it) is the date of issue.
 */

interface Column extends TableHeading {
  cell: (line: QuoteLine) => string;
}

function columns(s: QuoteSnapshot): Column[] {
  return [
    { header: "Description", width: 265, align: "left", cell: (l) => l.description },
    { header: "Quantity", width: 60, align: "right", cell: (l) => String(l.quantity) },
    {
      header: s.vatRegistered ? "Unit price excl. VAT" : "Unit price",
      width: 85,
      align: "right",
      cell: (l) => formatPence(l.unitNetCents),
    },
    { header: "Amount", width: 85, align: "right", cell: (l) => formatPence(l.netCents) },
  ];
}

/**
 * Net, VAT at the quote's rate and the total; the VAT note (an empty amount) in place of the VAT
 * line when no UK VAT is charged; only the total when the seller is not VAT-registered.
 */
function quoteTotalsRows(s: QuoteSnapshot): TotalsRow[] {
  const total: TotalsRow = [`Total (${s.currency})`, formatPence(s.totalCents), true];
  if (!s.vatRegistered) return [total];
  const net: TotalsRow = ["Total excl. VAT (net)", formatPence(s.netCents), false];
  const vat: TotalsRow = s.vatNote
    ? [s.vatNote, "", false]
    : [`VAT at ${formatVatRate(s.vatRateBasisPoints)}`, formatPence(s.vatCents), false];
  return [net, vat, total];
}

/** The terms as paragraphs: one per non-empty line staff wrote. */
function paragraphs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Draws the quotation's pages onto `doc`. */
class QuoteDrawing extends DocumentDrawing {
  constructor(
    doc: PDFKit.PDFDocument,
    private readonly s: QuoteSnapshot,
  ) {
    super(doc);
  }

  draw(): void {
    this.heading();
    this.customer();
    this.lines();
    this.totals();
    this.terms();
    this.accept();
    this.footers(this.s.seller, this.s.number);
  }

  /** The seller (left) and the title, number and dates (right). */
  private heading(): void {
    const s = this.s;
    const leftWidth = 250;
    let left = MARGIN;
    this.font(true, 14);
    left += this.put(s.seller.legalName, MARGIN, left, leftWidth) + 4;
    this.font(false, 9, MUTED);
    for (const line of s.seller.addressLines) left += this.put(line, MARGIN, left, leftWidth);
    left += 4;
    const extra = [
      s.seller.companyNumber ? `Company no. ${s.seller.companyNumber}` : null,
      s.seller.vatNumber ? `VAT registration no. ${s.seller.vatNumber}` : null,
      s.seller.email,
    ];
    for (const line of extra) if (line) left += this.put(line, MARGIN, left, leftWidth);

    const rightX = MARGIN + 270;
    const rightWidth = CONTENT_WIDTH - 270;
    let right = MARGIN;
    this.font(true, 22);
    right += this.put(s.title || "Quotation", rightX, right, rightWidth, "right") + 8;
    const meta: [string, string | null][] = [
      ["Quotation number", s.number],
      ["Date of issue", formatDocumentDate(s.issuedAt)],
      ["Valid until", formatDocumentDate(s.validUntil)],
      ["Replaces quotation", s.supersedes?.number ?? null],
      ["Replaced quotation dated", s.supersedes ? formatDocumentDate(s.supersedes.issuedAt) : null],
    ];
    const labelWidth = 105;
    for (const [label, value] of meta) {
      if (!value) continue;
      this.font(false, 9, MUTED);
      this.put(label, rightX, right, labelWidth);
      this.font(true, 9);
      right += this.put(value, rightX + labelWidth, right, rightWidth - labelWidth, "right") + 2;
    }
    this.y = Math.max(left, right) + 24;
  }

  /** Whom the quotation is for. */
  private customer(): void {
    const c = this.s.customer;
    const width = 260;
    this.font(true, 8, MUTED);
    this.y += this.put("QUOTATION FOR", MARGIN, this.y, width) + 3;
    this.font(true, 10);
    this.y += this.put(c.organisation || c.name, MARGIN, this.y, width) + 1;
    const lines = [
      c.organisation ? c.name : null,
      ...c.addressLines,
      c.email,
      c.vatNumber ? `VAT no. ${c.vatNumber}` : null,
    ];
    this.font(false, 9.5);
    for (const line of lines) if (line) this.y += this.put(line, MARGIN, this.y, width);
    this.y += 22;
  }

  /** The table of lines: description, quantity, unit price and amount. */
  private lines(): void {
    const cols = columns(this.s);
    const pad = 5;
    this.ensureSpace(60);
    this.tableHeader(cols, pad);
    for (const line of this.s.lines) {
      this.font(false, 9.5);
      const height =
        Math.max(...cols.map((col) => this.height(col.cell(line), col.width - 2 * pad))) +
        2 * pad +
        2;
      if (this.y + height > BODY_BOTTOM) {
        this.ensureSpace(height + 40);
        this.tableHeader(cols, pad);
      }
      let x = MARGIN;
      for (const col of cols) {
        this.font(false, 9.5);
        this.put(col.cell(line), x + pad, this.y + pad, col.width - 2 * pad, col.align);
        x += col.width;
      }
      this.y += height;
      this.rule(this.y);
    }
    this.y += 12;
  }

  /** Net, VAT (or the note) and the total, right-aligned under the table. */
  private totals(): void {
    const rows = quoteTotalsRows(this.s);
    const x = MARGIN + CONTENT_WIDTH - 250;
    this.font(false, 9.5);
    const needed = rows.reduce((h, [label]) => h + this.height(label, 250) + 8, 10);
    this.ensureSpace(needed);
    for (const [label, value, strong] of rows) {
      if (strong) {
        this.rule(this.y - 3, INK);
        this.y += 3;
      }
      if (!value) {
        // The VAT note: no amount, so it may take the full width of the totals.
        this.font(false, 9, MUTED);
        this.y += this.put(label, x, this.y, 250) + 5;
        continue;
      }
      this.font(strong, strong ? 11 : 9.5, strong ? INK : MUTED);
      this.put(label, x, this.y, 160);
      this.font(strong, strong ? 11 : 9.5);
      this.y += this.put(value, x + 160, this.y, 90, "right") + 5;
    }
    this.y += 18;
  }

  /** A section's title, kept with at least the first two lines of what follows. */
  private title(text: string): void {
    this.ensureSpace(50);
    this.font(true, 10.5);
    this.y += this.put(text, MARGIN, this.y, CONTENT_WIDTH) + 4;
  }

  /** The quote's terms: paragraphs that flow onto the next page (breaking at BODY_BOTTOM). */
  private terms(): void {
    const list = paragraphs(this.s.terms);
    if (list.length === 0) return;
    this.title("Terms");
    for (const paragraph of list) {
      this.font(false, 9.5);
      this.ensureSpace(25);
      this.doc.text(winAnsiText(paragraph), MARGIN, this.y, {
        width: CONTENT_WIDTH,
        lineGap: 1,
      });
      this.y = this.doc.y + 4;
    }
    this.y += 12;
  }

  /** How to accept: the link (clickable) and the last day, and a PO number asked for. */
  private accept(): void {
    const s = this.s;
    this.title("How to accept");
    const lead = "Accept or decline this quotation online at ";
    const tail = ` by ${formatDocumentDate(s.validUntil)}. Please quote your purchase order number when you accept.`;
    this.font(false, 9.5);
    this.ensureSpace(this.height(lead + s.acceptUrl + tail, CONTENT_WIDTH) + 4);
    const options = { width: CONTENT_WIDTH, lineGap: 1, continued: true };
    this.doc.text(winAnsiText(lead), MARGIN, this.y, options);
    this.doc
      .fillColor(LINK)
      .text(winAnsiText(s.acceptUrl), { ...options, link: s.acceptUrl, underline: true });
    this.doc
      .fillColor(INK)
      .text(winAnsiText(tail), { ...options, link: null, underline: false, continued: false });
    this.y = this.doc.y + 12;
  }
}

/** The quotation as PDF bytes. */
export function drawQuotePdf(snapshot: QuoteSnapshot): Promise<Buffer> {
  const issuedAt = new Date(snapshot.issuedAt);
  const title = `${snapshot.title || "Quotation"} ${snapshot.number}`;
  return drawPdf(
    {
      // The bottom margin is the footer's: terms that flow on their own stop above it.
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: A4.height - BODY_BOTTOM },
      displayTitle: true,
      info: {
        Title: winAnsiText(title),
        Author: winAnsiText(snapshot.seller.legalName),
        Subject: winAnsiText(`${title} for ${snapshot.customer.organisation}`),
        Creator: winAnsiText(snapshot.seller.legalName),
        Producer: "PDFKit",
        CreationDate: issuedAt,
        ModDate: issuedAt,
      },
    },
    (doc) => new QuoteDrawing(doc, snapshot).draw(),
  );
}

/** The attachment's and the download's file name: 'Q-2026-0001.pdf'. */
export function quoteFilename(snapshot: Pick<QuoteSnapshot, "number">): string {
  return documentFilename(snapshot.number);
}
