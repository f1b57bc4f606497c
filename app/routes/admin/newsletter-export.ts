import { activeSubscriberEmails } from "#server/newsletter/admin.server.ts";
import { exportFileName } from "#app/lib/newsletter/admin.ts";
import { londonDate } from "#app/lib/admin/time.ts";

/**
 * GET /admin/newsletter-subscriptions/export: 'Export Active Emails' — plain text, one address
 * per line, named with today's date in London. X-Export-Count tells the page how many for its toast.
 */
export async function loader() {
  const emails = await activeSubscriberEmails();
  return new Response(emails.join("\n"), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(londonDate())}"`,
      "Cache-Control": "no-store",
      "X-Export-Count": String(emails.length),
    },
  });
}
