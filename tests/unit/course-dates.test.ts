import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ProviderBooking } from "#app/components/site/course-booking.tsx";
import {
  DATES_SHOWN,
  formatDateRange,
  placesLeftText,
  type PublicCourseDate,
} from "#app/lib/catalogue/course-dates.ts";

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

describe("the course page's list of dates", () => {
  const dates: PublicCourseDate[] = Array.from({ length: 9 }, (_, n) => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    startsAt: `2027-01-${String(n + 10)}T09:30:00Z`,
    endsAt: `2027-01-${String(n + 10)}T16:30:00Z`,
    format: "online",
    town: null,
    venueName: null,
    unitPriceCents: 45_000,
    placesLeft: 5,
    bookable: true,
  }));
  const course = { id: "c", slug: "weekly", title: "Weekly", bookableOnline: true };
  // A data router (the quote dialog's form needs one), rendered on the server as the page is.
  const render = (allDates: boolean) => {
    const Stub = createRoutesStub([
      { path: "/", Component: () => createElement(ProviderBooking, { course, dates, allDates }) },
    ]);
    return renderToStaticMarkup(createElement(Stub));
  };
  const count = (html: string) => html.split('data-testid="course-date"').length - 1;

  it("lists the first few, then links to the page with them all", () => {
    const html = render(false);
    expect(count(html)).toBe(DATES_SHOWN);
    expect(html).toContain('href="/courses/weekly?dates=all#dates"');
    expect(html).toContain("Show all 9 dates");
  });

  it("lists them all when asked, with no link", () => {
    const html = render(true);
    expect(count(html)).toBe(9);
    expect(html).not.toContain("Show all");
  });
});
