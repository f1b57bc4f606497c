/**
 * What a sent quote prints, as it was when sent (decision 0049): the snapshot stored as JSON with
 * the quote, which its PDF (pdf.server.ts), its e-mail and its public page read. A revised quote
 * is a new one with its own number and snapshot; a sent one never changes.
 */

export interface QuoteLine {
  description: string;
  quantity: number;
  /** Excluding VAT, in pence. */
  unitNetCents: number;
  netCents: number;
}

export interface QuoteSnapshot {
  /** Q-YYYY-NNNN, without gaps. */
  number: string;
  /** 'Quotation'. */
  title: string;
  issuedAt: string;
  /** The last day (UK) it may be accepted, yyyy-MM-dd. */
  validUntil: string;
  currency: string;
  vatRegistered: boolean;
  seller: {
    legalName: string;
    addressLines: string[];
    companyNumber: string | null;
    vatNumber: string | null;
    email: string | null;
  };
  customer: {
    organisation: string;
    name: string;
    email: string;
    addressLines: string[];
    vatNumber: string | null;
  };
  lines: QuoteLine[];
  /** One rate for the whole quote (basis points: 2000 is 20%); 0 with a note when none applies. */
  vatRateBasisPoints: number;
  netCents: number;
  vatCents: number;
  totalCents: number;
  /** Why no UK VAT is charged (reverse charge, outside the scope); null: UK VAT, or none. */
  vatNote: string | null;
  /** The quote's own terms, as staff wrote them (may be several paragraphs). */
  terms: string;
  /** Where the customer accepts or declines it online (a signed link). */
  acceptUrl: string;
  /** A revised quote: the one it replaces. */
  supersedes: { number: string; issuedAt: string } | null;
}
