import { z } from "zod/mini";

/**
 * Who owes what (docs/decisions/0040-who-owes-what.md): invoiced orders not yet paid, aged by
 * the UK days since their invoice was due, and the reminders their buyers are sent. Safe on both
 * sides; the reading and the reminders are `server/invoices/debtors.server.ts`.
 */

/** How overdue, in the buckets accountants age debts by. */
export const DEBT_BUCKETS = [
  "not_due",
  "days_1_30",
  "days_31_60",
  "days_61_90",
  "over_90",
] as const;
export type DebtBucket = (typeof DEBT_BUCKETS)[number];

export const DEBT_BUCKET_LABELS: Record<DebtBucket, string> = {
  not_due: "Not yet due",
  days_1_30: "1–30 days overdue",
  days_31_60: "31–60 days overdue",
  days_61_90: "61–90 days overdue",
  over_90: "Over 90 days overdue",
};

/** The bucket of an invoice `daysOverdue` UK days past its due date (0 or less: not yet due). */
export function debtBucket(daysOverdue: number): DebtBucket {
  if (daysOverdue <= 0) return "not_due";
  if (daysOverdue <= 30) return "days_1_30";
  if (daysOverdue <= 60) return "days_31_60";
  if (daysOverdue <= 90) return "days_61_90";
  return "over_90";
}

/** One unpaid invoice as the screen shows it. */
export interface Debt {
  orderId: string;
  orderReference: string;
  customer: string;
  organisation: string | null;
  email: string;
  invoiceNumber: string;
  /** The admin download of the invoice's PDF. */
  invoiceHref: string;
  /** ISO instants. */
  issuedAt: string;
  dueDate: string;
  daysOverdue: number;
  bucket: DebtBucket;
  /** The invoice's total less what credit notes took off it. */
  owedCents: number;
  /** The reminders sent, by days after the due date, oldest first. */
  reminders: { daysAfterDue: number; sentAt: string }[];
  /** When staff paused this order's reminders; null: they go on their days. */
  pausedAt: string | null;
}

export interface DebtorsScreen {
  items: Debt[];
  buckets: Record<DebtBucket, { count: number; owedCents: number }>;
  total: { count: number; owedCents: number };
  /** INVOICE_REMINDER_DAYS: days after the due date a reminder goes on (0: the due date). */
  reminderDays: number[];
}

/** 'on the due date and 14 days after' for [0, 14]. */
export function reminderDaysText(days: readonly number[]): string {
  if (days.length === 0) return "No reminders are sent (INVOICE_REMINDER_DAYS is none).";
  const parts = days.map((d) =>
    d === 0 ? "on the due date" : `${d} ${d === 1 ? "day" : "days"} after`,
  );
  const list =
    parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `Buyers are reminded by e-mail, the invoice attached, ${list}, unless paused.`;
}

/** "Pause reminders" / "Resume reminders" on one order. */
export const invoiceRemindersFormSchema = z.object({
  intent: z.literal("reminders"),
  orderId: z.uuid(),
  paused: z.pipe(
    z.optional(z.string()),
    z.transform((v) => v === "on" || v === "true"),
  ),
});

export const REMINDERS_PAUSED_MESSAGE = "Reminders paused for this order.";
export const REMINDERS_RESUMED_MESSAGE = "Reminders resumed for this order.";
export const REMINDERS_NOT_OWED_MESSAGE =
  "This order no longer owes an invoice (paid or cancelled): there is nothing to remind.";
