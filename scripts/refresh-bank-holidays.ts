import { writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Refreshes server/calendar/uk-bank-holidays.json from GOV.UK's published list (England and
 * Wales: the business works from London). Run it once a year, or when GOV.UK announces an extra
 * bank holiday, and commit the file it writes.
 */
const SOURCE = "https://www.gov.uk/bank-holidays.json";
const DIVISION = "england-and-wales";

interface Division {
  division: string;
  events: { title: string; date: string; notes: string; bunting: boolean }[];
}

const response = await fetch(SOURCE, { headers: { Accept: "application/json" } });
if (!response.ok) throw new Error(`${SOURCE} answered ${response.status}`);
const all = (await response.json()) as Record<string, Division>;
const division = all[DIVISION];
if (!division || !Array.isArray(division.events) || division.events.length === 0) {
  throw new Error(`${SOURCE} has no ${DIVISION} list`);
}
for (const event of division.events) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(event.date)) throw new Error(`Unexpected date ${event.date}`);
}
const file = path.join(import.meta.dirname, "..", "server", "calendar", "uk-bank-holidays.json");
const events = division.events.toSorted((a, b) => a.date.localeCompare(b.date));
writeFileSync(file, `${JSON.stringify({ division: DIVISION, source: SOURCE, events }, null, 2)}\n`);
console.log(`Wrote ${events.length} bank holidays (${events[0]!.date} to ${events.at(-1)!.date}).`);
