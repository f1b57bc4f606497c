/**
 * CSV for the admin exports (RFC 4180, CRLF line ends). Visitor-typed text reaches these files,
 * so a cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) is prefixed with an
 * apostrophe and shown as text; a bare negative figure stays a number.
 */

export type CsvValue = string | number | boolean | Date | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  // A plain negative figure ('-100.00', a credit) is a number to a spreadsheet, not a formula.
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/**
 * A streamed CSV download: the header row, then each batch of rows as it is read, so a large
 * export never sits whole in memory. A UTF-8 byte-order mark lets Excel read accents correctly.
 */
export function csvResponse(
  fileName: string,
  header: readonly string[],
  rows: AsyncIterable<readonly CsvValue[][]>,
): Response {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvRow(header)}`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvRow).join("")));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
