import { z } from "zod/mini";
import { SUBMISSION_KEY_FIELD } from "../forms.ts";
import { dropControlChars, toOneLine } from "../text.ts";
import { INQUIRY_STATUSES, type AdminInquiry } from "./admin.ts";

/**
 * An enquiry's own page (decision 0048): its thread of replies sent from the admin, its notes,
 * owner and follow-up date, and the composer's templates. The forms' schemas are checked in the
 * browser and again by the server. Safe on both sides.
 */

export const REPLY_SUBJECT_MAX_LENGTH = 150;
export const REPLY_BODY_MAX_LENGTH = 10_000;
export const INQUIRY_NOTE_MAX_LENGTH = 5000;
export const TEMPLATE_NAME_MAX_LENGTH = 80;

/** Where a reply's e-mail is: the outbox row's state (gone once the retention pass clears it). */
export type ReplyDelivery = "queued" | "sending" | "sent" | "failed" | "unknown";

export const REPLY_DELIVERY_LABELS: Record<ReplyDelivery, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Not delivered",
  unknown: "Delivery not recorded",
};

export interface InquiryReply {
  id: string;
  /** The staff member's e-mail when they sent it. */
  author: string;
  subject: string;
  body: string;
  createdAt: string;
  delivery: ReplyDelivery;
  sentAt: string | null;
}

export interface InquiryNote {
  id: string;
  author: string;
  body: string;
  createdAt: string;
}

/** An admin who can own an enquiry. */
export interface StaffOption {
  id: string;
  name: string;
  email: string;
}

export interface ReplyTemplate {
  id: string;
  name: string;
  subject: string;
  body: string;
}

export interface AdminInquiryPage {
  inquiry: AdminInquiry;
  replies: InquiryReply[];
  notes: InquiryNote[];
  staff: StaffOption[];
  templates: ReplyTemplate[];
  /** What the composer opens with: empty, or the template chosen (`?template=`) filled in. */
  composer: { subject: string; body: string; templateId: string | null };
}

/** The query parameter that fills the composer from a template (works without JavaScript). */
export const TEMPLATE_PARAM = "template";

/** A template's text for one enquiry: `{name}` becomes the enquirer's name. */
export function fillTemplate(text: string, inquiry: { name: string }): string {
  return text.replaceAll("{name}", toOneLine(inquiry.name).trim());
}

/** The page of one enquiry. */
export function inquiryPageHref(id: string): string {
  return `/admin/inquiries/${encodeURIComponent(id)}`;
}

/** The list's one-line preview of a message. */
export function messagePreview(message: string, max = 120): string {
  const line = toOneLine(message).replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "3 h", "2 d": how long an enquiry has waited, as the list shows it. */
export function waitedFor(since: Date | string, now: Date): string {
  const hours = Math.max(0, Math.floor((now.getTime() - new Date(since).getTime()) / 3_600_000));
  if (hours < 1) return "under 1 h";
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

const multiLine = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .check(
      z.overwrite(dropControlChars),
      z.trim(),
      z.minLength(1, required),
      z.maxLength(max, tooLong),
    );

const oneLine = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).check(
    z.overwrite((v: string) => toOneLine(v)),
    z.trim(),
    z.minLength(1, required),
    z.maxLength(max, tooLong),
  );

export const REPLY_SUBJECT_REQUIRED = "Please enter a subject.";
export const REPLY_BODY_REQUIRED = "Please write your reply.";

/** "Send reply": subject and message, and the composer's key (the same post twice sends once). */
export const inquiryReplySchema = z.object({
  intent: z.literal("reply"),
  [SUBMISSION_KEY_FIELD]: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/)),
  subject: oneLine(
    REPLY_SUBJECT_MAX_LENGTH,
    REPLY_SUBJECT_REQUIRED,
    `Please keep the subject under ${REPLY_SUBJECT_MAX_LENGTH} characters.`,
  ),
  body: multiLine(
    REPLY_BODY_MAX_LENGTH,
    REPLY_BODY_REQUIRED,
    `Please keep the reply under ${REPLY_BODY_MAX_LENGTH.toLocaleString("en-GB")} characters.`,
  ),
});
export type InquiryReplyForm = z.output<typeof inquiryReplySchema>;

export const INQUIRY_NOTE_REQUIRED = "Please write the note.";

export const inquiryNoteSchema = z.object({
  intent: z.literal("note"),
  text: multiLine(
    INQUIRY_NOTE_MAX_LENGTH,
    INQUIRY_NOTE_REQUIRED,
    `Please keep the note under ${INQUIRY_NOTE_MAX_LENGTH.toLocaleString("en-GB")} characters.`,
  ),
});

/** "Status, owner and follow-up": a staff member or nobody, a day or none. */
export const inquiryAssignSchema = z.object({
  intent: z.literal("assign"),
  status: z.enum(INQUIRY_STATUSES),
  owner: z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v ? v : null)),
  ),
  followUpOn: z.pipe(
    z.optional(
      z.union([
        z.literal(""),
        z.iso.date({ error: "Please enter a date as DD/MM/YYYY, or leave it empty." }),
      ]),
    ),
    z.transform((v: string | undefined) => (v ? v : null)),
  ),
});
export type InquiryAssignment = z.output<typeof inquiryAssignSchema>;

/** A template of the composer, new or edited. */
export const replyTemplateSchema = z.object({
  intent: z.literal("saveTemplate"),
  id: z.pipe(
    z.optional(z.string()),
    z.transform((v: string | undefined) => (v ? v : null)),
  ),
  name: oneLine(
    TEMPLATE_NAME_MAX_LENGTH,
    "Please name the template.",
    `Please keep the name under ${TEMPLATE_NAME_MAX_LENGTH} characters.`,
  ),
  subject: oneLine(
    REPLY_SUBJECT_MAX_LENGTH,
    REPLY_SUBJECT_REQUIRED,
    `Please keep the subject under ${REPLY_SUBJECT_MAX_LENGTH} characters.`,
  ),
  body: multiLine(
    REPLY_BODY_MAX_LENGTH,
    "Please write the template's text.",
    `Please keep the text under ${REPLY_BODY_MAX_LENGTH.toLocaleString("en-GB")} characters.`,
  ),
});
export type ReplyTemplateForm = z.output<typeof replyTemplateSchema>;
