/**
 * Quill 2.0's semantic HTML writes every space as &nbsp;, which would stop public text from
 * wrapping. Single spaces go back to spaces; in a run of several, all but one stay non-breaking
 * so the author's spacing survives. (A typed U+00A0 is a character, not the entity, so it stays.)
 */
export function normaliseEditorHtml(html: string): string {
  return html.replace(/(?:&nbsp;)+/g, (run) => " " + "&nbsp;".repeat(run.length / 6 - 1));
}
