/**
 * The URL slug rule (docs/rules.md, Catalogue and courses): lower-case, every run of characters
 * other than a–z and 0–9 becomes one hyphen, hyphens at both ends are trimmed. Used for categories
 * and courses. 'Fraud & Risk: 101!' → 'fraud-risk-101'. Can be '' (e.g. a title of punctuation
 * only).
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A slug as stored: lower-case letters and digits in runs joined by single hyphens. */
export function isSlug(value: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value);
}

/** `base`, then `base-2`, `base-3`, …: the n-th candidate when earlier ones are taken. */
export function slugCandidate(base: string, n: number): string {
  return n <= 1 ? base : `${base}-${n}`;
}

/**
 * The next free slug for `base` given slugs already taken: `base` when free, otherwise one more
 * than the highest `base-N` in use (so a deleted middle number is not reused).
 */
export function nextFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;

  let highest = 1;
  for (const slug of used) {
    if (slug !== base && isSlugVariant(slug, base)) {
      highest = Math.max(highest, Number(slug.slice(base.length + 1)));
    }
  }
  return slugCandidate(base, highest + 1);
}

/** Whether `slug` is `base` or one of its numbered variants (`base-2`, `base-3`, …). */
export function isSlugVariant(slug: string, base: string): boolean {
  return (
    slug === base || (slug.startsWith(`${base}-`) && /^\d{1,9}$/.test(slug.slice(base.length + 1)))
  );
}
