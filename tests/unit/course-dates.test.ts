import { describe, expect, it } from "vitest";
import { formatDateRange, placesLeftText } from "#app/lib/catalogue/course-dates.ts";

/** Course dates as visitors read them (app/lib/catalogue/course-dates.ts). */
describe("UK time on screen", () => {
  it("names GMT or BST, right across the clock changes", () => {
    // 29 March 2026: clocks go forward; 25 October 2026: back.
    expect(formatDateRange("2026-03-27T09:30:00Z", "2026-03-27T16:30:00Z")).toBe(
      "Fri, 27 Mar 2026, 09:30–16:30 GMT",
    );
    expect(formatDateRange("2026-03-30T08:30:00Z", "2026-03-30T15:30:00Z")).toBe(
      "Mon, 30 Mar 2026, 09:30–16:30 BST",
    );
    expect(formatDateRange("2026-10-24T08:30:00Z", "2026-10-26T16:30:00Z")).toBe(
      "Sat, 24 Oct 2026, 09:30 BST – Mon, 26 Oct 2026, 16:30 GMT",
    );
    // The night of the change: 00:30 BST to 03:00 GMT on one day.
    expect(formatDateRange("2026-10-24T23:30:00Z", "2026-10-25T03:00:00Z")).toBe(
      "Sun, 25 Oct 2026, 00:30 BST – 03:00 GMT",
    );
  });
});

describe("places left", () => {
  it("counts out a few, says fully booked or closed", () => {
    expect(placesLeftText({ placesLeft: 0, bookable: false })).toBe("Fully booked");
    expect(placesLeftText({ placesLeft: 1, bookable: true })).toBe("1 place left");
    expect(placesLeftText({ placesLeft: 3, bookable: true })).toBe("3 places left");
    expect(placesLeftText({ placesLeft: 12, bookable: true })).toBe("Places available");
    expect(placesLeftText({ placesLeft: 4, bookable: false })).toBe("Booking closed");
  });
});
