import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DATE_MESSAGES } from "#app/lib/catalogue/course-dates.ts";
import { listUpcomingDates } from "#server/catalogue/course-dates.server.ts";
import { waitingListHousekeeping } from "#server/catalogue/waiting-list-offers.server.ts";
import { offerEntryNow, removeEntry } from "#server/catalogue/waiting-list-admin.server.ts";
import { auditLog, courseDates, emailOutbox, waitingListEntries } from "#server/db/schema.ts";
import { changeOrderStatusByAdmin } from "#server/orders/admin.server.ts";
import { loadCheckout } from "#server/payments/checkout.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";
import { insertCourseDate } from "#tests/support/factories.ts";
import { ADMIN, insertCourse } from "#tests/support/orders.ts";
import { book, bookOk, entryOf, join, mailsTo } from "#tests/support/waiting-list.ts";

/**
 * Waiting list offers (decision 0034): offers in the order of joining when places free up, an
 * offer's places held against every other buyer but usable by its link, expiry passing on, the
 * group rule, and staff offering and removing (audited). Joining itself, the e-mail when dates
 * are announced and personal data are in waiting-list.test.ts. Card checkouts run against the
 * fake Stripe API.
 */
const fake = await vi.hoisted(async () =>
  (await import("../support/fake-stripe.ts")).startFakeStripeForShopTests(),
);
afterAll(() => fake.close());

const database = useFreshDatabase();

async function statesOf(dateId: string) {
  const rows = await database()
    .db.select({ email: waitingListEntries.email, state: waitingListEntries.state })
    .from(waitingListEntries)
    .where(eq(waitingListEntries.courseDateId, dateId))
    .orderBy(waitingListEntries.createdAt);
  return Object.fromEntries(rows.map((r) => [r.email, r.state]));
}

/** The token of the latest offer e-mailed to `email`, read from the message's link. */
async function offerTokenFor(email: string): Promise<string> {
  const mails = await database()
    .db.select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.kind, "waiting_list_offer")))
    .orderBy(emailOutbox.createdAt);
  const text = mails.at(-1)?.text ?? "";
  const token = /[?&]offer=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no offer e-mailed to ${email}`);
  return token;
}

async function placesLeft(course: { id: string; price: string | null }, dateId: string) {
  return (await listUpcomingDates(course.id, course.price)).find((d) => d.id === dateId)!
    .placesLeft;
}

describe("offers", () => {
  it("go in the order of joining when a booking is cancelled, and hold their places against other buyers", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 2 });
    const first = await bookOk(course.slug, date.id, 1);
    await bookOk(course.slug, date.id, 2);
    await join(course.slug, date.id, "ann@example.com");
    await join(course.slug, date.id, "bea@example.com");
    expect(await statesOf(date.id)).toEqual({
      "ann@example.com": "waiting",
      "bea@example.com": "waiting",
    });

    expect((await changeOrderStatusByAdmin(first, "canceled", ADMIN)).ok).toBe(true);
    expect(await statesOf(date.id)).toEqual({
      "ann@example.com": "offered",
      "bea@example.com": "waiting",
    });
    expect(await mailsTo("ann@example.com", "waiting_list_offer")).toHaveLength(1);
    expect(await mailsTo("bea@example.com", "waiting_list_offer")).toHaveLength(0);
    const token = await offerTokenFor("ann@example.com");
    // Only its hash is stored.
    expect(JSON.stringify(await entryOf("ann@example.com"))).not.toContain(token);

    // The held place is taken for everyone else: the page says so, and concurrent buyers fail.
    expect(await placesLeft(course, date.id)).toBe(0);
    const others = await Promise.all([10, 11, 12, 13].map((n) => book(course.slug, date.id, n)));
    for (const outcome of others) {
      expect(outcome).toMatchObject({ kind: "problem", status: 409, message: DATE_MESSAGES.full });
    }

    // The link opens a filled-in checkout and books the held place.
    const checkout = await loadCheckout(course.slug, date.id, token);
    expect(checkout).toMatchObject({
      kind: "checkout",
      offer: {
        kind: "open",
        email: "ann@example.com",
        places: 1,
        organisation: "Acme Counter Fraud",
      },
      course: { date: { placesLeft: 1, bookable: true } },
    });
    const [mine, theirs] = await Promise.all([
      book(course.slug, date.id, 20, 1, token),
      book(course.slug, date.id, 21),
    ]);
    expect(mine.kind).toBe("invoice");
    expect(theirs).toMatchObject({ kind: "problem", status: 409 });
    const booked = await entryOf("ann@example.com");
    expect(booked).toMatchObject({
      state: "booked",
      orderId: (mine as { orderId: string }).orderId,
    });

    // The link is spent.
    expect(await loadCheckout(course.slug, date.id, token)).toMatchObject({
      offer: { kind: "spent" },
    });
    expect(await book(course.slug, date.id, 22, 1, token)).toMatchObject({
      kind: "problem",
      status: 409,
    });
  });

  it("an unclaimed offer expires and passes on to the next", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 1 });
    const order = await bookOk(course.slug, date.id, 1);
    await join(course.slug, date.id, "ann@example.com");
    await join(course.slug, date.id, "bea@example.com");
    await changeOrderStatusByAdmin(order, "canceled", ADMIN);
    const annsToken = await offerTokenFor("ann@example.com");
    const offered = await entryOf("ann@example.com");
    const hours = (offered.offerExpiresAt!.getTime() - offered.offeredAt!.getTime()) / 3600_000;
    expect(hours).toBeCloseTo(24, 5);

    // Time passes: the offer's end is behind us.
    await database()
      .db.update(waitingListEntries)
      .set({ offerExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(waitingListEntries.id, offered.id));
    expect(await waitingListHousekeeping()).toBe(1);
    expect(await statesOf(date.id)).toEqual({
      "ann@example.com": "expired",
      "bea@example.com": "offered",
    });
    expect(await mailsTo("bea@example.com", "waiting_list_offer")).toHaveLength(1);
    // Ann's link no longer holds anything.
    expect(await book(course.slug, date.id, 30, 1, annsToken)).toMatchObject({ kind: "problem" });
    expect(
      (await book(course.slug, date.id, 31, 1, await offerTokenFor("bea@example.com"))).kind,
    ).toBe("invoice");
  });

  it("a group waits while smaller entries behind it are offered, at most twice; then it keeps its turn", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 4 });
    const orders = [];
    for (const n of [1, 2, 3, 4]) orders.push(await bookOk(course.slug, date.id, n));
    await join(course.slug, date.id, "group@example.com", 3);
    await join(course.slug, date.id, "s1@example.com");
    await join(course.slug, date.id, "s2@example.com");
    await join(course.slug, date.id, "s3@example.com");

    await changeOrderStatusByAdmin(orders[0]!, "canceled", ADMIN);
    await changeOrderStatusByAdmin(orders[1]!, "canceled", ADMIN);
    expect(await statesOf(date.id)).toMatchObject({
      "group@example.com": "waiting",
      "s1@example.com": "offered",
      "s2@example.com": "offered",
      "s3@example.com": "waiting",
    });
    // Passed over twice: the next freed place waits for the group, s3 is not offered, and
    // nobody else may book it.
    await changeOrderStatusByAdmin(orders[2]!, "canceled", ADMIN);
    expect((await statesOf(date.id))["s3@example.com"]).toBe("waiting");
    expect(await placesLeft(course, date.id)).toBe(0);
    expect(await book(course.slug, date.id, 40)).toMatchObject({ kind: "problem", status: 409 });

    // s1 leaves the list (staff, audited): 2 free, still not enough for 3.
    const s1 = await entryOf("s1@example.com");
    expect(await removeEntry(ADMIN, s1.id)).toEqual({ ok: true });
    expect((await statesOf(date.id))["group@example.com"]).toBe("waiting");
    // The last booking is cancelled: 3 free, the group is offered all three.
    await changeOrderStatusByAdmin(orders[3]!, "canceled", ADMIN);
    expect(await statesOf(date.id)).toMatchObject({
      "group@example.com": "offered",
      "s1@example.com": "removed",
      "s3@example.com": "waiting",
    });
    const audit = await database()
      .db.select()
      .from(auditLog)
      .where(eq(auditLog.action, "waiting_list.remove"));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      subjectType: "waiting_list",
      subjectId: s1.id,
      actorEmail: ADMIN.email,
      before: { state: "offered" },
      after: { state: "removed" },
    });
    expect(JSON.stringify(audit[0])).not.toContain("s1@example.com");
  });

  it("staff may offer out of turn when the places are free, audited; not when they are not", async () => {
    const course = await insertCourse();
    const date = await insertCourseDate(course.id, { capacity: 2 });
    await bookOk(course.slug, date.id, 1, 2);
    await join(course.slug, date.id, "first@example.com", 2);
    await join(course.slug, date.id, "second@example.com", 1);
    const second = await entryOf("second@example.com");
    expect(await offerEntryNow(ADMIN, second.id)).toMatchObject({ ok: false, status: 409 });

    // A place is added without the usual pass (as if it had been missed).
    await database().db.update(courseDates).set({ capacity: 3 }).where(eq(courseDates.id, date.id));
    expect(await offerEntryNow(ADMIN, second.id)).toEqual({ ok: true });
    expect(await statesOf(date.id)).toEqual({
      "first@example.com": "waiting",
      "second@example.com": "offered",
    });
    expect(await mailsTo("second@example.com", "waiting_list_offer")).toHaveLength(1);
    const [audit] = await database()
      .db.select()
      .from(auditLog)
      .where(eq(auditLog.action, "waiting_list.offer"));
    expect(audit).toMatchObject({ subjectId: second.id, before: { state: "waiting" } });
  });
});
