import { londonDate } from "#app/lib/admin/time.ts";
import { formatDateRange } from "#app/lib/catalogue/course-dates.ts";
import type { DateRegister } from "#app/lib/catalogue/register.ts";
import { winAnsiText } from "../invoices/pdf-text.server.ts";
import { config } from "../config.server.ts";
import { drawPdf } from "../pdf.server.ts";

/**
 * A date's register drawn as a printable sign-in sheet (decision 0035): the course, when and
 * where, then one row per booked place (student, organisation, order) with a box to sign, the
 * heading repeated on each page. Standard PDF fonts (Helvetica, WinAnsi), as the invoices use.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const ROW_HEIGHT = 30;
const BOTTOM = A4.height - 60;
const MUTED = "#555555";
const RULE = "#999999";

const COLUMNS = [
  { header: "#", width: 25 },
  { header: "Student", width: 165 },
  { header: "Organisation", width: 130 },
  { header: "Order", width: 75 },
  { header: "Signature", width: A4.width - 2 * MARGIN - 395 },
] as const;

export function signInSheetFilename(register: DateRegister): string {
  return `sign-in-sheet-${londonDate(new Date(register.date.startsAt))}.pdf`;
}

export function drawSignInSheet(register: DateRegister): Promise<Buffer> {
  const { date } = register;
  return drawPdf(
    {
      margin: MARGIN,
      displayTitle: true,
      info: {
        Title: winAnsiText(`Sign-in sheet: ${date.courseTitle}`),
        Author: winAnsiText(config.seller.legalName),
        Producer: "PDFKit",
      },
    },
    (doc) => drawSheet(doc, register),
  );
}

function drawSheet(doc: PDFKit.PDFDocument, register: DateRegister): void {
  const { date, places } = register;
  const where =
    date.format === "online"
      ? "Online"
      : [date.venueName, date.venueTown].filter(Boolean).join(", ");

  let y = MARGIN;
  const heading = () => {
    doc.font("Helvetica-Bold").fontSize(16).fillColor("#111111");
    doc.text("Sign-in sheet", MARGIN, y);
    y += 24;
    doc.font("Helvetica-Bold").fontSize(11);
    doc.text(winAnsiText(date.courseTitle), MARGIN, y, { width: A4.width - 2 * MARGIN });
    y = doc.y + 4;
    doc.font("Helvetica").fontSize(10).fillColor(MUTED);
    doc.text(winAnsiText(`${formatDateRange(date.startsAt, date.endsAt)} · ${where}`), MARGIN, y);
    y = doc.y + 14;
    let x = MARGIN;
    doc.font("Helvetica-Bold").fontSize(9).fillColor("#111111");
    for (const column of COLUMNS) {
      doc.text(column.header, x + 3, y, { width: column.width - 6 });
      x += column.width;
    }
    y += 14;
    doc
      .moveTo(MARGIN, y)
      .lineTo(A4.width - MARGIN, y)
      .strokeColor(RULE)
      .stroke();
  };

  heading();
  if (places.length === 0) {
    doc.font("Helvetica").fontSize(10).fillColor(MUTED);
    doc.text("No places are booked on this date.", MARGIN, y + 10);
  }
  places.forEach((place, i) => {
    if (y + ROW_HEIGHT > BOTTOM) {
      doc.addPage();
      y = MARGIN;
      heading();
    }
    const cells = [
      String(i + 1),
      place.name ?? "Name to follow",
      place.organisation ?? "",
      place.orderReference,
      "",
    ];
    let x = MARGIN;
    doc
      .font("Helvetica")
      .fontSize(9)
      .fillColor(place.name ? "#111111" : MUTED);
    cells.forEach((cell, c) => {
      doc.text(winAnsiText(cell), x + 3, y + 10, {
        width: COLUMNS[c]!.width - 6,
        height: ROW_HEIGHT - 10,
        ellipsis: true,
        lineBreak: false,
      });
      x += COLUMNS[c]!.width;
    });
    y += ROW_HEIGHT;
    doc
      .moveTo(MARGIN, y)
      .lineTo(A4.width - MARGIN, y)
      .strokeColor(RULE)
      .stroke();
  });
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(8).fillColor(MUTED);
    doc.text(
      winAnsiText(`${places.length} places · page ${i + 1} of ${range.count}`),
      MARGIN,
      A4.height - 40,
      { width: A4.width - 2 * MARGIN, align: "right", lineBreak: false },
    );
    doc.page.margins.bottom = bottom;
  }
}
