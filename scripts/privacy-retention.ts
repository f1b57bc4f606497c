import { config } from "#server/config.server.ts";
import {
  anonymiseExpiredInquiries,
  anonymiseOldContacts,
} from "#server/privacy/retention.server.ts";
import { withDatabase } from "./cli.ts";

// For cron: the same retention run the server makes hourly (INQUIRY_RETENTION_MONTHS, 0 = off):
// old inquiries, and the contacts of quotes and licences that ended as long ago (decision 0051).
await withDatabase(async () => {
  const months = config.inquiryRetentionMonths;
  if (months <= 0) return "INQUIRY_RETENTION_MONTHS is 0: retention is off, nothing changed.";
  const now = new Date();
  const { inquiries, emails } = await anonymiseExpiredInquiries(now, { months });
  const contacts = await anonymiseOldContacts(now, { months });
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const lines = [
    inquiries
      ? `Anonymised ${plural(inquiries, "inquiry", "inquiries")} older than ${months} months; deleted ${plural(emails, "stored e-mail", "stored e-mails")}.`
      : `No inquiry older than ${months} months left to anonymise.`,
    contacts.quotes || contacts.licences
      ? `Anonymised the contacts of ${plural(contacts.quotes, "quote", "quotes")} and ${plural(contacts.licences, "licence", "licences")} that ended over ${months} months ago; deleted ${plural(contacts.emails, "stored e-mail", "stored e-mails")}.`
      : `No quote or licence contact left to anonymise.`,
  ];
  return lines.join("\n");
});
