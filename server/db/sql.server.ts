/**
 * Small helpers for building queries safely, shared by every server module that takes an id or
 * a search term from a request.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` has the shape of a UUID; PostgreSQL would refuse anything else as a `uuid`. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * `%text%` for LIKE / ILIKE, lower-cased, with the text's own `%`, `_` and `\` matched literally
 * (so a search box cannot ask for "everything").
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
