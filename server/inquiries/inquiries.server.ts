import { and, eq } from "drizzle-orm";
import {
  LICENCE_COUNT_LABELS,
  SERVICE_LABELS,
  USE_CASE_LABELS,
  type CourseQuoteInput,
  type EnquiryInput,
  type LicenceInput,
  type Modality,
  type ServiceInterest,
} from "#app/lib/inquiries/schemas.ts";
import type { SpamReason } from "#app/lib/admin/suspected-spam.ts";
import { confirmationAllowed } from "../abuse.server.ts";
import { config } from "../config.server.ts";
import { db } from "../db/client.server.ts";
import { courses, inquiries } from "../db/schema.ts";
import { queueEmails, type OutgoingEmail } from "../email/outbox.server.ts";
import {
  renderAdminAlert,
  renderVisitorConfirmation,
  type InquiryEmailData,
  type InquiryTypeValue,
} from "../email/templates/inquiry.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";

/**
 * Inquiries from the public forms (docs/rules.md, Enquiries and spam): each is stored with status
 * new, together with its two e-mails (admin alert, visitor confirmation) in the outbox — one
 * transaction, so there is never an inquiry without its e-mails nor an e-mail about an inquiry that
 * was not saved. Suspected spam is stored too, marked and held (decision 0012); releasing it queues
 * the e-mails.
 */

export type InquiryRow = typeof inquiries.$inferSelect;

/**
 * inquiry_type from the chosen service: dark-web-monitoring and security-consultancy →
 * security_consultation; counter-fraud-training → training; file-interrogator →
 * file_interrogator; anything else (other, none, unknown) → general.
 */
export function inquiryTypeForService(service: string | null | undefined): InquiryTypeValue {
  switch (service) {
    case "dark-web-monitoring":
    case "security-consultancy":
      return "security_consultation";
    case "counter-fraud-training":
      return "training";
    case "file-interrogator":
      return "file_interrogator";
    default:
      return "general";
  }
}

/** With a service chosen, the stored message starts with a line naming it, then a blank line. */
export function messageWithServiceInterest(
  message: string,
  service: ServiceInterest | null | undefined,
): string {
  if (!service) return message;
  return `Service Interest: ${SERVICE_LABELS[service]}\n\n${message}`;
}

/** The licence form's choices have no columns of their own: they lead the stored message. */
export function licenceMessage(
  input: Pick<LicenceInput, "licence_count" | "use_case" | "message">,
) {
  const lines = [`Licences: ${LICENCE_COUNT_LABELS[input.licence_count]}`];
  if (input.use_case) lines.push(`Use case: ${USE_CASE_LABELS[input.use_case]}`);
  return input.message ? `${lines.join("\n")}\n\n${input.message}` : lines.join("\n");
}

/** The title of a published course, read from the database (never taken from the browser). */
export async function publishedCourseTitle(courseId: string): Promise<string | null> {
  const [row] = await db()
    .select({ title: courses.title })
    .from(courses)
    .where(and(eq(courses.id, courseId), eq(courses.status, "published")))
    .limit(1);
  return row?.title ?? null;
}

type NewInquiry = typeof inquiries.$inferInsert;

/** Who wrote: every form asks for the same four things, stored in the same columns. */
type Sender = Pick<NewInquiry, "name" | "email" | "company" | "phone">;

/** What the form itself adds: the message as stored, the inquiry type, a course's details. */
type InquiryDetails = Omit<NewInquiry, keyof Sender | "status">;

export interface EmailExtras {
  form: InquiryEmailData["form"];
  serviceInterest?: ServiceInterest | null;
  licenceCount?: LicenceInput["licence_count"] | null;
  useCase?: LicenceInput["use_case"];
}

/** What the e-mail templates need, from a stored inquiry and the form's extra choices. */
function emailDataOf(row: InquiryRow, extras: EmailExtras): InquiryEmailData {
  return {
    inquiryId: row.id,
    inquiryType: row.inquiryType,
    form: extras.form,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    serviceInterest: extras.serviceInterest ?? null,
    courseTitle: row.courseTitleSnapshot,
    modality: row.modality,
    attendees: row.attendees,
    budget: row.budget,
    licenceCount: extras.licenceCount ?? null,
    useCase: extras.useCase ?? null,
    submittedAt: row.createdAt,
  };
}

/** An inquiry's two e-mails: the alert to staff and the confirmation to the visitor. */
export function inquiryEmails(
  row: InquiryRow,
  extras: EmailExtras,
  options: { held?: boolean } = {},
): OutgoingEmail[] {
  const data = emailDataOf(row, extras);
  return [
    {
      kind: "admin_alert",
      to: config.adminEmails,
      replyTo: row.email,
      ...renderAdminAlert(data, `${config.publicUrl}/admin/inquiries`, options),
      inquiryId: row.id,
    },
    {
      kind: "visitor_confirmation",
      to: row.email,
      replyTo: config.mailReplyTo,
      ...renderVisitorConfirmation(data),
      inquiryId: row.id,
    },
  ];
}

/**
 * Saves the inquiry and queues its e-mails in one transaction, then nudges the worker.
 * Suspected spam is stored all the same, marked (decision 0012): a honeypot post queues no
 * e-mail; a post whose address has had its hourly confirmations is marked 'recipient_limit' and
 * only staff are told (the alert says the confirmation is held).
 */
async function saveWithEmails(
  sender: Sender,
  details: InquiryDetails,
  extras: EmailExtras,
  suspected: SpamReason | null,
): Promise<InquiryRow> {
  const { name, email, company, phone } = sender;
  const values: NewInquiry = { name, email, company, phone, status: "new", ...details };
  const inquiry = await db().transaction(async (tx) => {
    const spamReason =
      suspected ?? ((await confirmationAllowed(tx, values.email)) ? null : "recipient_limit");
    const [row] = await tx
      .insert(inquiries)
      .values({ ...values, spamReason })
      .returning();
    if (!row) throw new Error("the inquiry was not saved");
    if (spamReason === null) {
      await queueEmails(tx, inquiryEmails(row, extras));
    } else if (spamReason === "recipient_limit") {
      const [alert] = inquiryEmails(row, extras, { held: true });
      await queueEmails(tx, [alert!]);
    }
    return row;
  });
  if (inquiry.spamReason !== null) {
    log.warn(
      { inquiryId: inquiry.id, spamReason: inquiry.spamReason },
      "inquiry held as suspected spam",
    );
  }
  if (inquiry.spamReason !== "honeypot") nudgeOutbox();
  return inquiry;
}

/** Home, contact, quote and service-page enquiries. `suspected`: the honeypot's mark, if any. */
export function createEnquiry(
  input: EnquiryInput,
  suspected: SpamReason | null = null,
): Promise<InquiryRow> {
  return saveWithEmails(
    input,
    {
      message: messageWithServiceInterest(input.message, input.service),
      inquiryType: inquiryTypeForService(input.service),
    },
    { form: "enquiry", serviceInterest: input.service },
    suspected,
  );
}

/** File Interrogator licence quotes. */
export function createLicenceInquiry(
  input: LicenceInput,
  suspected: SpamReason | null = null,
): Promise<InquiryRow> {
  return saveWithEmails(
    input,
    {
      message: licenceMessage(input),
      inquiryType: "file_interrogator",
    },
    { form: "licence", licenceCount: input.licence_count, useCase: input.use_case },
    suspected,
  );
}

export type CourseQuoteOutcome =
  { ok: true; inquiry: InquiryRow; modality: Modality } | { ok: false; reason: "course_not_found" };

/** Course quote / enrolment dialog: a training inquiry about a published course. */
export async function createCourseInquiry(
  input: CourseQuoteInput,
  suspected: SpamReason | null = null,
): Promise<CourseQuoteOutcome> {
  const title = await publishedCourseTitle(input.course_id);
  if (title === null) return { ok: false, reason: "course_not_found" };
  const inquiry = await saveWithEmails(
    input,
    {
      message: input.message ?? "",
      inquiryType: "training",
      courseId: input.course_id,
      courseTitleSnapshot: title,
      modality: input.modality,
      attendees: input.attendees,
      budget: input.budget,
    },
    { form: "course_quote" },
    suspected,
  );
  return { ok: true, inquiry, modality: input.modality };
}

/* Suspected spam held for review (decision 0012): releasing one (admin.server.ts) sends what was
 * held. */

/**
 * The form-specific choices of a stored inquiry, read back from what the row holds (the licence
 * choices and the service lead the stored message, as `licenceMessage` and
 * `messageWithServiceInterest` wrote them): what releasing a held inquiry needs to write the
 * e-mails the normal path would have sent.
 */
export function emailExtrasOf(row: InquiryRow): EmailExtras {
  if (row.courseTitleSnapshot !== null || row.modality !== null) return { form: "course_quote" };
  const [first = "", second] = row.message.split("\n");
  if (row.inquiryType === "file_interrogator" && first.startsWith("Licences: ")) {
    const licenceCount = keyOfLabel(LICENCE_COUNT_LABELS, first.slice("Licences: ".length));
    const useCase = second?.startsWith("Use case: ")
      ? keyOfLabel(USE_CASE_LABELS, second.slice("Use case: ".length))
      : null;
    if (licenceCount) return { form: "licence", licenceCount, useCase };
  }
  const serviceInterest =
    first.startsWith("Service Interest: ") && second === ""
      ? keyOfLabel(SERVICE_LABELS, first.slice("Service Interest: ".length))
      : null;
  return { form: "enquiry", serviceInterest };
}

function keyOfLabel<K extends string>(labels: Record<K, string>, label: string): K | null {
  return (Object.keys(labels) as K[]).find((key) => labels[key] === label) ?? null;
}
