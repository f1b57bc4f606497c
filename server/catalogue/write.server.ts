import { and, eq, like, ne, or } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { FieldErrors } from "#app/lib/forms.ts";
import { nextFreeSlug } from "#app/lib/catalogue/slug.ts";
import { db } from "../db/client.server.ts";
import { isUniqueViolation } from "../db/errors.server.ts";

/**
 * What the admin writers of courses, categories and partners share: input errors the form shows
 * next to a field, race-safe unique slugs, and the change hook.
 */

/** Input the database refused for a reason the admin can fix; shown next to the fields. */
export class InvalidInputError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(Object.values(errors)[0] ?? "Invalid input");
    this.name = "InvalidInputError";
  }
}

interface SlugColumns {
  slug: AnyPgColumn<{ data: string; notNull: true }>;
  id: AnyPgColumn<{ data: string }>;
}

/**
 * The slugs a generated one must step past (for writeWithUniqueSlug): `base` and `base-…`
 * in a table's slug column, but for the row being edited.
 */
async function slugsInUse(
  columns: SlugColumns,
  base: string,
  exceptId?: string,
): Promise<string[]> {
  const rows = await db()
    .select({ slug: columns.slug })
    .from(columns.slug.table)
    .where(
      and(
        or(eq(columns.slug, base), like(columns.slug, `${base}-%`)),
        exceptId ? ne(columns.id, exceptId) : undefined,
      ),
    );
  return rows.map((r) => r.slug);
}

const SLUG_ATTEMPTS = 20;

/**
 * Writes a row under a unique slug. A slug the admin typed is used as is (a clash is their
 * input error); a generated one is `base`, else `base-N` past the highest N in use. Two writers
 * may pick the same candidate at once: the unique constraint refuses the second (23505) and it
 * tries again with a fresh look at what is taken.
 */
export async function writeWithUniqueSlug<T>(options: {
  slug: string;
  typed: boolean;
  constraint: string;
  takenMessage: string;
  /** The table's slug and id columns, where the slugs in use are looked up. */
  columns: SlugColumns;
  /** The row being edited: its own slug is not in the way. */
  exceptId?: string;
  write: (slug: string) => Promise<T>;
}): Promise<T> {
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const slug = options.typed
      ? options.slug
      : nextFreeSlug(
          options.slug,
          await slugsInUse(options.columns, options.slug, options.exceptId),
        );
    try {
      return await options.write(slug);
    } catch (error) {
      if (!isUniqueViolation(error, options.constraint)) throw error;
      if (options.typed) throw new InvalidInputError({ slug: options.takenMessage });
    }
  }
  throw new Error(`No free slug for '${options.slug}' after ${SLUG_ATTEMPTS} attempts`);
}

type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Called after every change to courses, categories or partners. Public pages read the database
 * on each request today, so nothing listens; a cache of public pages or queries must subscribe
 * here and drop what it holds. Returns the unsubscribe function.
 */
export function onCatalogueChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function catalogueChanged(): void {
  for (const listener of listeners) {
    try {
      listener();
    } catch {
      // A listener's failure must not fail the admin's save, which has already happened.
    }
  }
}
