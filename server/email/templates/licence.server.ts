/**
 * A File Interrogator licence's reminder that it ends soon (decision 0050): to the customer,
 * inviting them to renew, and to staff, who make the renewal quote.
 */
import {
  escapeHtml,
  formatCalendarDate,
  greetingName,
  headerText,
  layout,
  rowsHtml,
  rowsText,
  type RenderedEmail,
  type Row,
} from "./layout.server.ts";

export interface LicenceReminderData {
  reference: string;
  organisation: string;
  contactName: string;
  seats: number;
  endsOn: string;
  daysLeft: number;
}

export function renderLicenceReminder(data: LicenceReminderData): {
  customer: RenderedEmail;
  staff: RenderedEmail;
} {
  const ends = formatCalendarDate(data.endsOn);
  const rows: Row[] = [
    ["Licence", data.reference],
    ["Organisation", data.organisation],
    ["Licences (seats)", String(data.seats)],
    ["Ends on", ends],
  ];
  const customerSubject = headerText(`Your File Interrogator licence ends on ${ends}`);
  const greeting = `Dear ${greetingName(data.contactName)},`;
  const body = `Your organisation's File Interrogator licence ${data.reference} ends in ${data.daysLeft} ${data.daysLeft === 1 ? "day" : "days"}, on ${ends}. Reply to this e-mail and we will send you a renewal quotation, so that your team keeps its access without a break.`;
  const customer: RenderedEmail = {
    subject: customerSubject,
    html: layout(
      customerSubject,
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(body)}</p><table>${rowsHtml(rows)}</table><p>Kind regards,<br>NightWatch</p>`,
    ),
    text: [greeting, "", body, "", rowsText(rows), "", "Kind regards,", "NightWatch"].join("\n"),
  };
  const staffSubject = headerText(
    `Licence ${data.reference} (${data.organisation}) ends in ${data.daysLeft} days`,
  );
  const staffBody = `Licence ${data.reference} ends on ${ends}. Open it on the licence register and choose "Renew" to draft the renewal quote.`;
  const staff: RenderedEmail = {
    subject: staffSubject,
    html: layout(staffSubject, `<p>${escapeHtml(staffBody)}</p><table>${rowsHtml(rows)}</table>`),
    text: [staffBody, "", rowsText(rows)].join("\n"),
  };
  return { customer, staff };
}
