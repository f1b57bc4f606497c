/**
 * The e-mails that follow an inquiry (decision 0003): `admin_alert` to the company's
 * mailboxes and `visitor_confirmation` to the visitor. Each has an HTML and a plain-text part;
 * everything a visitor typed is escaped in the HTML.
 */
import {
  LICENCE_COUNT_LABELS,
  MODALITY_LABELS,
  SERVICE_LABELS,
  USE_CASE_LABELS,
  type LicenceCount,
  type Modality,
  type ServiceInterest,
  type UseCase,
} from "#app/lib/inquiries/schemas.ts";
import {
  escapeHtml,
  formatSubmissionDate,
  greetingName,
  headerText,
  HELD_CONFIRMATION_NOTE,
  heldNoticeHtml,
  heldSubject,
  layout,
  type RenderedEmail,
  type Row,
  rowsHtml,
  rowsText,
} from "./layout.server.ts";

export type InquiryTypeValue =
  "training" | "file_interrogator" | "security_consultation" | "course" | "general";

export const INQUIRY_TYPE_LABELS: Record<InquiryTypeValue, string> = {
  training: "Training",
  file_interrogator: "File Interrogator",
  security_consultation: "Security consultation",
  course: "Course",
  general: "General enquiry",
};

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

/** What the visitor asked about, in words (the home form's default when no service is chosen). */
export function serviceOrCourse(data: InquiryEmailData): string {
  if (data.form === "course_quote" && data.courseTitle) return `the course “${data.courseTitle}”`;
  if (data.form === "licence") return "File Interrogator licensing";
  if (data.serviceInterest && data.serviceInterest !== "other") {
    return SERVICE_LABELS[data.serviceInterest];
  }
  return "our cybersecurity services";
}

/** The response times the site promises (the same words as the public pages). */
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

/**
 * To staff once an enquiry's reply is overdue by the site's promise (decision 0047): who, what
 * kind, when it arrived and was due, and a link that opens it in the admin area.
 */
export function renderReplyOverdue(
  inquiry: {
    name: string;
    email: string;
    company: string | null;
    inquiryType: InquiryTypeValue;
    message: string;
    createdAt: Date;
  },
  dueAt: Date,
  adminUrl: string,
): RenderedEmail {
  const what = INQUIRY_TYPE_LABELS[inquiry.inquiryType];
  const subject = headerText(`Reply overdue: ${what} from ${inquiry.name}`);
  const rows: Row[] = [
    ["Name", inquiry.name],
    ["Email", inquiry.email],
    ["Company", inquiry.company],
    ["Type", what],
    ["Received", formatSubmissionDate(inquiry.createdAt)],
    ["Reply was due", formatSubmissionDate(dueAt)],
  ];
  const lead = `No reply has been recorded to ${inquiry.name}'s enquiry, and the reply we promised was due by ${formatSubmissionDate(dueAt)}. Mark it replied once it is answered.`;
  const html = layout(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">A reply is overdue</h1>` +
      `<p>${escapeHtml(lead)}</p>` +
      `<table role="presentation" style="border-collapse:collapse;margin-bottom:16px">${rowsHtml(rows)}</table>` +
      `<h2 style="font-size:16px">Message</h2>${messageHtml(inquiry.message)}` +
      `<p style="margin-top:24px"><a href="${escapeHtml(adminUrl)}">Open the enquiry in the admin area</a></p>`,
  );
  const text = [
    "A reply is overdue",
    "",
    lead,
    "",
    rowsText(rows),
    "",
    "Message:",
    inquiry.message,
    "",
    `Open the enquiry: ${adminUrl}`,
  ].join("\n");
  return { subject, html, text };
}
