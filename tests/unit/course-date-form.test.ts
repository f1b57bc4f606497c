import { describe, expect, it } from "vitest";
import {
  BOOKING_CLOSES_AFTER_START,
  CAPACITY_INVALID,
  capacityBelowSold,
  COURSE_REQUIRED,
  courseDateFormSchema,
  courseDateInstants,
  courseDateProblems,
  END_BEFORE_START,
  PRICE_INVALID,
  START_IN_PAST,
  TIME_INVALID,
  toUkWallTime,
  ukWallTimeToUtc,
  VENUE_REQUIRED,
} from "#app/lib/catalogue/course-date-form.ts";
import { parseForm } from "#app/lib/forms.ts";

/**
 * The admin course date form (decision 0033): UK wall times to UTC and back across the clock
 * changes, the schema's messages, and the business rules it and the server share.
 */

const NOW = new Date("2026-01-10T12:00:00Z");
const COURSE = "7f1b0f7e-1c1a-4c1a-9c1a-1c1a1c1a1c1a";

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

const VALID = {
  course_id: COURSE,
  starts_at: "2030-03-05T09:30",
  ends_at: "2030-03-05T16:30",
  format: "online",
  capacity: "12",
};

describe("UK wall time ↔ UTC", () => {
  it.each([
    ["2026-03-28T09:30", "2026-03-28T09:30:00.000Z"], // the day before the clocks go forward: GMT
    ["2026-03-29T09:30", "2026-03-29T08:30:00.000Z"], // the morning they have: BST
    ["2026-06-01T09:30", "2026-06-01T08:30:00.000Z"],
    ["2026-10-24T09:30", "2026-10-24T08:30:00.000Z"], // the day before they go back: BST
    ["2026-10-25T09:30", "2026-10-25T09:30:00.000Z"], // the morning they have: GMT
    ["2026-12-31T23:59", "2026-12-31T23:59:00.000Z"],
    ["2026-06-01T09:30:00", "2026-06-01T08:30:00.000Z"],
  ])("%s in the UK is %s", (wall, utc) => {
    expect(ukWallTimeToUtc(wall)?.toISOString()).toBe(utc);
  });

  it("turns an instant back into the UK wall time an edit form shows", () => {
    expect(toUkWallTime("2026-03-29T08:30:00Z")).toBe("2026-03-29T09:30");
    expect(toUkWallTime(new Date("2026-10-25T09:30:00Z"))).toBe("2026-10-25T09:30");
    expect(toUkWallTime("2026-12-31T23:30:00Z")).toBe("2026-12-31T23:30");
    expect(toUkWallTime("2026-07-31T23:30:00Z")).toBe("2026-08-01T00:30");
  });

  it.each([
    "",
    "2026-03-05",
    "2026-03-05 09:30",
    "05/03/2026T09:30",
    "2026-02-30T09:30",
    "2026-13-01T09:30",
    "2026-03-05T24:00",
    "2026-03-29T01:30", // skipped when the clocks go forward
  ])("%j is not a UK time", (wall) => {
    expect(ukWallTimeToUtc(wall)).toBeNull();
  });

  it("instants: booking closes at the start unless a time is given", () => {
    expect(
      courseDateInstants({
        starts_at: "2026-10-25T09:30",
        ends_at: "2026-10-25T16:30",
        booking_closes_at: "",
      }),
    ).toEqual({
      startsAt: new Date("2026-10-25T09:30:00Z"),
      endsAt: new Date("2026-10-25T16:30:00Z"),
      bookingClosesAt: new Date("2026-10-25T09:30:00Z"),
    });
    expect(
      courseDateInstants({
        starts_at: "2026-10-26T09:30",
        ends_at: "2026-10-26T16:30",
        booking_closes_at: "2026-10-24T17:00",
      })?.bookingClosesAt,
    ).toEqual(new Date("2026-10-24T16:00:00Z"));
  });
});

describe("the course date form's schema", () => {
  it("reads a complete form: trimmed text, whole places, pounds to two decimals", () => {
    const parsed = parseForm(
      form({
        ...VALID,
        format: "classroom",
        venue_name: "  Civic Hall ",
        venue_town: "Leeds",
        venue_address: "",
        price: "495.5",
        booking_closes_at: "2030-03-04T17:00",
      }),
      courseDateFormSchema,
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        course_id: COURSE,
        starts_at: "2030-03-05T09:30",
        ends_at: "2030-03-05T16:30",
        format: "classroom",
        venue_name: "Civic Hall",
        venue_town: "Leeds",
        venue_address: null,
        joining_details: null,
        schedule: null,
        capacity: 12,
        price: "495.50",
        booking_closes_at: "2030-03-04T17:00",
      },
    });
  });

  it("an empty price is the course's (null)", () => {
    const parsed = parseForm(form(VALID), courseDateFormSchema);
    expect(parsed.ok && parsed.value.price).toBeNull();
  });

  it.each([
    [{ course_id: "" }, "course_id", COURSE_REQUIRED],
    [{ course_id: "not-an-id" }, "course_id", COURSE_REQUIRED],
    [{ starts_at: "2030-02-30T09:30" }, "starts_at", TIME_INVALID],
    [{ booking_closes_at: "soon" }, "booking_closes_at", TIME_INVALID],
    [{ capacity: "0" }, "capacity", CAPACITY_INVALID],
    [{ capacity: "1001" }, "capacity", CAPACITY_INVALID],
    [{ capacity: "2.5" }, "capacity", CAPACITY_INVALID],
    [{ capacity: "" }, "capacity", CAPACITY_INVALID],
    [{ price: "0" }, "price", PRICE_INVALID],
    [{ price: "0.00" }, "price", PRICE_INVALID],
    [{ price: "-5" }, "price", PRICE_INVALID],
    [{ price: "12.345" }, "price", PRICE_INVALID],
    [{ price: "£12" }, "price", PRICE_INVALID],
    [{ format: "hybrid" }, "format", "Please choose classroom or online"],
  ])("%j is refused at %s", (change, field, message) => {
    const parsed = parseForm(form({ ...VALID, ...change }), courseDateFormSchema);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.fieldErrors[field]).toBe(message);
  });

  it("runs the date rules too, so the browser shows them before posting", () => {
    const parsed = parseForm(
      form({ ...VALID, ends_at: "2030-03-05T09:00", format: "classroom" }),
      courseDateFormSchema,
    );
    expect(parsed).toEqual({
      ok: false,
      fieldErrors: { ends_at: END_BEFORE_START, venue_name: VENUE_REQUIRED },
    });
  });
});

describe("a course date's rules", () => {
  const rules = {
    starts_at: "2026-03-29T09:30",
    ends_at: "2026-03-29T16:30",
    booking_closes_at: "",
    format: "online" as const,
    venue_name: null,
    capacity: 10,
  };

  it("a date that meets them all has no problems", () => {
    expect(courseDateProblems(rules, { now: NOW })).toEqual({});
  });

  it.each([
    [{ ends_at: "2026-03-29T09:30" }, "ends_at", END_BEFORE_START],
    [{ ends_at: "2026-03-28T16:30" }, "ends_at", END_BEFORE_START],
    [{ starts_at: "2026-01-10T12:00", ends_at: "2026-01-10T16:00" }, "starts_at", START_IN_PAST],
    [{ booking_closes_at: "2026-03-29T09:31" }, "booking_closes_at", BOOKING_CLOSES_AFTER_START],
    [{ format: "classroom" as const }, "venue_name", VENUE_REQUIRED],
  ])("%j is refused at %s", (change, field, message) => {
    expect(courseDateProblems({ ...rules, ...change }, { now: NOW })).toEqual({
      [field]: message,
    });
  });

  it("booking may close exactly at the start; a classroom date with a venue is fine", () => {
    expect(
      courseDateProblems(
        {
          ...rules,
          booking_closes_at: "2026-03-29T09:30",
          format: "classroom",
          venue_name: "Hall",
        },
        { now: NOW },
      ),
    ).toEqual({});
  });

  it("the capacity may not go below the places sold, and says how many", () => {
    expect(courseDateProblems({ ...rules, capacity: 4 }, { now: NOW, placesSold: 5 })).toEqual({
      capacity: capacityBelowSold(5),
    });
    expect(capacityBelowSold(5)).toMatch(/^5 places are already sold/);
    expect(capacityBelowSold(1)).toMatch(/^1 place is already sold/);
    expect(courseDateProblems({ ...rules, capacity: 5 }, { now: NOW, placesSold: 5 })).toEqual({});
  });

  it("an edit may keep a start that has passed", () => {
    const started = { ...rules, starts_at: "2026-01-09T09:30", ends_at: "2026-01-11T16:30" };
    expect(courseDateProblems(started, { now: NOW })).toEqual({ starts_at: START_IN_PAST });
    expect(courseDateProblems(started, { now: NOW, startMayBePast: true })).toEqual({});
  });
});
