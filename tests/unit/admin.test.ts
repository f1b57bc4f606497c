import { describe, expect, it } from "vitest";
import { inquiryFiltersQuery, parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import { exportFileName, parseSubscriptionFilters } from "#app/lib/newsletter/admin.ts";
import { londonDate, relativeTime, startOfLondonDay } from "#app/lib/admin/time.ts";

describe("relative times on the dashboard", () => {
  const now = new Date("2026-11-22T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const H = 3600_000;
  it.each([
    [0, "Just now"],
    [59 * 60_000, "Just now"],
    [H, "1 hour ago"],
    [2 * H, "2 hours ago"],
    [23 * H + 59 * 60_000, "23 hours ago"],
    [24 * H, "1 day ago"],
    [47 * H, "1 day ago"],
    [48 * H, "2 days ago"],
    [10 * 24 * H, "10 days ago"],
  ])("%i ms ago → %s", (ms, text) => {
    expect(relativeTime(ago(ms), now)).toBe(text);
  });
});

describe("London dates", () => {
  it("names the London calendar day, in summer and winter", () => {
    expect(londonDate(new Date("2026-06-30T23:30:00Z"))).toBe("2026-07-01");
    expect(londonDate(new Date("2026-12-31T23:30:00Z"))).toBe("2026-12-31");
  });
  it("finds the instant the London day began", () => {
    expect(startOfLondonDay(new Date("2026-07-01T09:00:00Z")).toISOString()).toBe(
      "2026-06-30T23:00:00.000Z",
    );
    expect(startOfLondonDay(new Date("2026-06-30T23:30:00Z")).toISOString()).toBe(
      "2026-06-30T23:00:00.000Z",
    );
    expect(startOfLondonDay(new Date("2026-12-01T09:00:00Z")).toISOString()).toBe(
      "2026-12-01T00:00:00.000Z",
    );
    // The clocks change at 01:00 UTC: the day of the change began at the old offset.
    expect(startOfLondonDay(new Date("2026-03-29T12:00:00Z")).toISOString()).toBe(
      "2026-03-29T00:00:00.000Z",
    );
    expect(startOfLondonDay(new Date("2026-10-25T12:00:00Z")).toISOString()).toBe(
      "2026-10-24T23:00:00.000Z",
    );
  });
  it("names the export file with that date", () => {
    expect(exportFileName("2026-11-22")).toBe("newsletter-subscribers-2026-11-22.txt");
  });
});

describe("admin list filters from the URL", () => {
  it("keeps known values and falls back to 'all' and page 1", () => {
    expect(
      parseInquiryFilters(
        new URLSearchParams(
          "type=training&status=closed&reply=overdue&owner=mine&q=%20ada%20&spam=only&page=3",
        ),
      ),
    ).toEqual({
      type: "training",
      status: "closed",
      reply: "overdue",
      owner: "mine",
      q: "ada",
      spam: "only",
      page: 3,
    });
    expect(
      parseInquiryFilters(new URLSearchParams("type=drop&status=x&owner=his&spam=yes&page=-1")),
    ).toEqual({
      type: "all",
      status: "all",
      reply: "all",
      owner: "all",
      q: "",
      spam: "all",
      page: 1,
    });
    expect(parseSubscriptionFilters(new URLSearchParams("spam=none"))).toEqual({
      q: "",
      spam: "none",
      page: 1,
    });
    expect(parseInquiryFilters(new URLSearchParams("page=2.5")).page).toBe(1);
    expect(parseSubscriptionFilters(new URLSearchParams(`q=${"x".repeat(500)}`)).q).toHaveLength(
      200,
    );
  });
  it("writes short links", () => {
    expect(inquiryFiltersQuery({ type: "all", status: "new", q: "", page: 1 })).toBe("?status=new");
    expect(inquiryFiltersQuery({ type: "all", status: "all", q: "", page: 1 })).toBe("");
    expect(inquiryFiltersQuery({ type: "course", status: "all", q: "a b", page: 2 })).toBe(
      "?type=course&q=a+b&page=2",
    );
    expect(inquiryFiltersQuery({ spam: "only" })).toBe("?spam=only");
    expect(inquiryFiltersQuery({ spam: "all" })).toBe("");
  });
});
