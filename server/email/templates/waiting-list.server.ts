/**
 * The waiting lists' e-mails (decision 0034): `waiting_list_offer`, places offered to the next
 * person waiting with a link that holds them until it expires and opens a filled-in checkout;
 * `waiting_list_announce`, the one e-mail to someone who asked to hear of a course's next date.
 * They go to an address nobody verified, so they greet by a short name and echo nothing else typed.
 */
import { formatDateRange, formatUkDateTime } from "#app/lib/catalogue/course-dates.ts";
import {
  escapeHtml,
  greetingName,
  headerText,
  layout,
  SIGN_OFF_HTML,
  SIGN_OFF_TEXT,
  type RenderedEmail,
} from "./layout.server.ts";

export function renderWaitingListOffer(data: {
  firstName: string;
  courseTitle: string;
  startsAt: Date;
  endsAt: Date;
  places: number;
  expiresAt: Date;
  url: string;
}): RenderedEmail {
  const when = formatDateRange(data.startsAt, data.endsAt);
  const places = data.places === 1 ? "1 place" : `${data.places} places`;
  const until = formatUkDateTime(data.expiresAt);
  const subject = headerText(`Places free: ${data.courseTitle}`);
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(data.firstName))},</p>` +
      `<p>Good news: ${places} on <strong>${escapeHtml(data.courseTitle)}</strong>, ${escapeHtml(when)}, ${data.places === 1 ? "has" : "have"} become free, and you are next on the waiting list.</p>` +
      `<p>We are holding ${data.places === 1 ? "it" : "them"} for you until <strong>${escapeHtml(until)}</strong>. After that the offer passes to the next person waiting.</p>` +
      `<p><a href="${escapeHtml(data.url)}">Book your ${places}</a> — the booking form is filled in with the details you gave us.</p>` +
      `<p>No longer needed? Simply ignore this e-mail.</p>` +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(data.firstName)},`,
    "",
    `Good news: ${places} on ${data.courseTitle}, ${when}, ${data.places === 1 ? "has" : "have"} become free, and you are next on the waiting list.`,
    "",
    `We are holding ${data.places === 1 ? "it" : "them"} for you until ${until}. After that the offer passes to the next person waiting.`,
    "",
    `Book your ${places} (the booking form is filled in with the details you gave us):`,
    data.url,
    "",
    "No longer needed? Simply ignore this e-mail.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}

export function renderDatesAnnounced(data: {
  name: string;
  courseTitle: string;
  startsAt: Date;
  endsAt: Date;
  url: string;
}): RenderedEmail {
  const when = formatDateRange(data.startsAt, data.endsAt);
  const subject = headerText(`New date: ${data.courseTitle}`);
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(data.name))},</p>` +
      `<p>You asked us to tell you when <strong>${escapeHtml(data.courseTitle)}</strong> has a new date. It now runs on ${escapeHtml(when)}.</p>` +
      `<p><a href="${escapeHtml(data.url)}">See the dates and book</a>.</p>` +
      `<p>This is the only e-mail you will get from this request.</p>` +
      SIGN_OFF_HTML,
  );
  const text = [
    `Dear ${greetingName(data.name)},`,
    "",
    `You asked us to tell you when ${data.courseTitle} has a new date. It now runs on ${when}.`,
    "",
    "See the dates and book:",
    data.url,
    "",
    "This is the only e-mail you will get from this request.",
    "",
    ...SIGN_OFF_TEXT,
  ].join("\n");
  return { subject, html, text };
}
