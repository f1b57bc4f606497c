import { londonDate, startOfLondonDay } from "#app/lib/admin/time.ts";
import bankHolidays from "./uk-bank-holidays.json";

/**
 * Working days in London: Monday to Friday, except the bank holidays of England and Wales. The
 * holidays are reference data (uk-bank-holidays.json, GOV.UK's own list for the division), kept
 * up to date with `npm run data:bank-holidays`; no date is typed into code.
 */

const HOLIDAYS: ReadonlySet<string> = new Set(bankHolidays.events.map((e) => e.date));

/** The last bank holiday the list knows: after it, only weekends are known to be days off. */
export const BANK_HOLIDAYS_KNOWN_UNTIL = bankHolidays.events.reduce(
  (last, e) => (e.date > last ? e.date : last),
  "",
);

const DAY = 24 * 60 * 60 * 1000;

/** 'yyyy-MM-dd' one calendar day after `day` (step 1) or before it (step -1). */
function dayFrom(day: string, step: 1 | -1): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + step * DAY).toISOString().slice(0, 10);
}

/** Whether a London calendar day ('yyyy-MM-dd') is a working day. */
export function isWorkingDay(day: string): boolean {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !HOLIDAYS.has(day);
}

/**
 * The end (London midnight) of the `workingDays`-th working day after (step 1) or before (step
 * -1) the London day of `instant`.
 */
function endOfWorkingDayFrom(instant: Date, workingDays: number, step: 1 | -1): Date {
  let day = londonDate(instant);
  let counted = 0;
  while (counted < workingDays) {
    day = dayFrom(day, step);
    if (isWorkingDay(day)) counted += 1;
  }
  // The end of that day is the start of the next one, London time (noon UTC lies within it).
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return startOfLondonDay(Date.UTC(y, m - 1, d + 1, 12));
}

/**
 * The instant changes close for something that starts at `startsAt`: the end (London midnight)
 * of the working day `workingDays` working days before the day it starts; with 0, the start
 * itself. E.g. 2 working days before a Wednesday start: changes close at the end of Monday.
 */
export function workingDaysBefore(startsAt: Date, workingDays: number): Date {
  if (workingDays <= 0) return startsAt;
  return endOfWorkingDayFrom(startsAt, workingDays, -1);
}

/**
 * The end (London midnight) of the `workingDays`-th working day after the London day of
 * `instant`. E.g. 2 working days after a Friday: the end of Tuesday; after a Thursday before a
 * bank holiday Friday: the end of Tuesday too.
 */
export function endOfWorkingDaysAfter(instant: Date, workingDays: number): Date {
  return endOfWorkingDayFrom(instant, workingDays, 1);
}
