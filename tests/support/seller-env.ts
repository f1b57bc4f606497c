/**
 * A VAT-registered seller with bank details, for tests of invoices, receipts and credit notes.
 * Set into process.env inside `vi.hoisted`, before the configuration module is first imported;
 * this module imports nothing, so it can be loaded there.
 */
export const VAT_SELLER_ENV: Record<string, string> = {
  PUBLIC_URL: "http://127.0.0.1:4599",
  SELLER_LEGAL_NAME: "NightWatch Intelligence Ltd",
  SELLER_ADDRESS: "1 High Street, London, EC1A 1AA",
  SELLER_COMPANY_NUMBER: "01234567",
  SELLER_VAT_NUMBER: "GB 123 4567 89",
  VAT_RATE_PERCENT: "20",
  PRICES_INCLUDE_VAT: "false",
  PAYMENT_TERMS_DAYS: "30",
  BANK_ACCOUNT_NAME: "NightWatch Intelligence Ltd",
  BANK_SORT_CODE: "12-34-56",
  BANK_ACCOUNT_NUMBER: "12345678",
};
