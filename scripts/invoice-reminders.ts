import { config } from "#server/config.server.ts";
import { sendInvoiceReminders } from "#server/invoices/debtors.server.ts";
import { refreshSellerSettings } from "#server/seller-settings.server.ts";
import { withDatabase } from "./cli.ts";

// For cron: the unpaid invoice reminders the server sends hourly (decision 0040), each once; the
// running site's outbox sends what this queues. The reminder days are the Settings screen's.
await withDatabase(async () => {
  await refreshSellerSettings();
  const days = config.invoiceReminderDays;
  if (days.length === 0) return "INVOICE_REMINDER_DAYS is none: no reminders are sent.";
  const queued = await sendInvoiceReminders();
  return queued
    ? `Queued ${queued} invoice ${queued === 1 ? "reminder" : "reminders"}.`
    : "No invoice reminder is due.";
});
