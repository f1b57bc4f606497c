import { describe, expect, it } from "vitest";
import { endOfWorkingDaysAfter } from "#server/calendar/working-days.server.ts";
import { awaitsReply, replyDueAt } from "#server/inquiries/reply-due.server.ts";

/**
 * When an enquiry's reply is due (decision 0047): 24 hours after it arrived, a File Interrogator
 * licence enquiry by the end of the second working day after its day — weekends and the bank
 * holidays of England and Wales (the data file's) skipped, in UK time.
 */
describe("reply due times", () => {
  it("are 24 hours after arrival for every enquiry but a licence", () => {
    const arrived = new Date("2026-11-27T15:30:00Z");
    for (const type of ["training", "security_consultation", "course", "general"] as const) {
      expect(replyDueAt(type, arrived).toISOString()).toBe("2026-11-28T15:30:00.000Z");
    }
  });

  it("give a licence enquiry until the end of the second working day, over a weekend", () => {
    // Friday afternoon: Monday and Tuesday are the two working days; due at Tuesday's end.
    expect(replyDueAt("file_interrogator", new Date("2026-11-27T15:30:00Z")).toISOString()).toBe(
      "2026-12-02T00:00:00.000Z",
    );
    // Saturday counts from Monday too.
    expect(replyDueAt("file_interrogator", new Date("2026-11-28T09:00:00Z")).toISOString()).toBe(
      "2026-12-02T00:00:00.000Z",
    );
  });

  it("skip the bank holidays, and keep to UK time in summer", () => {
    // Christmas Eve: Christmas Day and the Boxing Day holiday (Monday 28th) are not working days.
    expect(replyDueAt("file_interrogator", new Date("2026-12-24T10:00:00Z")).toISOString()).toBe(
      "2026-12-31T00:00:00.000Z",
    );
    // Friday 1 May 2026 (BST); Monday 4 May is the early May bank holiday: due at the end of
    // Wednesday 6 May, London midnight, 23:00 UTC.
    expect(replyDueAt("file_interrogator", new Date("2026-05-01T09:00:00Z")).toISOString()).toBe(
      "2026-05-06T23:00:00.000Z",
    );
    // Just after midnight in London (still the day before in UTC) is the London day's.
    expect(endOfWorkingDaysAfter(new Date("2026-05-03T23:30:00Z"), 1).toISOString()).toBe(
      "2026-05-05T23:00:00.000Z",
    );
  });

  it("are owed only while an enquiry is new or in progress, and neither spam nor anonymised", () => {
    const base = { spamReason: null, anonymisedAt: null };
    expect(awaitsReply({ ...base, status: "new" })).toBe(true);
    expect(awaitsReply({ ...base, status: "in_progress" })).toBe(true);
    expect(awaitsReply({ ...base, status: "replied" })).toBe(false);
    expect(awaitsReply({ ...base, status: "closed" })).toBe(false);
    expect(awaitsReply({ ...base, status: "new", spamReason: "honeypot" })).toBe(false);
    expect(awaitsReply({ ...base, status: "new", anonymisedAt: new Date() })).toBe(false);
  });
});
