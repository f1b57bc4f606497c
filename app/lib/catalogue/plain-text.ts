/**
 * Plain text staff type for the public pages (a course's who should attend, outcomes,
 * prerequisites and format; the About story): never HTML. Split into blocks the page renders as
 * elements — paragraphs keep their line breaks, and a run of lines starting with "- " (or "* ",
 * "• ") is a list (docs/rules.md, Catalogue and courses). Safe on both sides.
 */

export type TextBlock = { kind: "paragraph"; lines: string[] } | { kind: "list"; items: string[] };

const BULLET = /^\s*[-*•]\s+/;

/** Blank lines separate paragraphs; consecutive bullet lines make one list. */
export function textBlocks(text: string | null | undefined): TextBlock[] {
  const blocks: TextBlock[] = [];
  let current: TextBlock | null = null;
  for (const raw of (text ?? "").replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line === "") {
      current = null;
      continue;
    }
    if (BULLET.test(line)) {
      const item = line.replace(BULLET, "");
      if (current?.kind !== "list") blocks.push((current = { kind: "list", items: [] }));
      current.items.push(item);
    } else {
      if (current?.kind !== "paragraph") blocks.push((current = { kind: "paragraph", lines: [] }));
      current.lines.push(line);
    }
  }
  return blocks;
}

/** CPD hours as the course page shows them: '7 hours', '7.5 hours', '1 hour'; null when unset. */
export function formatCpdHours(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  const hours = Number(value);
  if (!Number.isFinite(hours) || hours < 0) return null;
  const shown = Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
  return `${shown} ${hours === 1 ? "hour" : "hours"}`;
}
