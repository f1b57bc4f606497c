/**
 * The admin Settings screen's fields (docs/decisions/0043-seller-settings.md): the seller's
 * details staff can change, named as their environment variables (which seed them), in the
 * groups the screen shows. The checks are the server's (server/config/seller.server.ts), the
 * same as at start. Safe on both sides: no server imports here.
 */

export const SELLER_SETTING_GROUPS = [
  {
    title: "Business",
    fields: [
      {
        key: "SELLER_LEGAL_NAME",
        label: "Legal name",
        hint: "As invoices and the footer name you.",
        required: true,
      },
      {
        key: "SELLER_ADDRESS",
        label: "Address",
        hint: "One line per part, or separated by commas.",
        multiline: true,
        required: true,
      },
      {
        key: "SELLER_COMPANY_NUMBER",
        label: "Company number",
        hint: "Companies House, 8 characters.",
      },
      { key: "SELLER_ICO_NUMBER", label: "ICO registration number" },
    ],
  },
  {
    title: "VAT",
    fields: [
      {
        key: "SELLER_VAT_NUMBER",
        label: "VAT number",
        hint: "Leave empty if not VAT-registered: no VAT is then charged or shown.",
      },
      { key: "VAT_RATE_PERCENT", label: "VAT rate (%)", placeholder: "20" },
      {
        key: "PRICES_INCLUDE_VAT",
        label: "Course prices include VAT",
        choices: ["false", "true"],
      },
    ],
  },
  {
    title: "Invoices and payment",
    fields: [
      { key: "PAYMENT_TERMS_DAYS", label: "Payment terms (days)", placeholder: "30" },
      {
        key: "INVOICE_REMINDER_DAYS",
        label: "Reminder days after the due date",
        hint: "Days separated by commas (0: on the due date), or none.",
        placeholder: "0,14",
      },
      { key: "BANK_ACCOUNT_NAME", label: "Bank account name" },
      { key: "BANK_SORT_CODE", label: "Sort code", hint: "e.g. 12-34-56." },
      { key: "BANK_ACCOUNT_NUMBER", label: "Account number", hint: "8 digits." },
      { key: "BANK_IBAN", label: "IBAN" },
      {
        key: "PAYMENT_INSTRUCTIONS",
        label: "Payment instructions",
        hint: "Printed on invoices when no bank details are set.",
        multiline: true,
      },
      {
        key: "XERO_SALES_ACCOUNT_CODE",
        label: "Xero sales account",
        hint: "The account each invoice line is coded to in the Xero export.",
        placeholder: "200",
      },
    ],
  },
] as const satisfies readonly {
  title: string;
  fields: readonly {
    key: string;
    label: string;
    hint?: string;
    multiline?: boolean;
    required?: boolean;
    /** The value in force when the field is left empty (its default), shown in it. */
    placeholder?: string;
    choices?: readonly string[];
  }[];
}[];

export type SellerSettingKey = (typeof SELLER_SETTING_GROUPS)[number]["fields"][number]["key"];

export const SELLER_SETTING_KEYS: readonly SellerSettingKey[] = SELLER_SETTING_GROUPS.flatMap(
  (group) => group.fields.map((field) => field.key),
);

/** The settings that cannot be left empty (invoices must name the seller and its address). */
export const REQUIRED_SELLER_SETTINGS: ReadonlySet<string> = new Set(
  SELLER_SETTING_GROUPS.flatMap((group) =>
    group.fields.filter((field) => "required" in field).map((field) => field.key),
  ),
);

export const SELLER_SETTINGS_INTENT = "sellerSettings";

export const SELLER_SETTINGS_MESSAGES = {
  saved: "Settings saved. New invoices use them; documents already issued keep theirs.",
  unchanged: "No setting changed",
  failed: "Settings not saved: please correct the highlighted fields.",
  required: "Please fill this in: invoices print it.",
} as const;

/** What the Settings screen shows. */
export interface SellerSettingsScreen {
  /** Each setting as typed ('' when unset). */
  values: Record<SellerSettingKey, string>;
  /** The settings whose value comes from the environment (never saved here). */
  fromEnvironment: SellerSettingKey[];
  updatedAt: string | null;
  updatedBy: string | null;
}
