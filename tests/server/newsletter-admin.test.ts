import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_PAGE_SIZE } from "#app/lib/newsletter/admin.ts";
import { auditLog, newsletterSubscriptions } from "#server/db/schema.ts";
import {
  activeSubscriberEmails,
  ConsentWithdrawn,
  listSubscriptionsForAdmin,
  setSubscriptionActive,
  subscriptionStats,
} from "#server/newsletter/admin.server.ts";
import { ADMIN } from "#tests/support/admin-session.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

const database = useFreshDatabase();

describe("admin newsletter", () => {
  it("lists newest first, searches by address, and pages in the database", async () => {
    const { db } = database();
    await db.insert(newsletterSubscriptions).values(
      Array.from({ length: SUBSCRIPTION_PAGE_SIZE + 2 }, (_, i) => ({
        email: `reader${i}@example.com`,
        source: "footer",
        subscribedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    );
    const first = await listSubscriptionsForAdmin({ q: "", spam: "all", page: 1 });
    expect(first).toMatchObject({ total: SUBSCRIPTION_PAGE_SIZE + 2, page: 1, pageCount: 2 });
    expect(first.items[0]).toMatchObject({
      email: `reader${SUBSCRIPTION_PAGE_SIZE + 1}@example.com`,
      isActive: true,
      source: "footer",
    });
    const second = await listSubscriptionsForAdmin({ q: "", spam: "all", page: 2 });
    expect(second.items.map((s) => s.email)).toEqual([
      "reader1@example.com",
      "reader0@example.com",
    ]);
    const found = await listSubscriptionsForAdmin({ q: "READER4", spam: "all", page: 1 });
    expect(found.items.map((s) => s.email)).toEqual([
      "reader49@example.com",
      "reader48@example.com",
      "reader47@example.com",
      "reader46@example.com",
      "reader45@example.com",
      "reader44@example.com",
      "reader43@example.com",
      "reader42@example.com",
      "reader41@example.com",
      "reader40@example.com",
      "reader4@example.com",
    ]);
    expect((await listSubscriptionsForAdmin({ q: "_", spam: "all", page: 1 })).total).toBe(0);
  });

  it("counts total, active and New Today by the London calendar (BST)", async () => {
    const { db } = database();
    // 1 July 2026, 10:00 in London (BST, UTC+1): the day began at 30 June 23:00 UTC.
    const now = new Date("2026-07-01T09:00:00Z");
    await db.insert(newsletterSubscriptions).values([
      { email: "a@example.com", subscribedAt: new Date("2026-06-30T23:00:00Z") },
      { email: "b@example.com", subscribedAt: new Date("2026-07-01T08:59:00Z"), isActive: false },
      { email: "c@example.com", subscribedAt: new Date("2026-06-30T22:59:59Z") },
      { email: "d@example.com", subscribedAt: new Date("2026-06-01T12:00:00Z"), isActive: false },
    ]);
    expect(await subscriptionStats(now)).toEqual({
      total: 4,
      active: 2,
      newToday: 2,
      suspected: 0,
    });
    // From midnight BST exactly.
    expect(await subscriptionStats(new Date("2026-06-30T23:00:00Z"))).toMatchObject({
      newToday: 2,
    });
    // In winter (GMT) London's day begins at midnight UTC.
    await db.insert(newsletterSubscriptions).values([
      { email: "e@example.com", subscribedAt: new Date("2026-12-01T00:00:00Z") },
      { email: "f@example.com", subscribedAt: new Date("2026-11-30T23:59:59Z") },
    ]);
    expect(await subscriptionStats(new Date("2026-12-01T10:00:00Z"))).toEqual({
      total: 6,
      active: 4,
      newToday: 1,
      suspected: 0,
    });
  });

  it("activates and deactivates; exports only active addresses, one per line", async () => {
    const { db } = database();
    const [one, two, three] = await db
      .insert(newsletterSubscriptions)
      .values([
        { email: "one@example.com", subscribedAt: new Date("2026-01-01T00:00:00Z") },
        { email: "two@example.com", subscribedAt: new Date("2026-01-02T00:00:00Z") },
        { email: "three@example.com", subscribedAt: new Date("2026-01-03T00:00:00Z") },
      ])
      .returning();
    expect(await activeSubscriberEmails()).toEqual([
      "three@example.com",
      "two@example.com",
      "one@example.com",
    ]);
    expect(await setSubscriptionActive(two!.id, false, ADMIN)).toMatchObject({
      email: "two@example.com",
      isActive: false,
    });
    expect(await activeSubscriberEmails()).toEqual(["three@example.com", "one@example.com"]);
    expect(await setSubscriptionActive(two!.id, true, ADMIN)).toMatchObject({ isActive: true });
    expect(
      await setSubscriptionActive("00000000-0000-4000-8000-000000000000", false, ADMIN),
    ).toBeNull();
    void one;
    void three;
  });

  it("refuses to switch back on someone who unsubscribed themselves, and changes nothing", async () => {
    const { db } = database();
    const unsubscribedAt = new Date("2026-02-01T10:00:00Z");
    const [gone] = await db
      .insert(newsletterSubscriptions)
      .values({ email: "gone@example.com", isActive: false, unsubscribedAt })
      .returning();
    await expect(setSubscriptionActive(gone!.id, true, ADMIN)).rejects.toBeInstanceOf(
      ConsentWithdrawn,
    );
    const [after] = await db
      .select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.id, gone!.id));
    expect(after).toMatchObject({ isActive: false, unsubscribedAt });
    expect(await db.select().from(auditLog)).toEqual([]);
    // Switching off stays allowed, and the list says why the button is gone.
    expect(await setSubscriptionActive(gone!.id, false, ADMIN)).toMatchObject({
      isActive: false,
      unsubscribedAt: unsubscribedAt.toISOString(),
    });
  });
});
