import * as orm from "drizzle-orm";
import {
  fillTemplate,
  type AdminInquiryPage,
  type InquiryAssignment,
  type InquiryNote,
  type InquiryReply,
  type InquiryReplyForm,
  type ReplyDelivery,
} from "#app/lib/inquiries/thread.ts";
import { changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { emailOutbox, inquiries, inquiryNotes, inquiryReplies, user } from "../db/schema.ts";
import { isUuid } from "../db/sql.server.ts";
import { queueEmails } from "../email/outbox.server.ts";
import { renderInquiryReply } from "../email/templates/inquiry-reply.server.ts";
import { nudgeOutbox } from "../email/worker.server.ts";
import { log } from "../log.server.ts";
import { staffOptions } from "../staff.server.ts";
import { toAdminInquiry } from "./admin.server.ts";
import { listReplyTemplates } from "./reply-templates.server.ts";

/**
 * An enquiry's own page (decision 0048): its thread of replies, sent from here through the
 * outbox (from the site's address, Reply-To the staff member) and kept with who sent them and
 * their delivery state; its notes, one row each; its owner and follow-up date. Every change
 * writes its audit row in its own transaction. Callers have passed the admin guard.
 */

const DEFAULT_SUBJECT = "Your enquiry to NightWatch";

function deliveryOf(status: string | null): ReplyDelivery {
  if (status === "pending") return "queued";
  if (status === "sending" || status === "sent" || status === "failed") return status;
  return "unknown";
}

/** Everything the page shows; null for an id that names no enquiry. */
export async function inquiryPage(
  id: string,
  templateId: string | null,
  now: Date = new Date(),
): Promise<AdminInquiryPage | null> {
  if (!isUuid(id)) return null;
  const [row] = await db().select().from(inquiries).where(orm.eq(inquiries.id, id));
  if (!row) return null;
  const [replyRows, noteRows, staff, templates] = await Promise.all([
    db()
      .select({ reply: inquiryReplies, status: emailOutbox.status, sentAt: emailOutbox.sentAt })
      .from(inquiryReplies)
      .leftJoin(emailOutbox, orm.eq(emailOutbox.id, inquiryReplies.emailId))
      .where(orm.eq(inquiryReplies.inquiryId, id))
      .orderBy(orm.asc(inquiryReplies.createdAt), orm.asc(inquiryReplies.id)),
    db()
      .select()
      .from(inquiryNotes)
      .where(orm.eq(inquiryNotes.inquiryId, id))
      .orderBy(orm.desc(inquiryNotes.createdAt), orm.desc(inquiryNotes.id)),
    staffOptions(),
    listReplyTemplates(),
  ]);
  const replies: InquiryReply[] = replyRows.map(({ reply, status, sentAt }) => ({
    id: reply.id,
    author: reply.author,
    subject: reply.subject,
    body: reply.body,
    createdAt: reply.createdAt.toISOString(),
    delivery: deliveryOf(status),
    sentAt: sentAt?.toISOString() ?? null,
  }));
  const notes: InquiryNote[] = noteRows.map((note) => ({
    id: note.id,
    author: note.author,
    body: note.body,
    createdAt: note.createdAt.toISOString(),
  }));
  const chosen = templateId ? templates.find((t) => t.id === templateId) : undefined;
  const composer = chosen
    ? {
        subject: fillTemplate(chosen.subject, row),
        body: fillTemplate(chosen.body, row),
        templateId: chosen.id,
      }
    : { subject: DEFAULT_SUBJECT, body: "", templateId: null };
  return { inquiry: toAdminInquiry(row, now), replies, notes, staff, templates, composer };
}

export type SendReplyResult =
  { ok: true; duplicate: boolean } | { ok: false; reason: "not_found" | "held" | "anonymised" };

/**
 * "Send reply": the reply and its e-mail are written in one transaction, so a reply is kept if
 * and only if its message is queued; the composer's key makes a second post of the same reply
 * (a double click, a retried request) send nothing more. A reply answers the enquiry: one still
 * new or in progress becomes replied, which ends its reply-due clock.
 */
export async function sendInquiryReply(
  inquiryId: string,
  reply: InquiryReplyForm,
  sender: AuditActor & { name: string },
): Promise<SendReplyResult> {
  if (!isUuid(inquiryId)) return { ok: false, reason: "not_found" };
  const result = await db().transaction(async (tx): Promise<SendReplyResult> => {
    const [row] = await tx
      .select()
      .from(inquiries)
      .where(orm.eq(inquiries.id, inquiryId))
      .for("update");
    if (!row) return { ok: false, reason: "not_found" };
    if (row.spamReason) return { ok: false, reason: "held" };
    if (row.anonymisedAt) return { ok: false, reason: "anonymised" };
    const [kept] = await tx
      .insert(inquiryReplies)
      .values({
        inquiryId,
        submissionKey: reply.submission_key,
        authorId: sender.id,
        author: sender.email,
        subject: reply.subject,
        body: reply.body,
      })
      .onConflictDoNothing({ target: [inquiryReplies.inquiryId, inquiryReplies.submissionKey] })
      .returning({ id: inquiryReplies.id });
    if (!kept) return { ok: true, duplicate: true };
    const email = renderInquiryReply({
      subject: reply.subject,
      body: reply.body,
      senderName: sender.name,
      message: row.message,
      submittedAt: row.createdAt,
    });
    const [queued] = await queueEmails(tx, [
      { kind: "inquiry_reply", to: row.email, replyTo: sender.email, inquiryId, ...email },
    ]);
    await tx
      .update(inquiryReplies)
      .set({ emailId: queued!.id })
      .where(orm.eq(inquiryReplies.id, kept.id));
    const answered = row.status === "new" || row.status === "in_progress";
    if (answered) {
      await tx
        .update(inquiries)
        .set({ status: "replied", updatedAt: new Date() })
        .where(orm.eq(inquiries.id, inquiryId));
    }
    await recordAudit(tx, sender, {
      action: "inquiry.reply",
      subjectType: "inquiry",
      subjectId: inquiryId,
      summary: row.email,
      before: answered ? { status: row.status } : undefined,
      after: { subject: reply.subject, ...(answered ? { status: "replied" } : {}) },
    });
    return { ok: true, duplicate: false };
  });
  if (result.ok && !result.duplicate) {
    log.info({ inquiryId }, "inquiry reply queued");
    nudgeOutbox();
  }
  return result;
}

/**
 * "Add note": a row of the notes list, with who wrote it. The enquiry's single notes field (the
 * update dialog's, and the CSV's) becomes this latest note.
 */
export async function addInquiryNote(
  inquiryId: string,
  text: string,
  actor: AuditActor,
): Promise<boolean> {
  if (!isUuid(inquiryId)) return false;
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(inquiries)
      .set({ notes: text, updatedAt: new Date() })
      .where(orm.eq(inquiries.id, inquiryId))
      .returning({ id: inquiries.id, email: inquiries.email });
    if (!row) return false;
    await tx
      .insert(inquiryNotes)
      .values({ inquiryId, authorId: actor.id, author: actor.email, body: text });
    await recordAudit(tx, actor, {
      action: "inquiry.note",
      subjectType: "inquiry",
      subjectId: inquiryId,
      summary: row.email,
      after: { note: text },
    });
    return true;
  });
}

export type AssignResult = { ok: true } | { ok: false; reason: "not_found" | "unknown_owner" };

/**
 * "Status, owner and follow-up": the status, a staff member (who must exist) or nobody, and a day
 * or none.
 */
export async function assignInquiry(
  inquiryId: string,
  assignment: Omit<InquiryAssignment, "intent">,
  actor: AuditActor,
): Promise<AssignResult> {
  if (!isUuid(inquiryId)) return { ok: false, reason: "not_found" };
  return db().transaction(async (tx): Promise<AssignResult> => {
    if (assignment.owner) {
      const [owner] = await tx
        .select({ id: user.id })
        .from(user)
        .where(orm.eq(user.id, assignment.owner));
      if (!owner) return { ok: false, reason: "unknown_owner" };
    }
    const [before] = await tx
      .select()
      .from(inquiries)
      .where(orm.eq(inquiries.id, inquiryId))
      .for("update");
    if (!before) return { ok: false, reason: "not_found" };
    const next = {
      status: assignment.status,
      ownerId: assignment.owner,
      followUpOn: assignment.followUpOn,
    };
    const changes = changedFields(before, next, ["status", "ownerId", "followUpOn"]);
    if (!changes) return { ok: true };
    await tx
      .update(inquiries)
      .set({ ...next, updatedAt: new Date() })
      .where(orm.eq(inquiries.id, inquiryId));
    await recordAudit(tx, actor, {
      action: "inquiry.assign",
      subjectType: "inquiry",
      subjectId: inquiryId,
      summary: before.email,
      ...changes,
    });
    return { ok: true };
  });
}
