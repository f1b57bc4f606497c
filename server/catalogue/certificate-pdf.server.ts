import QRCode from "qrcode";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import { cpdHoursText } from "#app/lib/catalogue/certificates.ts";
import { formatDocumentDate, winAnsiText } from "../invoices/pdf-text.server.ts";
import { config } from "../config.server.ts";
import { drawPdf } from "../pdf.server.ts";

/**
 * A certificate of attendance drawn as a one-page landscape PDF (decision 0036): who attended
 * which course and when, the CPD hours, the issuer, the certificate's number and a QR code to
 * its verification page. Standard PDF fonts (Helvetica, WinAnsi), as the invoices use; the QR
 * code is drawn as vector squares, so the file needs no image.
 */

export interface CertificateContent {
  number: string;
  holderName: string;
  courseTitle: string;
  startsAt: Date;
  endsAt: Date;
  cpdHours: string | null;
  issuedAt: Date;
  /** The verification page's absolute address. */
  verifyUrl: string;
}

const PAGE = { width: 841.89, height: 595.28 };
const MARGIN = 56;
const INK = "#111111";
const MUTED = "#555555";
const ACCENT = "#1f3a5f";

export function certificateFilename(number: string): string {
  return `certificate-${number}.pdf`;
}

export function drawCertificate(content: CertificateContent): Promise<Buffer> {
  return drawPdf(
    {
      size: "A4",
      layout: "landscape",
      margin: MARGIN,
      displayTitle: true,
      info: {
        Title: winAnsiText(`Certificate of attendance ${content.number}`),
        Author: winAnsiText(config.seller.legalName),
        Producer: "PDFKit",
        CreationDate: content.issuedAt,
      },
    },
    (doc) => drawPage(doc, content),
  );
}

function drawPage(doc: PDFKit.PDFDocument, c: CertificateContent): void {
  const width = PAGE.width - 2 * MARGIN;
  doc
    .lineWidth(3)
    .rect(24, 24, PAGE.width - 48, PAGE.height - 48)
    .strokeColor(ACCENT)
    .stroke();
  doc.lineWidth(1);

  const centred = { width, align: "center" as const };
  doc.font("Helvetica").fontSize(11).fillColor(MUTED);
  doc.text(winAnsiText(config.seller.legalName).toUpperCase(), MARGIN, 64, {
    ...centred,
    characterSpacing: 2,
  });
  doc.font("Helvetica-Bold").fontSize(30).fillColor(ACCENT);
  doc.text("Certificate of Attendance", MARGIN, 92, centred);
  doc.font("Helvetica").fontSize(13).fillColor(MUTED);
  doc.text("This is to certify that", MARGIN, 150, centred);
  doc.font("Helvetica-Bold").fontSize(26).fillColor(INK);
  doc.text(winAnsiText(c.holderName), MARGIN, 176, { ...centred, height: 34, ellipsis: true });
  doc.font("Helvetica").fontSize(13).fillColor(MUTED);
  doc.text("attended", MARGIN, 222, centred);
  doc.font("Helvetica-Bold").fontSize(18).fillColor(INK);
  doc.text(winAnsiText(c.courseTitle), MARGIN, 246, { ...centred, height: 48, ellipsis: true });
  doc.font("Helvetica").fontSize(13).fillColor(INK);
  const when = [formatDateRange(c.startsAt, c.endsAt), cpdHoursText(c.cpdHours)]
    .filter(Boolean)
    .join(" · ");
  doc.text(winAnsiText(when), MARGIN, doc.y + 10, centred);

  // The issuer, bottom left; the QR code and number, bottom right.
  const bottom = PAGE.height - MARGIN - 96;
  const seller = config.seller;
  doc.font("Helvetica-Bold").fontSize(10).fillColor(INK);
  doc.text(winAnsiText(`Issued by ${seller.legalName}`), MARGIN, bottom, { width: 380 });
  doc.font("Helvetica").fontSize(9).fillColor(MUTED);
  const issuer = [
    seller.addressLines.join(", "),
    seller.companyNumber ? `Company number ${seller.companyNumber}` : "",
    `Issued ${formatDocumentDate(c.issuedAt.toISOString())}`,
  ].filter(Boolean);
  let y = doc.y + 4;
  for (const line of issuer) {
    doc.text(winAnsiText(line), MARGIN, y, { width: 380 });
    y = doc.y + 2;
  }

  const qrSize = 84;
  const qrX = PAGE.width - MARGIN - qrSize;
  drawQrCode(doc, c.verifyUrl, qrX, bottom - 4, qrSize);
  const textRight = qrX - 14;
  doc.font("Helvetica-Bold").fontSize(11).fillColor(INK);
  doc.text(`Certificate ${c.number}`, textRight - 300, bottom + 18, { width: 300, align: "right" });
  doc.font("Helvetica").fontSize(8).fillColor(MUTED);
  doc.text(winAnsiText(`Verify at ${c.verifyUrl}`), textRight - 300, doc.y + 4, {
    width: 300,
    align: "right",
  });
}

/** `text` as a QR code (error correction M) in a `size`-point square at (x, y), quiet zone included. */
function drawQrCode(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 2;
  const cell = size / (modules.size + 2 * quiet);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) {
        doc.rect(x + (col + quiet) * cell, y + (row + quiet) * cell, cell, cell);
      }
    }
  }
  doc.fillColor(INK).fill();
}
