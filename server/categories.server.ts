import { asc, eq } from "drizzle-orm";
import type { AdminCategory, CategoryFormValues } from "#app/lib/category-form.ts";
import { isSlugVariant, slugify } from "#app/lib/slug.ts";
import { catalogueChanged, writeWithUniqueSlug } from "./catalogue-write.server.ts";
import { db } from "./db/client.server.ts";
import { categories } from "./db/schema.ts";

/**
 * Course categories (spec §3, §7 'Categories'). Deleting one leaves its courses uncategorised:
 * the foreign key is ON DELETE SET NULL.
 */

export const CATEGORY_SLUG_TAKEN = "Another category already uses this slug";

/** Where a category's slug is kept unique, and what the admin is told when a typed one is taken. */
const categorySlugs = {
  columns: categories,
  constraint: "categories_slug_unique",
  takenMessage: CATEGORY_SLUG_TAKEN,
};

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

/** The typed slug, or one generated from the name (spec §5); 'category' if the name has no letters. */
function slugFor(values: CategoryFormValues): { slug: string; typed: boolean } {
  if (values.slug) return { slug: values.slug, typed: true };
  return { slug: slugify(values.name) || "category", typed: false };
}

export async function createCategory(values: CategoryFormValues): Promise<AdminCategory> {
  const { slug, typed } = slugFor(values);
  const row = await writeWithUniqueSlug({
    slug,
    typed,
    ...categorySlugs,
    write: async (free) => {
      const [created] = await db()
        .insert(categories)
        .values({ name: values.name, slug: free, description: values.description })
        .returning();
      return created!;
    },
  });
  catalogueChanged();
  return row;
}

/** Updates a category; null when it no longer exists. */
export async function updateCategory(
  id: string,
  values: CategoryFormValues,
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
    write: async (free) => {
      const [updated] = await db()
        .update(categories)
        .set({ name: values.name, slug: free, description: values.description })
        .where(eq(categories.id, id))
        .returning();
      return updated ?? null;
    },
  });
  catalogueChanged();
  return row;
}

/** Deletes a category; its courses become uncategorised. False when it did not exist. */
export async function deleteCategory(id: string): Promise<boolean> {
  const deleted = await db()
    .delete(categories)
    .where(eq(categories.id, id))
    .returning({ id: categories.id });
  catalogueChanged();
  return deleted.length > 0;
}
