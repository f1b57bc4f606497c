/**
 * What an invoice, VAT receipt or credit note prints, as it was when issued (decision 0015): the
 * snapshot stored as JSON with each document (order_documents), which the PDF (pdf.server.ts),
 * the e-mails and the register read. Issuing it: documents.server.ts.
 */

export type DocumentKind = "invoice" | "receipt" | "credit_note";

export interface DocumentLine {
  description: string;
  /** Who attends, printed under the description. */
  detail: string[];
  quantity: number;
  /** Excluding VAT, in pence (rounded when prices include VAT). */
  unitNetCents: number;
  netCents: number;
  vatRateBasisPoints: number;
  vatCents: number;
}

/** Everything a document prints, as it was when issued (stored as JSON in order_documents). */
export interface DocumentSnapshot {
  kind: DocumentKind;
  number: string;
  /** 'VAT invoice', 'Invoice', 'VAT receipt', 'Receipt', 'Credit note'. */
  title: string;
  issuedAt: string;
  /** The tax point: the invoice's date of issue, the payment's date for a receipt. */
  timeOfSupply: string;
  /** Invoices only: issued + payment terms. */
  dueDate: string | null;
  orderId: string;
  orderReference: string;
  currency: string;
  vatRegistered: boolean;
  pricesIncludeVat: boolean;
  seller: {
    legalName: string;
    addressLines: string[];
    companyNumber: string | null;
    vatNumber: string | null;
  };
  customer: {
    name: string;
    organisation: string | null;
    addressLines: string[];
    email: string;
    vatNumber: string | null;
    poNumber: string | null;
  };
  lines: DocumentLine[];
  netCents: number;
  vatCents: number;
  totalCents: number;
  /** Invoices: how to pay. */
  payment: {
    termsDays: number;
    reference: string;
    bank: { accountName: string; sortCode?: string; accountNumber?: string; iban?: string } | null;
    /** Without bank details: how the seller asks to be paid (PAYMENT_INSTRUCTIONS), if set. */
    instructions?: string | null;
    /**
     * When card payments were on at issue: the booker's page, where the balance is paid by card
     * (decision 0042). Invoices issued before it have none.
     */
    cardUrl?: string | null;
    /**
     * What the order had received when the invoice was issued (an order re-invoiced after a
     * move to a dearer date, decision 0046): the invoice asks for the rest. Absent or 0: none.
     */
    receivedCents?: number;
  } | null;
  /** Receipts: when and how it was paid. */
  paid: { at: string; method: string } | null;
  /**
   * Credit notes: the document credited, with its title as issued ('VAT receipt'), and why.
   * Credit notes issued before the title was kept have none: they credited invoices.
   */
  credits: { number: string; issuedAt: string; title?: string } | null;
  /**
   * Why no UK VAT is charged, in the words the rules ask for (decision 0041): reverse charge or
   * outside the scope. Absent or null: UK VAT (and documents from before it was decided).
   */
  vatNote?: string | null;
  /** An invoice issued with corrected details: the one it replaces (credited in full). */
  replaces?: { number: string; issuedAt: string; title?: string } | null;
  reason: string | null;
}
