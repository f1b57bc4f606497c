import { describe, expect, it, vi } from "vitest";
import type { DocumentSnapshot } from "#server/invoices/snapshot.server.ts";
import { documentPdf } from "#server/invoices/document-files.server.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { mails, onlyDocument, placeOrder } from "#tests/support/invoices.ts";
import { ADMIN } from "#tests/support/orders.ts";
import { pdfText } from "#tests/support/pdf-text.ts";

/**
 * A seller without bank details who says how to pay instead (PAYMENT_INSTRUCTIONS): the invoice's
 * PDF and its e-mail print those words, not "Contact us", and the invoice keeps them as issued.
 */
const INSTRUCTIONS = "Please call our accounts team on 020 7946 0000 to pay by card.";

await vi.hoisted(async () => {
  const { VAT_SELLER_ENV } = await import("../support/seller-env.ts");
  const {
    BANK_ACCOUNT_NAME: _n,
    BANK_SORT_CODE: _s,
    BANK_ACCOUNT_NUMBER: _a,
    ...noBank
  } = VAT_SELLER_ENV;
  Object.assign(process.env, noBank, {
    PAYMENT_INSTRUCTIONS: "Please call our accounts team on 020 7946 0000 to pay by card.",
  });
});

useFreshDatabase();

describe("an invoice without bank details", () => {
  it("prints the seller's payment instructions on the PDF and in the e-mail", async () => {
    const order = await placeOrder();
    await changeOrderStatusByAdmin(order.id, "invoiced", ADMIN);
    const invoice = (await onlyDocument(order.id))!;
    const snapshot = invoice.snapshot as DocumentSnapshot;
    expect(snapshot.payment).toMatchObject({ bank: null, instructions: INSTRUCTIONS });
    const text = await pdfText((await documentPdf(invoice.id))!.pdf);
    expect(text.replace(/\s+/g, " ")).toContain(INSTRUCTIONS);
    expect(text).not.toContain("Contact us for our bank details");
    const [mail] = await mails(order.id, "invoice_issued");
    expect(mail!.text).toContain(INSTRUCTIONS);
    expect(mail!.text).not.toContain("for our bank details");
  });
});
