import {
  LICENCE_COUNT_LABELS,
  MODALITY_LABELS,
  SERVICE_LABELS,
  USE_CASE_LABELS,
  type LicenceCount,
  type Modality,
  type ServiceInterest,
  type UseCase,
} from "#app/lib/inquiry-schemas.ts";
import { toOneLine } from "#app/lib/text.ts";

/**
 * The e-mails that follow an inquiry (spec §7 send-email): `admin_alert` to the company's
 * mailboxes and `visitor_confirmation` to the visitor. Each has an HTML and a plain-text part;
 * everything a visitor typed is escaped in the HTML.
 */

export type InquiryTypeValue =
  "training" | "file_interrogator" | "security_consultation" | "course" | "general";

export const INQUIRY_TYPE_LABELS: Record<InquiryTypeValue, string> = {
  training: "Training",
  file_interrogator: "File Interrogator",
  security_consultation: "Security consultation",
  course: "Course",
  general: "General enquiry",
};

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface InquiryEmailData {
  inquiryId: string;
  inquiryType: InquiryTypeValue;
  /** Which form it came from: shapes the wording. */
  form: "enquiry" | "licence" | "course_quote";
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  /** As stored (with the service line for enquiries). */
  message: string;
  serviceInterest: ServiceInterest | null;
  courseTitle: string | null;
  modality: Modality | null;
  attendees: number | null;
  budget: string | null;
  licenceCount: LicenceCount | null;
  useCase: UseCase | null;
  submittedAt: Date;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A header value: one line, bounded. */
export function headerText(value: string, max = 150): string {
  const line = toOneLine(value).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * How a confirmation greets a visitor. It goes to an address nobody has verified, so it carries
 * as little of what was typed as possible: the name on one line, at most 40 characters.
 */
export const GREETING_NAME_MAX = 40;
export function greetingName(name: string): string {
  return headerText(name, GREETING_NAME_MAX);
}

/**
 * For staff: why the visitor's confirmation was held (decision 0012). Opens the alert, and its
 * subject starts with '[Held]'.
 */
export const HELD_CONFIRMATION_NOTE =
  "Held as suspected spam: this address has already had its confirmation e-mails for the past hour, so none was sent this time. Open it in the admin area and release it to send the confirmation, or delete it.";

export function heldNoticeHtml(note: string): string {
  return `<p style="margin:0 0 16px;padding:12px;border:1px solid #d97706;background:#fffbeb;border-radius:6px"><strong>Held.</strong> ${escapeHtml(note)}</p>`;
}

export function heldSubject(subject: string): string {
  return headerText(`[Held] ${subject}`);
}

export function formatSubmissionDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Europe/London",
  }).format(date);
}

/** What the visitor asked about, in words (the home form's default when no service is chosen). */
export function serviceOrCourse(data: InquiryEmailData): string {
  if (data.form === "course_quote" && data.courseTitle) return `the course “${data.courseTitle}”`;
  if (data.form === "licence") return "File Interrogator licensing";
  if (data.serviceInterest && data.serviceInterest !== "other") {
    return SERVICE_LABELS[data.serviceInterest];
  }
  return "our cybersecurity services";
}

/** The response times promised in spec §9. */
export function responsePromise(data: InquiryEmailData): string {
  if (data.inquiryType === "file_interrogator" || data.form === "licence") {
    return "Our licensing team will contact you within 2 business days with pricing and next steps.";
  }
  if (data.inquiryType === "training" || data.form === "course_quote") {
    return "Our training team will get back to you within 24 hours.";
  }
  return "We'll get back to you within 24 hours.";
}

export function nextSteps(data: InquiryEmailData): string | null {
  if (data.form !== "course_quote") return null;
  return data.modality === "online"
    ? "We'll contact you to process your course enrolment and send the joining details for the online course."
    : "We'll review your requirements and send you a custom quote for your face-to-face training, including dates and venue options.";
}

/** A label and value for the details table of an e-mail; empty values are left out. */
export type Row = [label: string, value: string | null | undefined];

export function rowsHtml(rows: Row[]): string {
  return rows
    .filter((r): r is [string, string] => Boolean(r[1]))
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 16px 4px 0;color:#555;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
}

export function rowsText(rows: Row[]): string {
  return rows
    .filter((r): r is [string, string] => Boolean(r[1]))
    .map(([label, value]) => `${label}: ${value}`)
    .join("\n");
}

/** The shared frame of every HTML e-mail. */
export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111"><div style="max-width:640px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">${body}<p style="margin-top:32px;color:#777;font-size:13px">NightWatch · Dark web monitoring, counter fraud training and security consultancy · London, United Kingdom</p></div></body></html>`;
}

function messageHtml(message: string): string {
  return `<div style="white-space:pre-wrap;border-left:3px solid #ccc;padding:8px 12px;background:#fafafa">${escapeHtml(message)}</div>`;
}

function detailRows(data: InquiryEmailData): Row[] {
  return [
    ["Name", data.name],
    ["Email", data.email],
    ["Company", data.company],
    ["Phone", data.phone],
    ["Inquiry type", INQUIRY_TYPE_LABELS[data.inquiryType]],
    ["Service interest", data.serviceInterest ? SERVICE_LABELS[data.serviceInterest] : null],
    ["Course", data.courseTitle],
    ["Modality", data.modality ? MODALITY_LABELS[data.modality] : null],
    ["Attendees", data.attendees !== null ? String(data.attendees) : null],
    ["Budget", data.budget],
    ["Licences", data.licenceCount ? LICENCE_COUNT_LABELS[data.licenceCount] : null],
    ["Use case", data.useCase ? USE_CASE_LABELS[data.useCase] : null],
    ["Submitted", formatSubmissionDate(data.submittedAt)],
    ["Inquiry ID", data.inquiryId],
  ];
}

/**
 * To the company's admin mailboxes; Reply-To is the visitor, so a reply goes straight back.
 * `held`: the visitor's confirmation was held (per-recipient limit), and the alert says so.
 */
export function renderAdminAlert(
  data: InquiryEmailData,
  adminUrl: string,
  options: { held?: boolean } = {},
): RenderedEmail {
  const what =
    data.form === "course_quote" && data.courseTitle
      ? `${data.modality === "online" ? "Online enrolment" : "Classroom quote"}: ${data.courseTitle}`
      : data.form === "licence"
        ? "File Interrogator licence quote"
        : INQUIRY_TYPE_LABELS[data.inquiryType];
  const plainSubject = headerText(`New inquiry (${what}) from ${data.name}`);
  const subject = options.held ? heldSubject(plainSubject) : plainSubject;
  const rows = detailRows(data);
  const html = layout(
    subject,
    (options.held ? heldNoticeHtml(HELD_CONFIRMATION_NOTE) : "") +
      `<h1 style="font-size:20px;margin:0 0 16px">New inquiry from the website</h1>` +
      `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rowsHtml(rows)}</table>` +
      (data.message ? `<h2 style="font-size:16px">Message</h2>${messageHtml(data.message)}` : "") +
      `<p style="margin-top:24px"><a href="${escapeHtml(adminUrl)}">Open the inquiries in the admin area</a> · reply to this e-mail to answer ${escapeHtml(data.name)}.</p>`,
  );
  const text = [
    ...(options.held ? [`HELD. ${HELD_CONFIRMATION_NOTE}`, ""] : []),
    "New inquiry from the website",
    "",
    rowsText(rows),
    ...(data.message ? ["", "Message:", data.message] : []),
    "",
    `Admin area: ${adminUrl}`,
    `Reply to this e-mail to answer ${data.name}.`,
  ].join("\n");
  return { subject, html, text };
}

/**
 * To the visitor: what we received, when we will answer, and the reference to quote. The address
 * is unverified, so nothing long the visitor typed is echoed: the greeting's name is shortened
 * and the message is not quoted (staff get it in the alert).
 */
export function renderVisitorConfirmation(data: InquiryEmailData): RenderedEmail {
  const topic = serviceOrCourse(data);
  const subject =
    data.form === "course_quote" && data.courseTitle
      ? headerText(`Your enquiry about ${data.courseTitle} – NightWatch`)
      : data.form === "licence"
        ? "Your File Interrogator licence enquiry – NightWatch"
        : "We've received your enquiry – NightWatch";
  const promise = responsePromise(data);
  const steps = nextSteps(data);
  const rows: Row[] = [
    ["Reference", data.inquiryId],
    ["Inquiry type", INQUIRY_TYPE_LABELS[data.inquiryType]],
    ["Service interest", data.serviceInterest ? SERVICE_LABELS[data.serviceInterest] : null],
    ["Course", data.courseTitle],
    ["Modality", data.modality ? MODALITY_LABELS[data.modality] : null],
    ["Submitted", formatSubmissionDate(data.submittedAt)],
  ];
  const html = layout(
    subject,
    `<p>Dear ${escapeHtml(greetingName(data.name))},</p>` +
      `<p>Thank you for contacting NightWatch about ${escapeHtml(topic)}. We have received your enquiry. ${escapeHtml(promise)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${rowsHtml(rows)}</table>` +
      (steps ? `<h2 style="font-size:16px">Next steps</h2><p>${escapeHtml(steps)}</p>` : "") +
      `<p>If you would like to add anything, simply reply to this e-mail and quote your reference.</p>` +
      `<p>Kind regards,<br>The NightWatch team</p>`,
  );
  const text = [
    `Dear ${greetingName(data.name)},`,
    "",
    `Thank you for contacting NightWatch about ${topic}. We have received your enquiry. ${promise}`,
    "",
    rowsText(rows),
    ...(steps ? ["", "Next steps:", steps] : []),
    "",
    "If you would like to add anything, simply reply to this e-mail and quote your reference.",
    "",
    "Kind regards,",
    "The NightWatch team",
  ].join("\n");
  return { subject, html, text };
}
