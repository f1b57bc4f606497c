import { config } from "#server/config.server.ts";
import { anonymiseExpiredInquiries } from "#server/privacy/retention.server.ts";
import { withDatabase } from "./cli.ts";

// For cron: the same retention run the server makes hourly (INQUIRY_RETENTION_MONTHS, 0 = off).
await withDatabase(async () => {
  const months = config.inquiryRetentionMonths;
  if (months <= 0) return "INQUIRY_RETENTION_MONTHS is 0: retention is off, nothing changed.";
  const { inquiries, emails } = await anonymiseExpiredInquiries(new Date(), { months });
  return inquiries
    ? `Anonymised ${inquiries} ${inquiries === 1 ? "inquiry" : "inquiries"} older than ${months} months; deleted ${emails} stored ${emails === 1 ? "e-mail" : "e-mails"}.`
    : `No inquiry older than ${months} months left to anonymise.`;
});
