/** Joins the truthy class names. It does not resolve conflicting Tailwind classes. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
