/**
 * What every e-mail shares: the HTML frame, escaping, one-line headers, the details table, the
 * greeting, and the note staff see when a confirmation is held as suspected spam.
 */
import { toOneLine } from "#app/lib/text.ts";

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A header value: one line, bounded. */
export function headerText(value: string, max = 150): string {
  const line = toOneLine(value).trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * How a confirmation greets a visitor. It goes to an address nobody has verified, so it carries
 * as little of what was typed as possible: the name on one line, at most 40 characters.
 */
export const GREETING_NAME_MAX = 40;
export function greetingName(name: string): string {
  return headerText(name, GREETING_NAME_MAX);
}

/**
 * For staff: why the visitor's confirmation was held (decision 0012). Opens the alert, and its
 * subject starts with '[Held]'.
 */
export const HELD_CONFIRMATION_NOTE =
  "Held as suspected spam: this address has already had its confirmation e-mails for the past hour, so none was sent this time. Open it in the admin area and release it to send the confirmation, or delete it.";

export function heldNoticeHtml(note: string): string {
  return `<p style="margin:0 0 16px;padding:12px;border:1px solid #d97706;background:#fffbeb;border-radius:6px"><strong>Held.</strong> ${escapeHtml(note)}</p>`;
}

export function heldSubject(subject: string): string {
  return headerText(`[Held] ${subject}`);
}

export function formatSubmissionDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Europe/London",
  }).format(date);
}

/** A calendar day, 'yyyy-MM-dd', as '1 April 2026': read in UTC so no time zone moves the day. */
export function formatCalendarDate(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** A label and value for the details table of an e-mail; empty values are left out. */
export type Row = [label: string, value: string | null | undefined];

export function rowsHtml(rows: Row[]): string {
  return rows
    .filter((r): r is [string, string] => Boolean(r[1]))
    .map(
      ([label, value]) =>
        `<tr><th align="left" valign="top" style="padding:4px 16px 4px 0;color:#555;font-weight:600;white-space:nowrap">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
}

export function rowsText(rows: Row[]): string {
  return rows
    .filter((r): r is [string, string] => Boolean(r[1]))
    .map(([label, value]) => `${label}: ${value}`)
    .join("\n");
}

/** The shared frame of every HTML e-mail. */
export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111"><div style="max-width:640px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">${body}<p style="margin-top:32px;color:#777;font-size:13px">NightWatch · Dark web monitoring, counter fraud training and security consultancy · London, United Kingdom</p></div></body></html>`;
}

/** How the training team signs its letters to buyers and students. */
export const SIGN_OFF_HTML = "<p>Kind regards,<br>The NightWatch training team</p>";
export const SIGN_OFF_TEXT = ["Kind regards,", "The NightWatch training team"];
