import { asc, desc, eq } from "drizzle-orm";
import type { AdminPartner, PartnerFormValues } from "#app/lib/catalogue/partner-form.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { catalogueChanged } from "./write.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { coursePartners } from "../db/schema.ts";
import { discardImage, storeImage } from "../uploads.server.ts";

/**
 * Course partners (docs/rules.md, Catalogue and courses). A logo is stored in logos/; replacing
 * or removing it deletes the old file. Deleting a partner leaves its courses partner-less: the
 * foreign key is ON DELETE SET NULL.
 */

/** All fields, newest first (the partner screen). */
export async function listPartners(): Promise<AdminPartner[]> {
  return db()
    .select()
    .from(coursePartners)
    .orderBy(desc(coursePartners.createdAt), desc(coursePartners.id));
}

/** Id and name, by name (the course form's choice). */
export async function listPartnerOptions(): Promise<{ id: string; name: string }[]> {
  return db()
    .select({ id: coursePartners.id, name: coursePartners.name })
    .from(coursePartners)
    .orderBy(asc(coursePartners.name), asc(coursePartners.id));
}

type PartnerRow = typeof coursePartners.$inferSelect;

/** What the audit log records of a partner (a new logo shows as `logoUrl`; not timestamps). */
const PARTNER_AUDIT_FIELDS = [
  "name",
  "description",
  "websiteUrl",
  "purchaseUrl",
  "contactEmail",
  "logoUrl",
] as const;

async function auditPartner(
  tx: Transaction,
  actor: AuditActor,
  action: "create" | "update" | "delete",
  before: PartnerRow | null,
  after: PartnerRow | null,
): Promise<void> {
  const partner = (after ?? before)!;
  const entry = {
    action: `partner.${action}`,
    subjectType: "partner",
    subjectId: partner.id,
    summary: partner.name,
  } as const;
  if (action === "update") {
    const changes = changedFields(before!, after!, PARTNER_AUDIT_FIELDS);
    if (changes) await recordAudit(tx, actor, { ...entry, ...changes });
    return;
  }
  const snapshot = auditSnapshot(partner, PARTNER_AUDIT_FIELDS);
  await recordAudit(tx, actor, {
    ...entry,
    before: action === "delete" ? snapshot : null,
    after: action === "create" ? snapshot : null,
  });
}

function columns(values: PartnerFormValues) {
  return {
    name: values.name,
    description: values.description,
    websiteUrl: values.website_url,
    purchaseUrl: values.purchase_url,
    contactEmail: values.contact_email,
  };
}

/** Creates a partner; a refused logo throws UploadError and nothing is saved. */
export async function createPartner(
  values: PartnerFormValues,
  actor: AuditActor,
): Promise<AdminPartner> {
  const logoUrl = values.logo ? await storeImage("logos", values.logo) : null;
  try {
    const created = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(coursePartners)
        .values({ ...columns(values), logoUrl })
        .returning();
      await auditPartner(tx, actor, "create", null, row!);
      return row!;
    });
    catalogueChanged();
    return created;
  } catch (error) {
    await discardImage(logoUrl);
    throw error;
  }
}

/**
 * Updates a partner: a new logo replaces the old one, `remove_logo` clears it (logo_url null);
 * either way the old file is deleted once the row no longer points at it. Null when the partner
 * no longer exists.
 */
export async function updatePartner(
  id: string,
  values: PartnerFormValues,
  actor: AuditActor,
): Promise<AdminPartner | null> {
  const [existing] = await db()
    .select({ logoUrl: coursePartners.logoUrl })
    .from(coursePartners)
    .where(eq(coursePartners.id, id));
  if (!existing) return null;
  const newLogoUrl = values.logo ? await storeImage("logos", values.logo) : null;
  const logoUrl = newLogoUrl ?? (values.remove_logo ? null : existing.logoUrl);
  let updated: AdminPartner | undefined;
  try {
    updated = await db().transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(coursePartners)
        .where(eq(coursePartners.id, id))
        .for("update");
      if (!before) return undefined;
      const [row] = await tx
        .update(coursePartners)
        .set({ ...columns(values), logoUrl })
        .where(eq(coursePartners.id, id))
        .returning();
      await auditPartner(tx, actor, "update", before, row!);
      return row;
    });
  } catch (error) {
    await discardImage(newLogoUrl);
    throw error;
  }
  if (!updated) {
    await discardImage(newLogoUrl);
    return null;
  }
  if (existing.logoUrl && existing.logoUrl !== logoUrl) await discardImage(existing.logoUrl);
  catalogueChanged();
  return updated;
}

/** Deletes a partner and its logo file; its courses become partner-less. False when absent. */
export async function deletePartner(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const [row] = await tx.delete(coursePartners).where(eq(coursePartners.id, id)).returning();
    if (row) await auditPartner(tx, actor, "delete", row, null);
    return row;
  });
  if (!deleted) return false;
  await discardImage(deleted.logoUrl);
  catalogueChanged();
  return true;
}
