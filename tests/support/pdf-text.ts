import { extractText, getDocumentProxy } from "unpdf";

/**
 * The text of a PDF, as a reader's copy-and-paste would get it (PDF.js, through unpdf): pages
 * joined by new lines, runs of white space made one space. For tests that check what an
 * invoice, receipt or credit note says.
 */
export async function pdfText(pdf: Uint8Array | ArrayBuffer): Promise<string> {
  // PDF.js takes the buffer over: give it a copy, so the caller's bytes stay readable.
  const bytes = new Uint8Array(pdf instanceof Uint8Array ? pdf.slice() : pdf.slice(0));
  const document = await getDocumentProxy(bytes);
  try {
    const { text } = await extractText(document, { mergePages: false });
    return text.map((page) => page.replace(/\s+/g, " ").trim()).join("\n");
  } finally {
    await document.destroy();
  }
}

/** How many pages the PDF has. */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  const document = await getDocumentProxy(new Uint8Array(pdf.slice()));
  try {
    return document.numPages;
  } finally {
    await document.destroy();
  }
}
