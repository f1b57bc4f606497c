import { config } from "#server/config.server.ts";
import { sendLicenceReminders } from "#server/licences/licences.server.ts";
import { withDatabase } from "./cli.ts";

// For cron: the File Interrogator licence reminders the server sends hourly (decision 0050), each
// once; the running site's outbox sends what this queues.
await withDatabase(async () => {
  if (config.licenceReminderDays.length === 0)
    return "LICENCE_REMINDER_DAYS is 0: no reminders are sent.";
  const queued = await sendLicenceReminders();
  return queued
    ? `Queued reminders for ${queued} ${queued === 1 ? "licence" : "licences"}.`
    : "No licence reminder is due.";
});
