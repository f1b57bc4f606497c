import PDFDocument from "pdfkit";
import { winAnsiText } from "./invoices/pdf-text.server.ts";

/**
 * A PDF drawn with PDFKit, as bytes: the invoices, receipts and credit notes, and the registers'
 * sign-in sheets. `draw` lays out the pages of a new document made with `options`; the pages
 * are kept until the end (`bufferPages`) so footers can number them. A drawing error rejects,
 * once the half-drawn document is closed.
 */
export function drawPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", bufferPages: true, lang: "en-GB", ...options });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  try {
    draw(doc);
    doc.flushPages();
    doc.end();
  } catch (error) {
    doc.end();
    return done.then(() => Promise.reject(error));
  }
  return done;
}

/** A4 in points, and the layout the invoice and quotation PDFs share. */
export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = 50;
export const CONTENT_WIDTH = A4.width - 2 * MARGIN;
/** Where the body stops, above the footer. */
export const BODY_BOTTOM = A4.height - 80;
const FOOTER_Y = A4.height - 50;

export const INK = "#111111";
export const MUTED = "#555555";
export const LINK = "#1d4ed8";
const RULE = "#cccccc";
const SHADE = "#f0f1f3";

/** A table column's heading: its text, width and alignment. */
export interface TableHeading {
  header: string;
  width: number;
  align: "left" | "right";
}

/**
 * What the invoices' and quotations' drawings share: text placed and measured in WinAnsi (the
 * standard fonts), the running position `y`, page breaks above the footer, rules, a table's
 * shaded header row, and the footer on every page. Subclasses draw their own sections.
 */
export abstract class DocumentDrawing {
  protected y = MARGIN;

  constructor(protected readonly doc: PDFKit.PDFDocument) {}

  protected font(bold: boolean, size: number, color = INK): this {
    this.doc
      .font(bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(size)
      .fillColor(color);
    return this;
  }

  /** Text at (x, y) within `width`, wrapped; returns its height. */
  protected put(
    text: string,
    x: number,
    y: number,
    width: number,
    align: "left" | "right" = "left",
  ): number {
    const safe = winAnsiText(text);
    this.doc.text(safe, x, y, { width, align, lineGap: 1 });
    return this.doc.heightOfString(safe, { width, lineGap: 1 });
  }

  protected height(text: string, width: number): number {
    return this.doc.heightOfString(winAnsiText(text), { width, lineGap: 1 });
  }

  /** Starts a new page when `needed` points do not fit above the footer. */
  protected ensureSpace(needed: number): void {
    if (this.y + needed <= BODY_BOTTOM) return;
    this.doc.addPage();
    this.y = MARGIN;
  }

  protected rule(y: number, color = RULE): void {
    this.doc
      .moveTo(MARGIN, y)
      .lineTo(MARGIN + CONTENT_WIDTH, y)
      .lineWidth(0.5)
      .strokeColor(color)
      .stroke();
  }

  /** A table's header row, shaded, its cells padded by `pad`. */
  protected tableHeader(cols: readonly TableHeading[], pad: number): void {
    this.font(true, 8, MUTED);
    const height =
      Math.max(...cols.map((col) => this.height(col.header, col.width - 2 * pad))) + 2 * pad;
    this.doc.rect(MARGIN, this.y, CONTENT_WIDTH, height).fillColor(SHADE).fill();
    this.font(true, 8, MUTED);
    let x = MARGIN;
    for (const col of cols) {
      this.put(col.header, x + pad, this.y + pad, col.width - 2 * pad, col.align);
      x += col.width;
    }
    this.y += height;
  }

  /** Seller, document number and 'Page n of m' at the foot of every page. */
  protected footers(
    seller: { legalName: string; companyNumber: string | null; vatNumber: string | null },
    number: string,
  ): void {
    const range = this.doc.bufferedPageRange();
    const parts = [
      seller.legalName,
      seller.companyNumber ? `Company no. ${seller.companyNumber}` : null,
      seller.vatNumber ? `VAT no. ${seller.vatNumber}` : null,
      number,
    ].filter(Boolean);
    for (let i = 0; i < range.count; i++) {
      this.doc.switchToPage(range.start + i);
      // The footer sits in the bottom margin: lift it so pdfkit does not start a new page.
      const bottom = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      this.rule(FOOTER_Y - 6);
      this.font(false, 7.5, MUTED);
      this.put(parts.join(" · "), MARGIN, FOOTER_Y, CONTENT_WIDTH - 80);
      this.put(
        `Page ${i + 1} of ${range.count}`,
        MARGIN + CONTENT_WIDTH - 80,
        FOOTER_Y,
        80,
        "right",
      );
      this.doc.page.margins.bottom = bottom;
    }
  }
}
