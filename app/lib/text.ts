/**
 * Control characters in what people type. `\p{Cc}` is C0, DEL and C1: none belongs in a
 * single-line field, an e-mail header or a link, and a NUL cannot even be stored in PostgreSQL.
 */

const CONTROL_RUNS = /\p{Cc}+/gu;
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/gu;
const CONTROL = /\p{Cc}/u;

/** One line: each run of control characters (line breaks, tabs included) becomes one space. */
export function toOneLine(value: string): string {
  return value.replace(CONTROL_RUNS, " ");
}

/** Multi-line text: line breaks and tabs stay, other control characters are dropped. */
export function dropControlChars(value: string): string {
  return value.replace(CONTROL_EXCEPT_LINE_BREAKS, "");
}

export function hasControlChar(value: string): boolean {
  return CONTROL.test(value);
}
