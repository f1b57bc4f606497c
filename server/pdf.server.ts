import PDFDocument from "pdfkit";

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
