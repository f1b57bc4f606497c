import * as orm from "drizzle-orm";
import type { ReplyTemplate, ReplyTemplateForm } from "#app/lib/inquiries/thread.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { db } from "../db/client.server.ts";
import { inquiryReplyTemplates } from "../db/schema.ts";
import { isUniqueViolation } from "../db/errors.server.ts";
import { isUuid } from "../db/sql.server.ts";

/**
 * The reply composer's templates (decision 0048): a few texts staff keep and edit, `{name}`
 * standing for the enquirer's name. Choosing one fills the composer, where it is edited again
 * before it is sent; a template itself is never sent.
 */

export async function listReplyTemplates(): Promise<ReplyTemplate[]> {
  return db()
    .select({
      id: inquiryReplyTemplates.id,
      name: inquiryReplyTemplates.name,
      subject: inquiryReplyTemplates.subject,
      body: inquiryReplyTemplates.body,
    })
    .from(inquiryReplyTemplates)
    .orderBy(orm.asc(inquiryReplyTemplates.name));
}

export type SaveTemplateResult =
  { ok: true; id: string } | { ok: false; reason: "not_found" | "name_taken" };

/** Adds a template, or changes one (by id); two templates may not share a name. */
export async function saveReplyTemplate(
  form: ReplyTemplateForm,
  actor: AuditActor,
): Promise<SaveTemplateResult> {
  const fields = { name: form.name, subject: form.subject, body: form.body };
  try {
    return await db().transaction(async (tx): Promise<SaveTemplateResult> => {
      if (!form.id) {
        const [added] = await tx
          .insert(inquiryReplyTemplates)
          .values({ ...fields, updatedBy: actor.email })
          .returning();
        await recordAudit(tx, actor, {
          action: "inquiry.template_add",
          subjectType: "inquiry",
          subjectId: added!.id,
          summary: form.name,
          after: fields,
        });
        return { ok: true, id: added!.id };
      }
      if (!isUuid(form.id)) return { ok: false, reason: "not_found" };
      const [before] = await tx
        .select()
        .from(inquiryReplyTemplates)
        .where(orm.eq(inquiryReplyTemplates.id, form.id))
        .for("update");
      if (!before) return { ok: false, reason: "not_found" };
      const changes = changedFields(before, fields, ["name", "subject", "body"]);
      if (changes) {
        await tx
          .update(inquiryReplyTemplates)
          .set({ ...fields, updatedBy: actor.email, updatedAt: new Date() })
          .where(orm.eq(inquiryReplyTemplates.id, form.id));
        await recordAudit(tx, actor, {
          action: "inquiry.template_update",
          subjectType: "inquiry",
          subjectId: form.id,
          summary: form.name,
          ...changes,
        });
      }
      return { ok: true, id: form.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "name_taken" };
    throw error;
  }
}

/** Deletes a template; false when there is none by that id. */
export async function deleteReplyTemplate(id: string, actor: AuditActor): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db().transaction(async (tx) => {
    const [gone] = await tx
      .delete(inquiryReplyTemplates)
      .where(orm.eq(inquiryReplyTemplates.id, id))
      .returning();
    if (!gone) return false;
    await recordAudit(tx, actor, {
      action: "inquiry.template_delete",
      subjectType: "inquiry",
      subjectId: id,
      summary: gone.name,
      before: auditSnapshot(gone, ["name", "subject", "body"]),
    });
    return true;
  });
}
