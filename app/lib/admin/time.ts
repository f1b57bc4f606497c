/**
 * Times on the admin screens. The business is in the UK: calendar dates are Europe/London
 * dates, on the server and in the browser alike.
 */

export const BUSINESS_TIME_ZONE = "Europe/London";

const HOUR = 60 * 60 * 1000;

/**
 * Under 1 hour 'Just now'; under 24 hours 'N hour(s) ago'; under 48 hours
 * '1 day ago'; otherwise 'N days ago'.
 */
export function relativeTime(date: Date | string, now: Date | number = Date.now()): string {
  const elapsed = Number(now) - new Date(date).getTime();
  const hours = Math.floor(elapsed / HOUR);
  if (hours < 1) return "Just now";
  if (hours < 24) return `${hours} ${hours === 1 ? "hour" : "hours"} ago`;
  if (hours < 48) return "1 day ago";
  return `${Math.floor(hours / 24)} days ago`;
}

/** 'yyyy-MM-dd' of the instant's calendar day in London. */
export function londonDate(instant: Date | number = Date.now()): string {
  // en-CA formats dates as yyyy-MM-dd.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: BUSINESS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(instant);
}

/** The instant London's current day began (midnight, GMT or BST). */
export function startOfLondonDay(instant: Date | number = Date.now()): Date {
  const [y, m, d] = londonDate(instant).split("-").map(Number) as [number, number, number];
  // Midnight UTC of that date, moved by London's offset at that moment (0 or +1 hour).
  const utcMidnight = Date.UTC(y, m - 1, d);
  const londonClock = new Date(
    new Date(utcMidnight).toLocaleString("en-US", { timeZone: BUSINESS_TIME_ZONE }),
  ).getTime();
  const utcClock = new Date(
    new Date(utcMidnight).toLocaleString("en-US", { timeZone: "UTC" }),
  ).getTime();
  return new Date(utcMidnight - (londonClock - utcClock));
}

/**
 * The London calendar month the instant falls in: its first instant (midnight on the 1st, GMT
 * or BST) and the first instant of the next month.
 */
export function londonMonth(instant: Date | number = Date.now()): { start: Date; end: Date } {
  const [y, m] = londonDate(instant).split("-").map(Number) as [number, number];
  // Noon UTC of a day is within that London day whatever the offset.
  return {
    start: startOfLondonDay(Date.UTC(y, m - 1, 1, 12)),
    end: startOfLondonDay(Date.UTC(y, m, 1, 12)),
  };
}

/**
 * A calendar date as typed in the UK (dd/mm/yyyy, also with '.' or '-') or as the URL keeps it
 * (yyyy-MM-dd), as 'yyyy-MM-dd'; '' when it is not a real date. A text field rather than
 * `<input type="date">`, whose format follows the browser's language, not the business's.
 */
export function parseCalendarDate(value: string | null): string {
  const text = (value ?? "").trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const uk = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  const [y, m, d] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : uk
      ? [Number(uk[3]), Number(uk[2]), Number(uk[1])]
      : [0, 0, 0];
  const date = new Date(Date.UTC(y, m - 1, d));
  const real =
    date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  if (!real || y < 2000 || y > 9999) return "";
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** 'yyyy-MM-dd' as the UK writes it: dd/mm/yyyy ('' stays ''). */
export function ukDate(isoDate: string): string {
  const [y, m, d] = isoDate.split("-");
  return isoDate ? `${d}/${m}/${y}` : "";
}

/** London midnight starting the calendar day 'yyyy-MM-dd' (GMT or BST), or `addDays` later. */
export function startOfLondonDate(date: string, addDays = 0): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  // Noon UTC of the day is within that London day whatever the offset.
  return startOfLondonDay(Date.UTC(y, m - 1, d + addDays, 12));
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: BUSINESS_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
});
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: BUSINESS_TIME_ZONE,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** '22 Nov 2026' */
export function formatDate(date: Date | string): string {
  return dateFormat.format(new Date(date));
}

/** '22 Nov 2026, 14:05' */
export function formatDateTime(date: Date | string): string {
  return dateTimeFormat.format(new Date(date));
}
