import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { config } from "#server/config.server.ts";
import { db } from "#server/db/client.server.ts";
import { emailOutbox, inquiries } from "#server/db/schema.ts";
import { parseInquiryFilters } from "#app/lib/inquiries/admin.ts";
import {
  findInquiryForAdmin,
  inquiriesScreen,
  repliesDue,
} from "#server/inquiries/admin.server.ts";
import { alertOverdueReplies } from "#server/inquiries/reply-due.server.ts";
import { useFreshDatabase } from "#tests/support/db.ts";

/**
 * The Dashboard's enquiries awaiting a reply that is overdue or due within four hours (decision
 * 0047), read in the database on both databases: by kind of enquiry, status, spam and
 * anonymisation, most urgent first, counted; and staff's e-mail, once, when one becomes overdue.
 */
useFreshDatabase();

const HOUR = 60 * 60 * 1000;
// Wednesday 2 December 2026, 10:00 in London (GMT).
const NOW = new Date("2026-12-02T10:00:00Z");

async function arrived(
  name: string,
  createdAt: Date,
  extra: Partial<typeof inquiries.$inferInsert> = {},
) {
  const [row] = await db()
    .insert(inquiries)
    .values({
      name,
      email: `${name.toLowerCase()}@example.com`,
      message: "Hello",
      createdAt,
      ...extra,
    })
    .returning();
  return row!;
}

describe("replies due", () => {
  it("lists what is overdue or due within four hours, most urgent first, and counts them", async () => {
    await arrived("Overdue", new Date(NOW.getTime() - 30 * HOUR), { inquiryType: "training" });
    await arrived("Soon", new Date(NOW.getTime() - 21 * HOUR), { inquiryType: "general" });
    await arrived("Later", new Date(NOW.getTime() - 10 * HOUR));
    // A licence enquiry from Friday afternoon was due at the end of Tuesday; Monday's is due at
    // the end of today, more than four hours away.
    await arrived("Licence", new Date("2026-11-27T15:00:00Z"), {
      inquiryType: "file_interrogator",
    });
    await arrived("Licence later", new Date("2026-11-30T09:00:00Z"), {
      inquiryType: "file_interrogator",
    });
    // Owed nothing: replied, closed, held as spam, anonymised.
    await arrived("Replied", new Date(NOW.getTime() - 40 * HOUR), { status: "replied" });
    await arrived("Closed", new Date(NOW.getTime() - 40 * HOUR), { status: "closed" });
    await arrived("Spam", new Date(NOW.getTime() - 40 * HOUR), { spamReason: "honeypot" });
    await arrived("Gone", new Date(NOW.getTime() - 40 * HOUR), { anonymisedAt: NOW });
    await arrived("Working", new Date(NOW.getTime() - 25 * HOUR), { status: "in_progress" });

    const due = await repliesDue(NOW);
    expect(due.items.map((i) => [i.name, i.replyDue?.overdue])).toEqual([
      ["Licence", true],
      ["Overdue", true],
      ["Working", true],
      ["Soon", false],
    ]);
    expect(due.items[0]!.replyDue!.at).toBe("2026-12-02T00:00:00.000Z");
    expect([due.overdue, due.dueSoon]).toEqual([3, 1]);
  });

  it("shows each enquiry's due time until it is replied to", async () => {
    // The page reads the clock: times here are relative to it.
    const now = new Date();
    const waiting = await arrived("Waiting", new Date(now.getTime() - 2 * HOUR));
    const replied = await arrived("Done", new Date(now.getTime() - 2 * HOUR), {
      status: "replied",
    });
    expect((await findInquiryForAdmin(waiting.id))?.replyDue).toEqual({
      at: new Date(now.getTime() + 22 * HOUR).toISOString(),
      overdue: false,
    });
    expect((await findInquiryForAdmin(replied.id))?.replyDue).toBeNull();
    expect(await repliesDue(now)).toMatchObject({ items: [], overdue: 0, dueSoon: 0 });
  });
});

describe("the list's reply filter", () => {
  it("shows the enquiries awaiting a reply, or only those overdue", async () => {
    const now = new Date();
    await arrived("Late", new Date(now.getTime() - 25 * HOUR));
    await arrived("Waiting", new Date(now.getTime() - HOUR), { status: "in_progress" });
    await arrived("Answered", new Date(now.getTime() - 25 * HOUR), { status: "replied" });
    const names = async (query: string) =>
      (await inquiriesScreen(parseInquiryFilters(new URLSearchParams(query)))).items
        .map((i) => i.name)
        .sort();
    expect(await names("reply=awaiting")).toEqual(["Late", "Waiting"]);
    expect(await names("reply=overdue")).toEqual(["Late"]);
    expect(await names("reply=nonsense")).toEqual(["Answered", "Late", "Waiting"]);
  });
});

describe("the overdue alert", () => {
  const mailsAbout = (inquiryId: string) =>
    db().select().from(emailOutbox).where(eq(emailOutbox.inquiryId, inquiryId));

  it("e-mails staff once when a reply becomes overdue, not about a backlog or a replied enquiry", async () => {
    const now = new Date();
    const overdue = await arrived("Late", new Date(now.getTime() - 25 * HOUR), {
      inquiryType: "security_consultation",
    });
    const backlog = await arrived("Old", new Date(now.getTime() - 30 * 24 * HOUR));
    const replied = await arrived("Answered", new Date(now.getTime() - 25 * HOUR), {
      status: "replied",
    });
    const fresh = await arrived("Fresh", new Date(now.getTime() - HOUR));

    expect(await alertOverdueReplies(now)).toBe(1);
    expect(await alertOverdueReplies(now)).toBe(0);
    const [mail, ...more] = await mailsAbout(overdue.id);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ kind: "reply_overdue", replyTo: "late@example.com" });
    expect(mail!.subject).toBe("Reply overdue: Security consultation from Late");
    expect(mail!.text).toContain(`/admin/inquiries?inquiry=${overdue.id}`);
    for (const quiet of [backlog, replied, fresh]) expect(await mailsAbout(quiet.id)).toEqual([]);
  });

  it("sends nothing when turned off", async () => {
    const late = await arrived("Late", new Date(Date.now() - 25 * HOUR));
    config.inquiryOverdueAlerts = false;
    try {
      expect(await alertOverdueReplies()).toBe(0);
    } finally {
      config.inquiryOverdueAlerts = true;
    }
    expect(await mailsAbout(late.id)).toEqual([]);
  });
});
