import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  CONSENT_REQUIRED,
  PLACES_MESSAGE,
  WAITING_LIST_MESSAGES,
} from "#app/lib/catalogue/waiting-list.ts";
import { HONEYPOT_FIELD } from "#app/lib/inquiries/schemas.ts";
import { plannedErasure } from "#app/lib/admin/privacy.ts";
import { createCourseDate } from "#server/catalogue/course-date-admin.server.ts";
import { listUpcomingDates } from "#server/catalogue/course-dates.server.ts";
import { deleteEndedEntries } from "#server/catalogue/waiting-list-offers.server.ts";
import { waitingListEntries } from "#server/db/schema.ts";
import { erasePersonalData } from "#server/privacy/erase.server.ts";
import { personalDataCsvRows } from "#server/privacy/export.server.ts";
import { findPersonalData } from "#server/privacy/find.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, insertCourse } from "#tests/support/orders.ts";
import { bookOk, entryOf, join, joinFields, mailsTo, post } from "#tests/support/waiting-list.ts";

/**
 * Waiting lists (decision 0034): joining (checked again on the server, a bot stored and marked,
 * duplicates refused), the one e-mail when a course without dates gets one, and the privacy
 * search, export and erasure. Offers, their expiry, the group rule and staff offering and
 * removing are in waiting-list-offers.test.ts. Card checkouts run against the fake Stripe API.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
afterAll(() => fake.close());

const database = useFreshDatabase();

async function placesLeft(course: { id: string; price: string | null }, dateId: string) {
  return (await listUpcomingDates(course.id, course.price)).find((d) => d.id === dateId)!
    .placesLeft;
}

describe("joining a waiting list", () => {
  it("checks everything on the server, refuses duplicates, and stores a bot's post marked", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 2 });
    await bookOk(course.slug, date.id, 1, 2);

    // Bad input: field messages, nothing stored.
    const bad = await post(course.slug, {
      ...joinFields(date.id, "not-an-address", 11),
      first_name: "  ",
      consent: "",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ok: false,
      reason: "invalid",
      fieldErrors: {
        first_name: "Please enter your first name",
        email: "Please enter a valid email address",
        places: PLACES_MESSAGE,
        consent: CONSENT_REQUIRED,
      },
    });
    expect(await database().db.select().from(waitingListEntries)).toHaveLength(0);

    // A good post is stored with its consent time; the same address again is refused.
    await join(course.slug, date.id, "wendy@example.com", 3);
    const entry = await entryOf("wendy@example.com");
    expect(entry).toMatchObject({ places: 3, state: "waiting", spamReason: null });
    expect(entry.consentAt).toBeInstanceOf(Date);
    const again = await post(course.slug, joinFields(date.id, "WENDY@example.com", 1));
    expect(again).toMatchObject({
      status: 409,
      body: { reason: "duplicate", message: WAITING_LIST_MESSAGES.duplicate },
    });

    // A bot (honeypot filled) is told what a person is told, and its post is kept, marked.
    const bot = await post(
      course.slug,
      joinFields(date.id, "bot@example.com", 1, { [HONEYPOT_FIELD]: "http://spam.example" }),
    );
    expect(bot.status).toBe(200);
    expect(await entryOf("bot@example.com")).toMatchObject({ spamReason: "honeypot" });

    // A date with enough places left is booked, not waited for; an unknown date has no list.
    const roomy = await insertCourseDate(course.id, { capacity: 5 });
    const notFull = await post(course.slug, joinFields(roomy.id, "roomy@example.com", 2));
    expect(notFull).toMatchObject({
      status: 409,
      body: { fieldErrors: { places: expect.any(String) } },
    });
    const unknown = await post(
      course.slug,
      joinFields("00000000-0000-4000-8000-000000000000", "x@example.com"),
    );
    expect(unknown).toMatchObject({
      status: 409,
      body: { message: WAITING_LIST_MESSAGES.unavailable },
    });
    expect(await database().db.select().from(waitingListEntries)).toHaveLength(2);
  });

  it("only a full date is waited for: a group wanting more than the places left books or waits for a full date", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 5 });
    await bookOk(course.slug, date.id, 1, 3);
    // 2 places left, 4 wanted: refused, so one entry can never take places on sale off sale.
    const refused = await post(course.slug, joinFields(date.id, "group@example.com", 4));
    expect(refused).toMatchObject({
      status: 409,
      body: { fieldErrors: { places: WAITING_LIST_MESSAGES.placesLeft(2) } },
    });
    expect(await placesLeft(course, date.id)).toBe(2);
    await bookOk(course.slug, date.id, 2, 2);
    await join(course.slug, date.id, "group@example.com", 4);
    expect(await database().db.select().from(waitingListEntries)).toHaveLength(1);
  });

  it("a repeated post is one entry (submit once)", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 1 });
    await bookOk(course.slug, date.id, 1);
    const fields = joinFields(date.id, "twice@example.com", 1, {
      submission_key: "abcdefabcdefabcdef123456",
    });
    const [a, b] = await Promise.all([post(course.slug, fields), post(course.slug, fields)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await database().db.select().from(waitingListEntries)).toHaveLength(1);
  });
});

describe("tell me when dates are announced", () => {
  it("e-mails each person once when staff create the course's next date", async () => {
    const course = await insertCourse();
    const fields = {
      form: "waiting_list",
      name: "Nora Next",
      email: "nora@example.com",
      consent: "on",
    };
    expect((await post(course.slug, fields)).status).toBe(200);
    expect(await post(course.slug, fields)).toMatchObject({ status: 409 });
    expect(
      (await post(course.slug, { ...fields, email: "bot@example.com", [HONEYPOT_FIELD]: "x" }))
        .status,
    ).toBe(200);
    const [waiting] = await database()
      .db.select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.email, "nora@example.com"));
    expect(waiting).toMatchObject({ courseDateId: null, state: "waiting", firstName: "Nora Next" });

    const day = new Date(Date.now() + 60 * 24 * 3600_000).toISOString().slice(0, 10);
    const values = {
      course_id: course.id,
      starts_at: `${day}T09:30`,
      ends_at: `${day}T16:30`,
      format: "online" as const,
      venue_name: null,
      venue_town: null,
      venue_address: null,
      joining_details: "https://meet.example.com/x",
      schedule: null,
      capacity: 12,
      price: null,
      booking_closes_at: "",
    };
    expect((await createCourseDate(ADMIN, values)).ok).toBe(true);
    expect((await entryOf("nora@example.com")).state).toBe("notified");
    expect(await mailsTo("nora@example.com", "waiting_list_announce")).toHaveLength(1);
    expect(await mailsTo("bot@example.com", "waiting_list_announce")).toHaveLength(0);
    expect((await createCourseDate(ADMIN, values)).ok).toBe(true);
    expect(await mailsTo("nora@example.com", "waiting_list_announce")).toHaveLength(1);
    // Now that it has dates, the course takes no more such requests.
    expect(await post(course.slug, { ...fields, email: "late@example.com" })).toMatchObject({
      status: 409,
    });
  });
});

describe("personal data", () => {
  it("the privacy search, export and erasure include waiting list entries", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 1 });
    await bookOk(course.slug, date.id, 1);
    await join(course.slug, date.id, "Priv.Acy@Example.com", 2);
    const found = await findPersonalData("priv.acy@example.com");
    expect(found.waitingList).toHaveLength(1);
    expect(found.waitingList[0]).toMatchObject({ places: 2, organisation: "Acme Counter Fraud" });
    expect(plannedErasure(found).waitingList).toBe(1);
    const csv = personalDataCsvRows(found);
    expect(
      csv.some((row) => row[0] === "Waiting list entry" && row[7] === "Acme Counter Fraud"),
    ).toBe(true);
    const erased = await erasePersonalData("priv.acy@example.com", ADMIN);
    expect(erased.counts.waitingList).toBe(1);
    expect(erased.message).toContain("1 waiting list entry");
    expect(await database().db.select().from(waitingListEntries)).toHaveLength(0);
  });

  it("retention deletes entries 30 days after their date ended or they stopped waiting", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 1 });
    await bookOk(course.slug, date.id, 1);
    await join(course.slug, date.id, "keep@example.com");
    await join(course.slug, date.id, "old@example.com");
    const old = await entryOf("old@example.com");
    await database()
      .db.update(waitingListEntries)
      .set({ state: "expired", updatedAt: new Date(Date.now() - 31 * 24 * 3600_000) })
      .where(eq(waitingListEntries.id, old.id));
    expect(await deleteEndedEntries()).toBe(1);
    const left = await database()
      .db.select({ email: waitingListEntries.email })
      .from(waitingListEntries);
    expect(left).toEqual([{ email: "keep@example.com" }]);
    // Its date long over: gone too.
    const in40Days = new Date(date.endsAt.getTime() + 40 * 24 * 3600_000);
    expect(await deleteEndedEntries(in40Days)).toBe(1);
    const [n] = await database()
      .db.select({ n: sql<number>`count(*)::int` })
      .from(waitingListEntries);
    expect(Number(n!.n)).toBe(0);
  });
});
