/**
 * What a document PDF may print and how it words dates and file names: the standard PDF fonts
 * cover Windows-1252 (WinAnsi), so anything else a buyer typed becomes its nearest WinAnsi
 * letter, or '?'; dates in the UK style in the business time zone.
 */
import { BUSINESS_TIME_ZONE } from "#app/lib/admin/time.ts";

/** Unicode code points above Latin-1 that WinAnsi (Windows-1252) has. */
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018,
  0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a,
  0x20ac, 0x2122,
]);

/** Letters with no decomposition to a base letter that WinAnsi has. */
const NEAREST: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  Ŧ: "T",
  ŧ: "t",
  "\u2212": "-",
  "\u00ad": "",
};

function inWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code)
  );
}

/** `text` in characters the standard fonts can draw (see above); line breaks become spaces. */
export function winAnsiText(text: string): string {
  let out = "";
  for (const char of text.replace(/[\r\n\t]+/g, " ")) {
    if (inWinAnsi(char)) out += char;
    else if (char in NEAREST) out += NEAREST[char];
    else {
      const base = char.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base && [...base].every(inWinAnsi) ? base : "?";
    }
  }
  return out;
}

const ukDate = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: BUSINESS_TIME_ZONE,
});

/** '23 November 2026', the London calendar date of an ISO instant. */
export function formatDocumentDate(iso: string): string {
  return ukDate.format(new Date(iso));
}

/** The attachment's and the download's file name: 'INV-2026-0001.pdf'. */
export function documentFilename(number: string): string {
  return `${number.replace(/[^A-Za-z0-9-]/g, "_")}.pdf`;
}
