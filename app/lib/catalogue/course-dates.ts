/**
 * Course dates as a visitor sees them (decision 0033): when a date runs, in UK time whatever the
 * viewer's clock says (GMT or BST named, right across the clock change), where, and how many
 * places are left. Shared by the course page, the catalogue cards and the checkout summary.
 */

export const COURSE_DATE_FORMATS = ["classroom", "online"] as const;
export type CourseDateFormat = (typeof COURSE_DATE_FORMATS)[number];

/** A date on public pages: never its joining details or full address (booked people only). */
export interface PublicCourseDate {
  id: string;
  /** ISO 8601, UTC. */
  startsAt: string;
  endsAt: string;
  format: CourseDateFormat;
  /** The town of a classroom date; null online. */
  town: string | null;
  venueName: string | null;
  /** Per place, in pence: the date's own price or the course's. */
  unitPriceCents: number;
  placesLeft: number;
  /** Open for booking: places left and booking not yet closed. */
  bookable: boolean;
}

/** The fewest places left that the course page still counts out ('3 places left'). */
export const FEW_PLACES = 5;

const UK = "Europe/London";
const dayFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: UK,
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
});
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: UK,
  hour: "2-digit",
  minute: "2-digit",
});
const zoneFormat = new Intl.DateTimeFormat("en-GB", { timeZone: UK, timeZoneName: "short" });

/** 'GMT' or 'BST': the UK's clock at that instant. */
export function ukZone(at: Date): string {
  return zoneFormat.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "UK time";
}

/** 'Tue, 3 Mar 2026' in UK time. */
export function formatUkDay(at: Date): string {
  return dayFormat.format(at);
}

/**
 * When a date runs, in UK time: 'Tue, 3 Mar 2026, 09:30–16:30 GMT' on one day,
 * 'Mon, 30 Mar 2026, 09:30 BST – Wed, 1 Apr 2026, 16:30 BST' across days. Each end names its
 * own zone, so a date that spans the clock change reads right.
 */
export function formatDateRange(startsAt: Date | string, endsAt: Date | string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const startDay = formatUkDay(start);
  const endDay = formatUkDay(end);
  const from = timeFormat.format(start);
  const to = timeFormat.format(end);
  if (startDay === endDay) {
    const startZone = ukZone(start);
    const endZone = ukZone(end);
    return startZone === endZone
      ? `${startDay}, ${from}–${to} ${endZone}`
      : `${startDay}, ${from} ${startZone} – ${to} ${endZone}`;
  }
  return `${startDay}, ${from} ${ukZone(start)} – ${endDay}, ${to} ${ukZone(end)}`;
}

/** 'Fully booked', '1 place left', '3 places left', or 'Places available' when there are many. */
export function placesLeftText(date: Pick<PublicCourseDate, "placesLeft" | "bookable">): string {
  if (date.placesLeft <= 0) return "Fully booked";
  if (!date.bookable) return "Booking closed";
  if (date.placesLeft > FEW_PLACES) return "Places available";
  return date.placesLeft === 1 ? "1 place left" : `${date.placesLeft} places left`;
}

/** Where a date happens, for a list: the town (or venue) of a classroom date, else 'Online'. */
/** Where a date runs, in full: 'Live online', or its venue and address (else its town). */
export function dateWhere(date: {
  format: CourseDateFormat;
  venueName: string | null;
  venueAddress: string | null;
  venueTown?: string | null;
}): string {
  if (date.format === "online") return "Live online";
  return [date.venueName, date.venueAddress].filter(Boolean).join(", ") || date.venueTown || "";
}

export function datePlace(date: Pick<PublicCourseDate, "format" | "town" | "venueName">): string {
  if (date.format === "online") return "Online";
  return date.town ?? date.venueName ?? "Classroom";
}

/**
 * What a catalogue card says of when a course runs: its next date (`nextDate`, ISO, with the day
 * in UK time as `text`), 'On demand' for a course bought online without dates, else
 * 'Dates on request' (quoted, or booked through a partner).
 */
export function courseSchedule(course: {
  nextDateStartsAt: Date | string | null;
  onDemand: boolean;
}): { nextDate: string | null; text: string } {
  if (course.nextDateStartsAt) {
    const next = new Date(course.nextDateStartsAt);
    return { nextDate: next.toISOString(), text: formatUkDay(next) };
  }
  return { nextDate: null, text: course.onDemand ? "On demand" : "Dates on request" };
}

/** Days before a classroom date's start until which the terms promise a full refund. */
export const FULL_REFUND_DAYS = 14;

/**
 * Until when a booking of a date is refunded in full if cancelled (the terms: more than 14 days
 * before a classroom course starts; a live online session, before it starts).
 */
export function fullRefundDeadline(date: { startsAt: Date | string; format: CourseDateFormat }) {
  const start = new Date(date.startsAt);
  return date.format === "classroom"
    ? new Date(start.getTime() - FULL_REFUND_DAYS * 24 * 60 * 60 * 1000)
    : start;
}

/** 'Tue, 3 Mar 2026, 09:30 GMT': one instant in UK time. */
export function formatUkDateTime(at: Date | string): string {
  const instant = new Date(at);
  return `${formatUkDay(instant)}, ${timeFormat.format(instant)} ${ukZone(instant)}`;
}

/**
 * How many dates the course page lists before 'Show all N dates' (`?dates=all`): a weekly
 * session's year of dates would otherwise push the description out of sight on a phone.
 */
export const DATES_SHOWN = 6;
export const ALL_DATES_PARAM = "dates";
export const ALL_DATES_VALUE = "all";

/** The checkout asks for a date by this query parameter and posts it in this field. */
export const COURSE_DATE_PARAM = "date";
export const COURSE_DATE_FIELD = "courseDateId";

export const DATE_MESSAGES = {
  /** The date has no place left: its waiting list is the way on (the checkout links to it). */
  full: {
    title: "Fully Booked",
    description:
      "Sorry, the last places on this date have just been booked. Nothing has been booked for you: join this date's waiting list to be offered places that free up, or choose another date.",
  },
  closed: {
    title: "Booking Closed",
    description:
      "Sorry, booking for this date has closed. Nothing has been booked: please choose another date.",
  },
  /** The course is now sold by date, and the post named none. */
  chooseDate: {
    title: "Choose a Date",
    description:
      "This course is now booked by date. Nothing has been booked: please choose one of its dates on the course page.",
  },
} as const;

/** A group larger than the places the date has left (some are): how many there are. */
export function notEnoughPlaces(placesLeft: number) {
  const places = placesLeft === 1 ? "1 place is" : `${placesLeft} places are`;
  return {
    title: "Not Enough Places",
    description: `Sorry, only ${places} left on this date. Nothing has been booked: book ${placesLeft} or fewer, or choose another date.`,
  };
}

/** A dated run of the course as schema.org's CourseInstance, with its offer's availability. */
export function courseInstance(date: PublicCourseDate, courseUrl: string, instructors: object[]) {
  return {
    "@type": "CourseInstance",
    ...(instructors.length > 0 ? { instructor: instructors } : {}),
    courseMode: date.format === "online" ? "Online" : "Onsite",
    startDate: date.startsAt,
    endDate: date.endsAt,
    location:
      date.format === "online"
        ? { "@type": "VirtualLocation", url: courseUrl }
        : { "@type": "Place", name: date.venueName ?? datePlace(date), address: date.town ?? "" },
    offers: {
      "@type": "Offer",
      price: (date.unitPriceCents / 100).toFixed(2),
      priceCurrency: "GBP",
      availability: date.bookable ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
      url: `${courseUrl}/checkout?${COURSE_DATE_PARAM}=${date.id}`,
    },
  };
}
