import { asc, eq } from "drizzle-orm";
import type { AdminCategory, CategoryFormValues } from "#app/lib/catalogue/category-form.ts";
import { isSlugVariant, slugify } from "#app/lib/catalogue/slug.ts";
import { auditSnapshot, changedFields, recordAudit, type AuditActor } from "../audit.server.ts";
import { catalogueChanged, writeWithUniqueSlug } from "./write.server.ts";
import { db, type Transaction } from "../db/client.server.ts";
import { categories } from "../db/schema.ts";

/**
 * Course categories. Deleting one leaves its courses uncategorised:
 * the foreign key is ON DELETE SET NULL.
 */

export const CATEGORY_SLUG_TAKEN = "Another category already uses this slug";

/** Where a category's slug is kept unique, and what the admin is told when a typed one is taken. */
const categorySlugs = {
  columns: categories,
  constraint: "categories_slug_unique",
  takenMessage: CATEGORY_SLUG_TAKEN,
};

type CategoryRow = typeof categories.$inferSelect;

/** What the audit log records of a category (not its timestamps). */
const CATEGORY_AUDIT_FIELDS = ["name", "slug", "description"] as const;

async function auditCategory(
  tx: Transaction,
  actor: AuditActor,
  action: "create" | "update" | "delete",
  before: CategoryRow | null,
  after: CategoryRow | null,
): Promise<void> {
  const category = (after ?? before)!;
  const entry = {
    action: `category.${action}`,
    subjectType: "category",
    subjectId: category.id,
    summary: category.name,
  } as const;
  if (action === "update") {
    const changes = changedFields(before!, after!, CATEGORY_AUDIT_FIELDS);
    if (changes) await recordAudit(tx, actor, { ...entry, ...changes });
    return;
  }
  const snapshot = auditSnapshot(category, CATEGORY_AUDIT_FIELDS);
  await recordAudit(tx, actor, {
    ...entry,
    before: action === "delete" ? snapshot : null,
    after: action === "create" ? snapshot : null,
  });
}

/** All fields, by name (the category screen). */
export async function listCategories(): Promise<AdminCategory[]> {
  return db().select().from(categories).orderBy(asc(categories.name), asc(categories.id));
}

/** Id and name, by name (the course form's choice). */
export async function listCategoryOptions(): Promise<{ id: string; name: string }[]> {
  return db()
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name), asc(categories.id));
}

/** The typed slug, or one generated from the name (app/lib/slug.ts); 'category' if the name has no
 * letters. */
function slugFor(values: CategoryFormValues): { slug: string; typed: boolean } {
  if (values.slug) return { slug: values.slug, typed: true };
  return { slug: slugify(values.name) || "category", typed: false };
}

export async function createCategory(
  values: CategoryFormValues,
  actor: AuditActor,
): Promise<AdminCategory> {
  const { slug, typed } = slugFor(values);
  const row = await writeWithUniqueSlug({
    slug,
    typed,
    ...categorySlugs,
    write: (free) =>
      db().transaction(async (tx) => {
        const [created] = await tx
          .insert(categories)
          .values({ name: values.name, slug: free, description: values.description })
          .returning();
        await auditCategory(tx, actor, "create", null, created!);
        return created!;
      }),
  });
  catalogueChanged();
  return row;
}

/** Updates a category; null when it no longer exists. */
export async function updateCategory(
  id: string,
  values: CategoryFormValues,
  actor: AuditActor,
): Promise<AdminCategory | null> {
  const [existing] = await db().select().from(categories).where(eq(categories.id, id));
  if (!existing) return null;
  let { slug, typed } = slugFor(values);
  // Emptying the slug of an unchanged name keeps the URL it already has.
  if (!typed && isSlugVariant(existing.slug, slug)) {
    ({ slug, typed } = { slug: existing.slug, typed: true });
  }
  const row = await writeWithUniqueSlug({
    slug,
    typed,
    ...categorySlugs,
    exceptId: id,
    write: (free) =>
      db().transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(categories)
          .where(eq(categories.id, id))
          .for("update");
        if (!before) return null;
        const [updated] = await tx
          .update(categories)
          .set({ name: values.name, slug: free, description: values.description })
          .where(eq(categories.id, id))
          .returning();
        await auditCategory(tx, actor, "update", before, updated!);
        return updated!;
      }),
  });
  catalogueChanged();
  return row;
}

/** Deletes a category; its courses become uncategorised. False when it did not exist. */
export async function deleteCategory(id: string, actor: AuditActor): Promise<boolean> {
  const deleted = await db().transaction(async (tx) => {
    const [row] = await tx.delete(categories).where(eq(categories.id, id)).returning();
    if (row) await auditCategory(tx, actor, "delete", row, null);
    return row;
  });
  catalogueChanged();
  return deleted !== undefined;
}
